// A consumer project's own vitest suite, as another team writes it: small app code built
// on the clients, contract-tested against the mock of the installed package through its
// test API (useMock, seed, override, requests, INITIAL_ETAG) and the error guard. Kept
// as text for the same reason as consumer-source.ts: it imports the package by name.

/** src/app.ts: the app code under test. */
export const APP_SOURCE = `
import {
  createBusinessCentralClient,
  createResourceManagerClient,
  isBusinessCentralErrorBody,
  type ClientOptions,
} from 'provider-api-clients';

export const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';

/** Checks a server name and calls create(name) only when it is free. */
export async function createServerIfFree(options: ClientOptions, name: string, create: (name: string) => Promise<void>): Promise<'created' | 'taken' | 'invalid'> {
  const arm = createResourceManagerClient(options);
  const result = await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
    params: { path: { subscriptionId: SUBSCRIPTION } },
    body: { name, type: 'Provider.Sql/servers' },
  });
  if (!result.ok) throw new Error('name check failed with ' + result.response.status);
  if (result.data.available) {
    await create(name);
    return 'created';
  }
  return result.data.reason === 'AlreadyExists' ? 'taken' : 'invalid';
}

/** Blocks a vendor's payments; after a conflict (412) retries once with the tag the answer names. */
export async function blockVendorPayments(options: ClientOptions, companyId: string, vendorId: string, eTag: string): Promise<{ eTag: string; attempts: number }> {
  const bc = createBusinessCentralClient(options);
  let tag = eTag;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const result = await bc.updateVendor({ companyId, vendorId, eTag: tag, vendor: { blocked: 'Payment' } });
    if (result.ok) return { eTag: result.response.headers.get('etag') ?? '', attempts: attempt };
    const current = result.response.headers.get('etag');
    const error: unknown = result.error;
    const why = isBusinessCentralErrorBody(error) ? error.error.code + ': ' + error.error.message : 'status ' + result.response.status;
    if (result.response.status !== 412 || !current || attempt === 2) throw new Error('blocking failed: ' + why);
    tag = current;
  }
  throw new Error('unreachable');
}

/** Every cached image of a region, across pages. */
export async function allCachedImages(options: ClientOptions, location: string): Promise<string[]> {
  const arm = createResourceManagerClient(options);
  const images: string[] = [];
  for await (const page of arm.listCachedImagePages({ subscriptionId: SUBSCRIPTION, location })) {
    for (const entry of page.value ?? []) images.push(entry.image ?? '?');
  }
  return images;
}
`;

