// The conveniences apply by the shape of an operation, not by its name: listAll/listPages
// to any nextLink-paged GET, patchWithETag to any PATCH with a required If-Match. Driven
// through the operations the documents have; the type side (which paths they accept) is in
// test/types/clients.test-d.ts, and test/growth/ shows them on operations added later.
import { describe, expect, it } from 'vitest';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { fakeFetch, GUID, IMAGES, json, SUBSCRIPTION } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';

const BASE = 'https://management.example.com';
const VENDOR = '/companies({company_id})/vendors({vendor_id})';

describe('listAll / listPages', () => {
  it('follow nextLink on any list path with the same params, signal and headers on every page', async () => {
    const list = `/subscriptions/${SUBSCRIPTION}/providers/Provider.ContainerInstance/locations/westeurope/cachedImages`;
    const bodies = [{ value: [{ image: 'a' }], nextLink: `${BASE}${list}?api-version=${DEFAULT.containerinstance}&$skiptoken=2` }, { value: [{ image: 'b' }] }];
    const fake = fakeFetch((_c, i) => json(bodies[i]));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false });
    const items: unknown[] = [];
    for await (const item of arm.listAll(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } }, headers: { Prefer: 'x' } }))
      items.push(item);
    expect(items).toEqual([{ image: 'a' }, { image: 'b' }]);
    expect(fake.calls.map((c) => c.headers.get('prefer'))).toEqual(['x', 'x']);
    const pages: unknown[] = [];
    const again = fakeFetch(() => json({ value: [{ image: 'c' }] }));
    const arm2 = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: again.fetch, retry: false });
    for await (const page of arm2.listPages(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } })) pages.push(page);
    expect(pages).toEqual([{ value: [{ image: 'c' }] }]);
  });

  it('refuse a nextLink to another origin before the token leaves', async () => {
    const fake = fakeFetch(() => json({ value: [], nextLink: 'https://elsewhere.example/next' }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false });
    const iterate = async () => {
      for await (const _ of arm.listAll(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } }));
    };
    await expect(iterate()).rejects.toMatchObject({ code: 'foreign-next-link' });
    expect(fake.calls).toHaveLength(1);
  });
});

describe('patchWithETag', () => {
  it('sends the eTag as If-Match, with per-call headers, under the version the client sends the operation at', async () => {
    const fake = fakeFetch(() => json({ id: GUID }));
    const bc = createBusinessCentralClient({ baseUrl: 'https://b.example/t', token: 't', fetch: fake.fetch, retry: false, headers: { Prefer: 'client' } });
    const result = await bc.patchWithETag(VENDOR, {
      params: { path: { company_id: 'c', vendor_id: GUID } },
      eTag: 'W/"7"',
      body: { displayName: 'A' },
      headers: { Prefer: 'call' },
    });
    expect(result.ok).toBe(true);
    const [call] = fake.calls;
    expect(call!.method).toBe('PATCH');
    expect(call!.url.pathname).toBe(`/t/api/${DEFAULT.vendors}/companies(c)/vendors(${GUID})`);
    expect(call!.headers.get('if-match')).toBe('W/"7"');
    expect(call!.headers.get('prefer')).toBe('call');
  });

  it("a call's headers cannot replace the eTag", async () => {
    const fake = fakeFetch(() => json({ id: GUID }));
    const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', fetch: fake.fetch, retry: false });
    await bc.patchWithETag(VENDOR, { params: { path: { company_id: 'c', vendor_id: GUID } }, eTag: 'W/"7"', body: {}, headers: { 'If-Match': '*' } });
    expect(fake.calls[0]!.headers.get('if-match')).toBe('W/"7"');
  });

  it.each([['*'], [''], ['  '], ['W/"1"\r\nX: y']])('refuses the eTag %j before anything is sent', async (eTag) => {
    const fake = fakeFetch(() => json({}));
    const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', fetch: fake.fetch });
    await expect(bc.patchWithETag(VENDOR, { params: { path: { company_id: 'c', vendor_id: GUID } }, eTag, body: {} })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'eTag',
    });
    await expect(bc.updateVendor({ companyId: 'c', vendorId: GUID, eTag, vendor: {} })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'eTag',
      message: expect.stringContaining('updateVendor'),
    });
    expect(fake.calls).toHaveLength(0);
  });

  it('updateVendor takes the per-call headers and signal of the path methods', async () => {
    const fake = fakeFetch(() => json({}));
    const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', fetch: fake.fetch, retry: false });
    await bc.updateVendor({ companyId: 'c', vendorId: GUID, eTag: 'W/"1"', vendor: {}, headers: { Prefer: 'code=503' } });
    expect(fake.calls[0]!.headers.get('prefer')).toBe('code=503');
    const controller = new AbortController();
    controller.abort();
    await expect(bc.updateVendor({ companyId: 'c', vendorId: GUID, eTag: 'W/"1"', vendor: {}, signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});
