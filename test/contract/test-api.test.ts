// The mock's test API (seed, state, override, requests, reset) in-process and over HTTP
// under /__mock, on the fixture documents (fixtures/growth/).
import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { INITIAL_ETAG, JSON_HEADERS, startFixtureMock } from './growth-fixtures.js';
// @ts-expect-error: plain ESM module without types
import { adminAnswer, isLoopback } from '../../mock/test-api/admin.mjs';

let mock: Mock;
beforeAll(async () => {
  mock = await startFixtureMock({ takenNames: ['at-start'] });
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const COMPANY = 'c1';
const VENDOR = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';
const vendorUrl = (key = VENDOR) => `${mock.url}/api/v2.0/companies(${COMPANY})/vendors(${key})`;
const IMAGES = `/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Fixture/locations/westeurope/images?api-version=2025-09-01`;

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, eTag: response.headers.get('etag'), body: text ? JSON.parse(text) : undefined };
}
const admin = (path: string, method = 'GET', body?: unknown) =>
  call(`${mock.adminUrl}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('seed and state', () => {
  it('puts vendors in place with or without an eTag; reads them back; the API serves them', async () => {
    const { entities } = mock.seed({
      entities: [
        { company: COMPANY, set: 'vendors', entity: { id: VENDOR, displayName: 'Seeded', number: 'S1' }, eTag: 'W/"seeded"' },
        { company: COMPANY, set: 'vendors', key: 'bbbbbbbb-0000-4000-8000-000000000002', entity: { displayName: 'No tag' } },
        { company: COMPANY, set: 'shipmentMethods', key: 'DHL', entity: { code: 'DHL' } },
      ],
    });
    expect(entities.map((e) => e.eTag)).toEqual(['W/"seeded"', INITIAL_ETAG, INITIAL_ETAG]);
    expect(await call(vendorUrl())).toMatchObject({ status: 200, eTag: 'W/"seeded"', body: { id: VENDOR, displayName: 'Seeded', number: 'S1' } });
    expect((await call(vendorUrl('bbbbbbbb-0000-4000-8000-000000000002'))).body).toEqual({ id: 'bbbbbbbb-0000-4000-8000-000000000002', displayName: 'No tag' });
    const stale = await call(vendorUrl(), { method: 'PATCH', headers: { 'if-match': INITIAL_ETAG }, body: JSON.stringify({ blocked: 'Payment' }) });
    expect(stale).toMatchObject({ status: 412, eTag: 'W/"seeded"' });
    const listed = await call(`${mock.url}/api/v1.0/companies(${COMPANY})/shipmentMethods`);
    expect(listed.body.value).toEqual([{ code: 'DHL', id: 'DHL' }]);
    const state = mock.state;
    expect(state.entities.find((e) => e.key === VENDOR)).toMatchObject({
      company: COMPANY,
      set: 'vendors',
      eTag: 'W/"seeded"',
      entity: { displayName: 'Seeded' },
    });
    expect(state.entities).toHaveLength(3);
  });

  it('seeds taken names and the items of a paged list (with a page size), by operationId', async () => {
    mock.seed({ takenNames: ['orders-db'], lists: { Images_List: { items: [{ image: 'x:1' }, { image: 'y:1' }, { image: 'z:1' }], pageSize: 1 } } });
    expect(mock.state.takenNames.sort()).toEqual(['at-start', 'orders-db']);
    const first = await call(mock.url + IMAGES);
    expect(first.body.value).toEqual([{ image: 'x:1' }]);
    const third = await call(new URL(new URL(first.body.nextLink).href.replace('page2', 'page3')).href);
    expect(third.body).toEqual({ value: [{ image: 'z:1' }] });
    expect(mock.state.lists.Images_List).toEqual({ items: [{ image: 'x:1' }, { image: 'y:1' }, { image: 'z:1' }], pageSize: 1, seeded: true });
    mock.reset();
    expect(mock.state.lists.Images_List!.seeded).toBe(false);
    expect(mock.state.takenNames).toEqual(['at-start']);
  });

  it('refuses what it cannot put in place, naming it, and puts nothing in place then', () => {
    const good = { company: COMPANY, set: 'vendors', entity: { id: VENDOR } };
    expect(() => mock.seed({ entities: [good, { company: COMPANY, set: 'vendorz', entity: { id: 'x' } }] })).toThrow(
      /no document declares an entity set "vendorz".*vendors/,
    );
    expect(mock.state.entities).toEqual([]);
    expect(() => mock.seed({ lists: { Widgets_Get: [] } })).toThrow(/no document declares a nextLink-paged list operation "Widgets_Get".*Images_List/);
    expect(() => mock.seed({ entities: [{ company: COMPANY, set: 'vendors', entity: {} }] })).toThrow(/give "key" or an entity "id"/);
    expect(() => mock.seed({ vendors: [] } as never)).toThrow(/unknown "vendors"/);
  });
});

describe('override', () => {
  it('answers the next call with a status; the family error body when none is given; then the mock again', async () => {
    const handle = mock.override({ operationId: 'getVendor', status: 503, times: 1 });
    const overridden = await call(vendorUrl());
    expect(overridden).toMatchObject({ status: 503, body: { error: { code: 'ServiceUnavailable', message: expect.stringContaining('test override') } } });
    expect(handle.calls).toBe(1);
    expect((await call(vendorUrl())).status).toBe(200);
  });

  it('answers N calls, or every call, with given headers and body; narrowed by when (object or function)', async () => {
    mock.override({ operationId: 'getVendor', status: 200, headers: { etag: 'W/"o"' }, body: { id: VENDOR, displayName: 'Overridden' }, times: 2 });
    mock.override({ operationId: 'getVendor', when: { params: { company_id: 'other' } }, status: 404 });
    mock.override({ operationId: 'listVendors', when: (r) => r.query.$top === '1', status: 500 });
    expect(await call(vendorUrl())).toMatchObject({ status: 200, eTag: 'W/"o"', body: { displayName: 'Overridden' } });
    expect((await call(`${mock.url}/api/v2.0/companies(other)/vendors(${VENDOR})`)).status).toBe(404);
    expect((await call(`${mock.url}/api/v1.0/companies(other)/vendors(${VENDOR})`)).status, 'every version declaring the operation').toBe(404);
    expect((await call(vendorUrl())).body.displayName).toBe('Overridden');
    expect((await call(vendorUrl())).body.displayName).toBe('Fabrikam Supplies');
    expect((await call(`${mock.url}/api/v2.0/companies(c1)/vendors?$top=1`)).status).toBe(500);
    expect((await call(`${mock.url}/api/v2.0/companies(c1)/vendors`)).status).toBe(200);
    mock.reset();
    expect((await call(`${mock.url}/api/v2.0/companies(other)/vendors(${VENDOR})`)).status, 'reset clears overrides').toBe(200);
  });

  it('delays an answer', async () => {
    mock.override({ operationId: 'getVendor', delayMs: 300, times: 1 });
    const start = performance.now();
    expect((await call(vendorUrl())).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
  });

  it('times out (no answer until the client gives up) and drops the connection', async () => {
    mock.override({ operationId: 'getVendor', fault: 'timeout', times: 1 });
    const timedOut = await fetch(vendorUrl(), { headers: JSON_HEADERS, signal: AbortSignal.timeout(400) }).catch((e: Error) => e.name);
    expect(timedOut).toBe('TimeoutError');
    mock.override({ operationId: 'getVendor', fault: 'drop', times: 1 });
    const dropped = await fetch(vendorUrl(), { headers: JSON_HEADERS }).catch((e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message);
    expect(dropped).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect((await call(vendorUrl())).status).toBe(200);
    expect(mock.requests.map((r) => [r.fault ?? null, r.status])).toEqual([
      ['timeout', null],
      ['drop', null],
      [null, 200],
    ]);
  });

  it('a success status without a body answers the documented example; a when() that throws is a 500 naming it', async () => {
    mock.override({ operationId: 'getVendor', status: 200, times: 1 });
    expect((await call(vendorUrl('cccccccc-0000-4000-8000-000000000003'))).body).toMatchObject({ id: VENDOR, displayName: 'Fabrikam Supplies' });
    mock.override({
      operationId: 'getVendor',
      when: () => {
        throw new Error('broken predicate');
      },
      status: 200,
    });
    const broken = await call(vendorUrl());
    expect(broken).toMatchObject({ status: 500, body: { error: { code: 'MockOverrideFailed', message: expect.stringContaining('broken predicate') } } });
  });

  it('refuses an override it cannot apply, naming what is wrong', () => {
    expect(() => mock.override({ operationId: 'nope', status: 500 })).toThrow(/no document declares this operationId.*getVendor/);
    expect(() => mock.override({ operationId: 'getVendor' })).toThrow(/say what to do/);
    expect(() => mock.override({ operationId: 'getVendor', fault: 'drop', status: 500 })).toThrow(/not both/);
    expect(() => mock.override({ operationId: 'getVendor', status: 99 })).toThrow(/"status"/);
    expect(() => mock.override({ operationId: 'getVendor', status: 500, when: { param: {} } as never })).toThrow(/"when" names "param"/);
  });
});

describe('requests', () => {
  it('records method, path, query, headers (Authorization redacted), parsed body, operationId and status', async () => {
    await call(vendorUrl(), {
      method: 'PATCH',
      headers: { 'if-match': INITIAL_ETAG, authorization: 'Bearer secret-token-value' },
      body: JSON.stringify({ blocked: 'Payment' }),
    });
    await call(`${mock.url}/nowhere?x=1`);
    await admin('/state');
    const [patched, nowhere, ...rest] = mock.requests;
    expect(rest, 'the admin prefix is not recorded').toEqual([]);
    expect(patched).toMatchObject({
      method: 'PATCH',
      path: `/api/v2.0/companies(c1)/vendors(${VENDOR})`,
      query: {},
      body: { blocked: 'Payment' },
      operationId: 'updateVendor',
      api: 'fixture-business@v2.0',
      version: '/api/v2.0',
      status: 200,
    });
    expect(patched!.headers).toMatchObject({ authorization: 'Bearer [redacted]', 'if-match': INITIAL_ETAG });
    expect(JSON.stringify(mock.requests)).not.toContain('secret-token-value');
    expect(nowhere).toMatchObject({ method: 'GET', path: '/nowhere', query: { x: '1' }, status: 404 });
    expect(nowhere!.operationId).toBeUndefined();
    mock.reset();
    expect(mock.requests).toEqual([]);
  });
});

describe('the test API over HTTP (/__mock)', () => {
  it('seed, state, overrides, requests and reset, as a harness in another process uses them', async () => {
    expect((await admin('')).body.endpoints).toContain('/__mock/seed');
    const seeded = await admin('/seed', 'POST', {
      entities: [{ company: COMPANY, set: 'vendors', entity: { id: VENDOR, displayName: 'Over HTTP' }, eTag: 'W/"h"' }],
    });
    expect(seeded).toMatchObject({ status: 200, body: { entities: [{ key: VENDOR, eTag: 'W/"h"' }] } });
    expect((await call(vendorUrl())).body.displayName).toBe('Over HTTP');
    expect((await admin('/state')).body.entities[0]).toMatchObject({ entity: { displayName: 'Over HTTP' } });
    const added = await admin('/overrides', 'POST', { operationId: 'getVendor', status: 500, times: 1, when: { method: 'GET' } });
    expect(added.status).toBe(201);
    expect((await admin('/overrides')).body).toEqual([
      { id: added.body.id, operationId: 'getVendor', status: 500, times: 1, when: { method: 'GET' }, calls: 0 },
    ]);
    expect((await call(vendorUrl())).status).toBe(500);
    expect((await admin('/requests')).body.map((r: { status: number }) => r.status)).toEqual([200, 500]);
    expect((await admin('/reset', 'POST')).status).toBe(200);
    expect(mock.state.entities).toEqual([]);
    expect((await admin('/requests')).body).toEqual([]);
  });

  it('DELETE clears the overrides, the long-running rules and the record, each alone', async () => {
    await admin('/overrides', 'POST', { operationId: 'getVendor', status: 503 });
    await admin('/long-running', 'POST', { polls: 3 });
    await call(vendorUrl());
    expect(await admin('/overrides', 'DELETE')).toMatchObject({ status: 200, body: { cleared: true } });
    expect(mock.overrides).toEqual([]);
    expect(mock.state.longRunning).toHaveLength(1);
    expect(await admin('/long-running', 'DELETE')).toMatchObject({ status: 200, body: { cleared: true } });
    expect(mock.state.longRunning).toEqual([]);
    expect(mock.requests).not.toEqual([]);
    expect(await admin('/requests', 'DELETE')).toMatchObject({ status: 200, body: { cleared: true } });
    expect(mock.requests).toEqual([]);
    expect((await call(vendorUrl())).status, 'the override is gone').toBe(200);
  });

  it('answers mistakes with a 4xx that names them', async () => {
    expect(await admin('/seed', 'POST', { entities: [{ company: COMPANY, set: 'nope', entity: {} }] })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining('"nope"') } },
    });
    expect((await admin('/overrides', 'POST', { operationId: 'getVendor' })).status).toBe(400);
    expect((await admin('/elsewhere')).status).toBe(404);
    const wrong = await admin('/state', 'DELETE');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const broken = await call(`${mock.adminUrl}/seed`, { method: 'POST', body: '{' });
    expect(broken).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/not valid JSON/) } } });
  });

  it('answers loopback clients only', async () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.1.2.3'].every(isLoopback)).toBe(true);
    expect(['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', undefined].some(isLoopback)).toBe(false);
    const remote = { method: 'GET', headers: {}, socket: { remoteAddress: '10.0.0.5' } } as unknown as http.IncomingMessage;
    const answer = await adminAnswer(remote, '/__mock/state', '/__mock', {});
    expect(answer).toMatchObject({ status: 403, body: { error: { code: 'Forbidden' } } });
  });

  it('answers no web page: a request with Origin is refused, and no answer carries CORS headers', async () => {
    const page = await call(`${mock.adminUrl}/requests`, { headers: { origin: 'https://evil.example' } });
    expect(page).toMatchObject({ status: 403, body: { error: { message: expect.stringContaining('not web pages') } } });
    const harness = await admin('/state');
    expect(harness.status).toBe(200);
    expect(harness.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${mock.adminUrl}/seed`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect((await call(`${mock.url}/api/v2.0/companies(c1)/vendors`)).headers.get('access-control-allow-origin'), 'the API itself stays open to pages').toBe(
      '*',
    );
  });
});

describe('adminPrefix: false', () => {
  it('starts with no test API over HTTP: no adminUrl, and /__mock is a path like any other (404); the in-process test API still works', async () => {
    const off = await startFixtureMock({ adminPrefix: false });
    try {
      expect(off.adminUrl).toBeUndefined();
      const answer = await call(`${off.url}/__mock/state`);
      expect(answer).toMatchObject({ status: 404, body: { error: { code: 'NotFound' } } });
      expect(off.requests.map((r) => r.path)).toEqual(['/__mock/state']);
      expect(off.state.entities).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