/** test/app.test.ts: the consumer's contract tests. */
export const TEST_SOURCE = `
import { describe, expect, it, vi } from 'vitest';
import { isClientError, type ClientOptions } from 'provider-api-clients';
import { INITIAL_ETAG, startMock } from 'provider-api-clients/mock';
import { useMock } from 'provider-api-clients/mock/vitest';
import { allCachedImages, blockVendorPayments, createServerIfFree } from '../src/app.js';

const mock = useMock();
const options = (extra: Partial<ClientOptions> = {}): ClientOptions => ({ baseUrl: mock.url, token: 'consumer-secret-token', retry: false, ...extra });
const COMPANY = '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f';
const VENDOR = '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f';

describe('createServerIfFree', () => {
  it('creates a free name, not a taken one (seeded), and sent what the check needs', async () => {
    mock.seed({ takenNames: ['orders-db'] });
    const create = vi.fn(async (_name: string) => {});
    expect(await createServerIfFree(options(), 'orders-db', create)).toBe('taken');
    expect(await createServerIfFree(options(), 'billing-db', create)).toBe('created');
    expect(create.mock.calls).toEqual([['billing-db']]);
    const sent = mock.requests;
    expect(sent.map((r) => [r.operationId, r.status, r.body])).toEqual([
      ['Servers_CheckNameAvailability', 200, { name: 'orders-db', type: 'Provider.Sql/servers' }],
      ['Servers_CheckNameAvailability', 200, { name: 'billing-db', type: 'Provider.Sql/servers' }],
    ]);
    expect(sent[0]!.headers['authorization']).toBe('Bearer [redacted]');
    expect(JSON.stringify(sent)).not.toContain('consumer-secret-token');
  });

  it('a simulated 500 fails the operation and creates nothing; the mock was reset between tests', async () => {
    expect(mock.requests).toEqual([]);
    expect(mock.state.takenNames).not.toContain('orders-db');
    mock.override({ operationId: 'Servers_CheckNameAvailability', status: 500, times: 1 });
    const create = vi.fn(async (_name: string) => {});
    await expect(createServerIfFree(options(), 'billing-db', create)).rejects.toThrow('name check failed with 500');
    expect(create).not.toHaveBeenCalled();
    expect(await createServerIfFree(options(), 'billing-db', create)).toBe('created');
  });
});

describe('blockVendorPayments', () => {
  it('blocks an unseen vendor with the initial tag, in one call', async () => {
    const done = await blockVendorPayments(options(), COMPANY, VENDOR, INITIAL_ETAG);
    expect(done.attempts).toBe(1);
    const [vendor] = mock.state.entities;
    expect(vendor).toMatchObject({ set: 'vendors', key: VENDOR, eTag: done.eTag, entity: { blocked: 'Payment' } });
  });

  it('retries once after a conflict, with the tag the 412 names', async () => {
    mock.seed({ entities: [{ company: COMPANY, set: 'vendors', entity: { id: VENDOR, displayName: 'Fabrikam' }, eTag: 'W/"changed-meanwhile"' }] });
    const done = await blockVendorPayments(options(), COMPANY, VENDOR, 'W/"read-earlier"');
    expect(done.attempts).toBe(2);
    expect(mock.requests.map((r) => [r.method, r.headers['if-match'], r.status])).toEqual([
      ['PATCH', 'W/"read-earlier"', 412],
      ['PATCH', 'W/"changed-meanwhile"', 200],
    ]);
    expect(mock.state.entities[0]).toMatchObject({ eTag: done.eTag, entity: { displayName: 'Fabrikam', blocked: 'Payment' } });
  });

  it('gives up on a second conflict, naming the error the family body carries', async () => {
    mock.override({ operationId: 'updateVendor', status: 412, headers: { etag: 'W/"moving"' }, body: { error: { code: 'PreconditionFailed', message: 'changed again' } } });
    await expect(blockVendorPayments(options(), COMPANY, VENDOR, INITIAL_ETAG)).rejects.toThrow('blocking failed: PreconditionFailed: changed again');
    expect(mock.requests).toHaveLength(2);
  });
});

describe('a mock of its own (startMock, the documented entry)', () => {
  it('startMock({ port, takenNames }) -> { url, reset, close }', async () => {
    const own = await startMock({ port: 0, takenNames: ['orders-db'] });
    try {
      expect(own.url).toMatch(/^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
      const check = (name: string) =>
        fetch(own.url + '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, type: 'Provider.Sql/servers' }),
        }).then((r) => r.json());
      expect(await check('orders-db')).toMatchObject({ name: 'orders-db', available: false, reason: 'AlreadyExists' });
      own.reset({ takenNames: [] });
      expect(await check('orders-db')).toEqual({ name: 'orders-db', available: true });
    } finally {
      await own.close();
    }
  });
});

describe('allCachedImages', () => {
  it('lists every seeded image across pages', async () => {
    const images = ['a:1', 'b:1', 'c:1', 'd:1', 'e:1'].map((image) => ({ image, osType: 'Linux' }));
    mock.seed({ lists: { Location_ListCachedImages: { items: images, pageSize: 2 } } });
    expect(await allCachedImages(options(), 'westeurope')).toEqual(['a:1', 'b:1', 'c:1', 'd:1', 'e:1']);
    expect(mock.requests.map((r) => r.query['$skiptoken'] ?? 'first')).toEqual(['first', 'page2', 'page3']);
  });

  it('fails on a 500 in the middle of the list', async () => {
    mock.override({ operationId: 'Location_ListCachedImages', when: (r) => r.query['$skiptoken'] === 'page2', status: 500 });
    const error = await allCachedImages(options(), 'westeurope').catch((e: unknown) => e);
    expect(isClientError(error) && error.code).toBe('http');
  });

  it('waits out a slow answer', async () => {
    mock.override({ operationId: 'Location_ListCachedImages', delayMs: 250, times: 1 });
    const start = performance.now();
    expect((await allCachedImages(options({ timeoutMs: 5000 }), 'westeurope')).length).toBeGreaterThan(0);
    expect(performance.now() - start).toBeGreaterThanOrEqual(240);
  });

  it('reports a time-out and a dropped connection; a retrying client recovers from the drop', async () => {
    mock.override({ operationId: 'Location_ListCachedImages', fault: 'timeout', times: 1 });
    const timedOut = await allCachedImages(options({ timeoutMs: 300 }), 'westeurope').catch((e: unknown) => e);
    expect(isClientError(timedOut) && timedOut.code).toBe('timeout');
    mock.override({ operationId: 'Location_ListCachedImages', fault: 'drop', times: 1 });
    const dropped = await allCachedImages(options(), 'westeurope').catch((e: unknown) => e);
    expect(isClientError(dropped) && dropped.code).toBe('network');
    mock.override({ operationId: 'Location_ListCachedImages', fault: 'drop', times: 1 });
    const images = await allCachedImages(options({ retry: { retries: 1, delayMs: 0 } }), 'westeurope');
    expect(images.length).toBeGreaterThan(0);
    expect(mock.requests.map((r) => r.fault ?? r.status)).toEqual(['timeout', 'drop', 'drop', 200, 200, 200]);
  });
});
`;
