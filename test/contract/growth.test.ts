// The mock grows with the documents by each family's conventions, with no code per
// operation: proven on fixture documents of this test's own (fixtures/growth/), served
// in-process through startMock({ documents }). Business data: OData entity sets, one
// store per company and set shared by every version; resource management: nextLink
// paging and routing by api-version; a bound action on an entity that exists: its
// documented answer; anything else: its documented example, reported once per operation
// in `routes`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { INITIAL_ETAG, JSON_HEADERS, startFixtureMock, startMock } from './growth-fixtures.js';

let mock: Mock;
beforeAll(async () => {
  mock = await startFixtureMock();
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const COMPANY = 'c0ffee00-0000-4000-8000-000000000001';
const VENDOR = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';
const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const bc = (version: string, path: string) => `${mock.url}/api/${version}/companies(${COMPANY})${path}`;

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, eTag: response.headers.get('etag'), body: text ? JSON.parse(text) : undefined };
}
const patch = (version: string, key: string, ifMatch: string, body: object) =>
  call(bc(version, `/vendors(${key})`), { method: 'PATCH', headers: { 'if-match': ifMatch }, body: JSON.stringify(body) });

describe('what each operation is answered by, read from the documents', () => {
  it('every operation has a convention, and the ones none covers are named once, at start', () => {
    const by = Object.fromEntries(mock.routes.map((r) => [`${r.operationId} ${r.version}`, r.convention]));
    expect(by).toMatchObject({
      'updateVendor /api/v2.0': 'odata-update',
      'getVendor /api/v2.0': 'odata-read',
      'getVendor /api/v1.0': 'odata-read',
      'deleteVendor /api/v2.0': 'odata-delete',
      'listVendors /api/v2.0': 'odata-list',
      'createVendor /api/v2.0': 'odata-create',
      'createShipmentMethod /api/v1.0': 'odata-create',
      'createShipmentMethod /api/v2.0': 'odata-create',
      'listShipmentMethods /api/v1.0': 'odata-list',
      'notifyVendor /api/v2.0': 'odata-action',
      'Images_List 2025-09-01': 'arm-paging',
      'Widgets_Get 2025-01-01': 'example',
      'Widgets_Get 2025-06-01': 'example',
    });
  });
});

