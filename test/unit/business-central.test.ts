// The business-data client on the wire: version prefixes, OData keys, If-Match.
import { describe, expect, it } from 'vitest';
import { ClientError, createBusinessCentralClient } from '../../src/index.js';
import { fakeFetch, GUID, json, SHIPMENTS, VENDOR } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';
import { apis } from '../../generated/client-manifest.js';

const BASE = 'https://api.example.com';
const COMPANY = '9c4f2ddc-9e75-ea11-bbf0-000d3a38a583';

function client(answer = () => json({ id: GUID, displayName: 'A' })) {
  const fake = fakeFetch(answer);
  const bc = createBusinessCentralClient({ baseUrl: BASE, token: 'tok-123', fetch: fake.fetch, retry: false });
  return { bc, calls: fake.calls };
}

/** What a server sees as the key inside companies(...): the raw text between the parentheses. */
function companyKey(pathname: string): string {
  const match = /^\/api\/v\d+\.\d+\/companies\(([^()/]*)\)\/(vendors|shipmentMethods)/.exec(pathname);
  if (!match) throw new Error(`the company key did not stay inside its parentheses: ${pathname}`);
  return decodeURIComponent(match[1]!);
}

describe('version prefix', () => {
  it("adds each API's /api/<default version> (v2.0 and v1.0 here) to the vendor update and the shipment-method create", async () => {
    const { bc, calls } = client();
    await bc.PATCH(VENDOR, { params: { path: { company_id: COMPANY, vendor_id: GUID }, header: { 'If-Match': 'W/"1"' } }, body: { displayName: 'A' } });
    await bc.POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP', displayName: 'Express' } });
    expect(calls.map((c) => `${c.method} ${c.url.pathname}${c.url.search}`)).toEqual([
      `PATCH /api/${DEFAULT.vendors}/companies(${COMPANY})/vendors(${GUID})`,
      `POST /api/${DEFAULT.shipmentmethods}/companies(${COMPANY})/shipmentMethods`,
    ]);
  });

  it('adds /api/<pinned version> to every operation for a pin, also one the package does not hold (untyped callers; the types refuse it)', async () => {
    const fake = fakeFetch(() => json({ error: { code: 'NotFound', message: 'no such path' } }, 404));
    type Untyped = { POST(path: string, init: unknown): Promise<unknown> };
    const bc = createBusinessCentralClient({
      baseUrl: `${BASE}/v2.0/tenant/production`,
      token: 't',
      fetch: fake.fetch,
      retry: false,
      apiVersions: { businesscentral: 'v9.12' as 'v2.0' },
    });
    const result = await bc.updateVendor({ companyId: COMPANY, vendorId: GUID, eTag: 'W/"1"', vendor: { displayName: 'A' } });
    await (bc as unknown as Untyped).POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP' } });
    // The caller's baseUrl (host, tenant path) stays in front; a pin is one version for the whole API.
    expect(fake.calls.map((c) => c.url.pathname)).toEqual([
      `/v2.0/tenant/production/api/v9.12/companies(${COMPANY})/vendors(${GUID})`,
      `/v2.0/tenant/production/api/v9.12/companies(${COMPANY})/shipmentMethods`,
    ]);
    expect(result).toMatchObject({ ok: false, error: { error: { code: 'NotFound' } } });
  });

  it('names the whole URL, tenant path included, in its errors', async () => {
    const bc = createBusinessCentralClient({
      baseUrl: `${BASE}/v2.0/tenant/production`,
      token: 't',
      retry: false,
      fetch: async () => Promise.reject(new TypeError('connection refused')),
    });
    const error = await bc.POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).message).toContain(
      `POST ${BASE}/v2.0/tenant/production/api/${DEFAULT.shipmentmethods}/companies({company_id})/shipmentMethods`,
    );
  });

  it('refuses, before anything is sent, a pin not shaped vN.N and an API the family does not have', () => {
    for (const bad of ['2.0', 'v2', 'V2.0', 'v2.0-preview', '2025-01-01', 'v2.0/../..', 2]) {
      expect(() => createBusinessCentralClient({ baseUrl: BASE, token: 't', apiVersions: { businesscentral: bad as never } }), String(bad)).toThrow(
        expect.objectContaining({ code: 'invalid-argument', parameter: 'apiVersions.businesscentral', message: expect.stringContaining('vN.N') }),
      );
    }
    expect(() => createBusinessCentralClient({ baseUrl: BASE, token: 't', apiVersions: { sql: 'v2.0' } as never })).toThrow(
      expect.objectContaining({
        code: 'invalid-argument',
        parameter: 'apiVersions.sql',
        message: expect.stringContaining(`names no business-central API (${Object.keys(apis['business-central']).join(', ')})`),
      }),
    );
  });
});