describe('business data: OData entity sets', () => {
  it('an unseen key starts as the documented example under that key, with the initial tag', async () => {
    const read = await call(bc('v2.0', `/vendors(${VENDOR})`));
    expect(read).toMatchObject({ status: 200, eTag: INITIAL_ETAG, body: { id: VENDOR, displayName: 'Fabrikam Supplies', number: '50000' } });
    const other = 'aaaaaaaa-0000-4000-8000-000000000002';
    expect((await call(bc('v2.0', `/vendors(${other})`))).body).toMatchObject({ id: other, displayName: 'Fabrikam Supplies' });
  });

  it('PATCH then GET: the patched vendor with the tag the PATCH returned, through every version that declares vendors', async () => {
    const patched = await patch('v2.0', VENDOR, INITIAL_ETAG, { blocked: 'Payment', id: 'ignored (read-only)' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: VENDOR, blocked: 'Payment', displayName: 'Fabrikam Supplies' });
    expect(patched.eTag).toBeTruthy();
    expect(patched.eTag).not.toBe(INITIAL_ETAG);
    for (const version of ['v2.0', 'v1.0']) {
      const read = await call(bc(version, `/vendors(${VENDOR.toUpperCase()})`));
      expect(read, version).toMatchObject({ status: 200, eTag: patched.eTag, body: patched.body });
    }
  });

  it('PATCH with a stale tag: 412 with the current tag, nothing changed', async () => {
    const first = await patch('v2.0', VENDOR, INITIAL_ETAG, { displayName: 'First' });
    const stale = await patch('v2.0', VENDOR, INITIAL_ETAG, { displayName: 'Lost update' });
    expect(stale.status).toBe(412);
    expect(stale.eTag).toBe(first.eTag);
    expect(stale.body).toMatchObject({ error: { code: 'PreconditionFailed', message: expect.stringContaining(first.eTag!) } });
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`))).body.displayName).toBe('First');
    expect((await patch('v2.0', VENDOR, '*', { displayName: 'Wildcard' })).status).toBe(200);
  });

  it('DELETE: 204, then 404 in the family error body for GET, PATCH and DELETE; gone from the list', async () => {
    await call(bc('v2.0', `/vendors(${VENDOR})`));
    expect((await call(bc('v2.0', '/vendors'))).body.value.map((v: { id: string }) => v.id)).toEqual([VENDOR]);
    const deleted = await call(bc('v2.0', `/vendors(${VENDOR})`), { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 204, body: undefined });
    for (const [method, version] of [
      ['GET', 'v2.0'],
      ['GET', 'v1.0'],
      ['DELETE', 'v2.0'],
    ] as const) {
      const after = await call(bc(version, `/vendors(${VENDOR})`), { method });
      expect(after.status, `${method} ${version}`).toBe(404);
      expect(after.body).toEqual({ error: { code: 'NotFound', message: expect.stringMatching(/vendors.*deleted/) } });
    }
    expect((await patch('v2.0', VENDOR, '*', { displayName: 'x' })).status).toBe(404);
    expect((await call(bc('v2.0', '/vendors'))).body).toEqual({ value: [] });
    mock.reset();
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`))).status, 'reset forgets the deletion').toBe(200);
  });

  it('DELETE with a stale If-Match: 412 naming the current tag, nothing deleted; with the current one, 204', async () => {
    const current = (await call(bc('v2.0', `/vendors(${VENDOR})`))).eTag!;
    expect(current).toBeTruthy();
    const stale = await call(bc('v2.0', `/vendors(${VENDOR})`), { method: 'DELETE', headers: { 'if-match': 'W/"stale"' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error: { code: 'PreconditionFailed', message: expect.stringContaining(current) } });
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`))).status, 'still there').toBe(200);
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`), { method: 'DELETE', headers: { 'if-match': current } })).status).toBe(204);
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`))).status).toBe(404);
  });

  it('POST creates: 201, a server-assigned id and lastModifiedDateTime, an ETag; then GET and the list read it back', async () => {
    const before = Date.now();
    const created = await call(bc('v2.0', '/vendors'), {
      method: 'POST',
      body: JSON.stringify({ displayName: 'Contoso', number: '60000', lastModifiedDateTime: '2000-01-01T00:00:00Z' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'Contoso', number: '60000' });
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(created.body.lastModifiedDateTime)).toBeGreaterThanOrEqual(before - 1000);
    expect(created.eTag).toBeTruthy();
    expect(await call(bc('v2.0', `/vendors(${created.body.id})`))).toMatchObject({ status: 200, eTag: created.eTag, body: created.body });
    expect((await call(bc('v2.0', '/vendors'))).body.value).toEqual([created.body]);
  });

  it('shipment methods created through v2.0 and v1.0 share one store per company; another company sees none', async () => {
    const a = await call(bc('v2.0', '/shipmentMethods'), { method: 'POST', body: JSON.stringify({ code: 'EXW', displayName: 'Ex Works' }) });
    const b = await call(bc('v1.0', '/shipmentMethods'), { method: 'POST', body: JSON.stringify({ code: 'FOB', displayName: 'Free on Board' }) });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    const listed = await call(bc('v1.0', '/shipmentMethods'));
    expect(listed.body.value.map((m: { code: string }) => m.code)).toEqual(['EXW', 'FOB']);
    const elsewhere = await call(`${mock.url}/api/v1.0/companies(other)/shipmentMethods`);
    expect(elsewhere.body).toEqual({ value: [] });
  });

  it('a bound action (POST …/vendors({key})/Microsoft.NAV.notify) answers its documented example for a vendor that exists; validation still applies', async () => {
    const notified = await call(bc('v2.0', `/vendors(${VENDOR})/Microsoft.NAV.notify`), { method: 'POST' });
    expect(notified).toMatchObject({ status: 200, body: { sent: true, channel: 'documented-example' } });
    expect((await call(bc('v2.0', '/vendors(not-a-guid)/Microsoft.NAV.notify'), { method: 'POST' })).status).toBe(400);
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`), { headers: { authorization: '' } })).status).toBe(401);
  });

  it('a bound action on a deleted vendor: 404 naming it; with a stale If-Match: 412 with the current tag; the vendor itself unchanged', async () => {
    const read = await call(bc('v2.0', `/vendors(${VENDOR})`));
    const stale = await call(bc('v2.0', `/vendors(${VENDOR})/Microsoft.NAV.notify`), { method: 'POST', headers: { 'if-match': 'W/"stale"' } });
    expect(stale).toMatchObject({ status: 412, eTag: read.eTag, body: { error: { code: 'PreconditionFailed' } } });
    expect(await call(bc('v2.0', `/vendors(${VENDOR})/Microsoft.NAV.notify`), { method: 'POST', headers: { 'if-match': read.eTag! } })).toMatchObject({
      status: 200,
      eTag: read.eTag,
    });
    expect(await call(bc('v2.0', `/vendors(${VENDOR})`))).toEqual(read);
    expect((await call(bc('v2.0', `/vendors(${VENDOR})`), { method: 'DELETE' })).status).toBe(204);
    const gone = await call(bc('v2.0', `/vendors(${VENDOR})/Microsoft.NAV.notify`), { method: 'POST' });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain(`'${VENDOR}'`);
    expect(gone.body.error.message).toContain('deleted');
    // Its documented answer is not a vendor: a key first seen by the action starts as a
    // vendor example, and the list holds no action answer.
    const fresh = 'aaaaaaaa-0000-4000-8000-00000000000a';
    expect((await call(bc('v2.0', `/vendors(${fresh})/Microsoft.NAV.notify`), { method: 'POST' })).status).toBe(200);
    expect((await call(bc('v2.0', `/vendors(${fresh})`))).body).toMatchObject({ id: fresh, displayName: 'Fabrikam Supplies' });
    expect(JSON.stringify((await call(bc('v2.0', '/vendors'))).body)).not.toContain('documented-example');
  });

  it('an operation no convention covers answers its documented example; Prefer and validation still apply', async () => {
    const widget = (name: string) => `${mock.url}/subscriptions/${SUBSCRIPTION}/providers/Provider.Fixture/widgets/${name}?api-version=2025-01-01`;
    expect(await call(widget('any'))).toMatchObject({ status: 200, body: { name: 'documented', madeIn: '2025-01-01' } });
    expect((await call(widget('any'), { headers: { prefer: 'code=404' } })).status).toBe(404);
    expect((await call(widget('any').replace('2025-01-01', '1999-01-01'))).status).toBe(400);
    expect((await call(widget('any'), { headers: { authorization: '' } })).status).toBe(401);
  });
});