describe('OData keys', () => {
  it.each([
    ['a closing parenthesis', 'x)/vendors(00000000-0000-0000-0000-000000000000'],
    ['a slash', '../../companies(other'],
    ['a quote', "x' or '1'='1"],
    ['an asterisk and a bang', 'x*!'],
    ['a question mark and a hash', 'x?$filter=1#y'],
    ['percent signs', '%29%2F'],
  ])('keeps a company id with %s inside its key', async (_what, hostile) => {
    const { bc, calls } = client();
    await bc.POST(SHIPMENTS, { params: { path: { company_id: hostile } }, body: { code: 'X' } });
    const url = calls[0]!.url;
    expect(companyKey(url.pathname)).toBe(hostile);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    expect(url.pathname.endsWith('/shipmentMethods')).toBe(true);
  });

  it.each(['x)', '../x', "x'", '', 'not-a-guid', `${GUID})`])('refuses vendor id %j before sending, naming the parameter', async (bad) => {
    const { bc, calls } = client();
    const error = await bc
      .PATCH(VENDOR, { params: { path: { company_id: COMPANY, vendor_id: bad }, header: { 'If-Match': 'W/"1"' } }, body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'vendor_id' });
    expect((error as Error).message).toContain('"vendor_id"');
    expect(calls).toHaveLength(0);
  });

  it('refuses an empty company id', async () => {
    const { bc, calls } = client();
    await expect(bc.POST(SHIPMENTS, { params: { path: { company_id: '' } }, body: {} })).rejects.toMatchObject({ parameter: 'company_id' });
    expect(calls).toHaveLength(0);
  });
});

describe('vendor update', () => {
  it('sends the eTag as If-Match, with the fields to change only', async () => {
    const { bc, calls } = client(() => json({ id: GUID, displayName: 'B', '@odata.etag': 'W/"2"' }));
    const result = await bc.updateVendor({ companyId: COMPANY, vendorId: GUID, eTag: 'W/"JzQ0OzE="', vendor: { displayName: 'B' } });
    const call = calls[0]!;
    expect(call.method).toBe('PATCH');
    expect(call.url.pathname).toBe(`/api/${DEFAULT.vendors}/companies(${COMPANY})/vendors(${GUID})`);
    expect(call.headers.get('if-match')).toBe('W/"JzQ0OzE="');
    expect(call.headers.get('authorization')).toBe('Bearer tok-123');
    expect(JSON.parse(call.body)).toEqual({ displayName: 'B' });
    expect(result).toMatchObject({ ok: true, data: { displayName: 'B' } });
  });

  it.each(['', ' ', '*', 'W/"1"\r\nX-Evil: 1'])('refuses eTag %j before sending', async (eTag) => {
    const { bc, calls } = client();
    await expect(bc.updateVendor({ companyId: COMPANY, vendorId: GUID, eTag, vendor: { displayName: 'B' } })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'eTag',
    });
    expect(calls).toHaveLength(0);
  });

  it('returns a mismatched eTag as an error result with its status, without throwing', async () => {
    const body = { error: { code: 'Request_EntityChanged', message: 'Another user has already changed the record.' } };
    const { bc } = client(() => json(body, 412));
    const result = await bc.updateVendor({ companyId: COMPANY, vendorId: GUID, eTag: 'W/"old"', vendor: { displayName: 'B' } });
    expect(result.ok).toBe(false);
    expect(result.response.status).toBe(412);
    expect(result.error).toEqual(body);
  });

  it('is not retried: PATCH is not idempotent', async () => {
    const fake = fakeFetch(() => json({}, 503, { 'Retry-After': '0' }));
    const bc = createBusinessCentralClient({ baseUrl: BASE, token: 't', fetch: fake.fetch });
    const result = await bc.updateVendor({ companyId: COMPANY, vendorId: GUID, eTag: 'W/"1"', vendor: {} });
    expect(result.ok).toBe(false);
    expect(fake.calls).toHaveLength(1);
  });
});