describe('resource management: paging and api-versions', () => {
  const images = (version = '2025-09-01') =>
    `${mock.url}/subscriptions/${SUBSCRIPTION}/providers/Provider.Fixture/locations/westeurope/images?api-version=${version}`;

  it('a list with nextLink pages its documented items (each once), links on the request origin', async () => {
    const seen: unknown[] = [];
    let url: string | undefined = images();
    let pages = 0;
    while (url) {
      const page = await call(url);
      expect(page.status).toBe(200);
      seen.push(...page.body.value);
      url = page.body.nextLink;
      if (url) expect(new URL(url).origin).toBe(mock.url);
      if (url) expect(new URL(url).searchParams.get('api-version')).toBe('2025-09-01');
      expect(++pages).toBeLessThan(10);
    }
    expect(seen.map((i: any) => i.image)).toEqual(['a:1', 'b:1', 'c:1', 'd:1', 'e:1']);
    expect(pages).toBe(3);
  });

  it('a new api-version is served next to the old one, each answering from its own document', async () => {
    const widget = (version: string) => call(`${mock.url}/subscriptions/${SUBSCRIPTION}/providers/Provider.Fixture/widgets/w1?api-version=${version}`);
    expect((await widget('2025-01-01')).body).toEqual({ name: 'documented', madeIn: '2025-01-01' });
    expect((await widget('2025-06-01')).body).toEqual({ name: 'documented', madeIn: '2025-06-01' });
    const unknown = await widget('2024-01-01');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/2025-01-01, 2025-06-01/);
  });
});

describe('startMock({ documents })', () => {
  it('refuses a document list it cannot serve, naming the entry and what is wrong', async () => {
    await expect(startMock({ port: 0, documents: [{ api: 'Bad Name', version: 'v1.0', family: 'business-central', document: {} }] })).rejects.toThrow(
      /documents\[0\]: "api"/,
    );
    await expect(startMock({ port: 0, documents: [{ api: 'x', version: 'v1.0', family: 'other' as never, document: {} }] })).rejects.toThrow(
      /documents\[0\]: "family" must be one of/,
    );
    await expect(startMock({ port: 0, documents: [{ api: 'x', version: 'v1.0', family: 'business-central', document: '/nonexistent.yaml' }] })).rejects.toThrow(
      /nonexistent\.yaml: missing/,
    );
  });

  it('refuses a document that declares a path under the admin prefix', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/__mock/state': { get: { operationId: 'shadow', responses: { 200: { description: 'x' } } } } },
    };
    await expect(startMock({ port: 0, documents: [{ api: 'x', version: '1', family: 'resource-manager', document }] })).rejects.toThrow(
      /\/__mock\/state.*reserves for its test API/,
    );
  });
});
