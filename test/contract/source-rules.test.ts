// The behaviour the source states, through the typed clients (src/), against a mock
// started in-process through the package's entry (`provider-api-clients/mock`) on a
// random port, reset before each test:
//   - the name check's rules (Invalid with the rule broken, AlreadyExists, available),
//   - the vendor's eTag: a stale tag changes nothing (412), a fresh one does (200),
//   - shipment method creation (201 with what was sent, a fresh id and time),
//   - the cached images walked to the last page through nextLink,
//   - error bodies in the family's model.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { errorModelViolations, label, operation, pathParams, TOKEN, violationsOf } from './support.js';

interface Mock {
  url: string;
  port: number;
  reset(options?: { takenNames?: string[] }): void;
  close(): Promise<void>;
}
const ROOT = join(import.meta.dirname, '../..');
const { startMock } = (await import(pathToFileURL(join(ROOT, 'mock/index.mjs')).href)) as { startMock: (options: object) => Promise<Mock> };

let mock: Mock;
// Generous: loading Prism takes seconds when the shared machine is busy.
beforeAll(async () => {
  mock = await startMock({ port: 0, takenNames: ['orders-db'] });
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const options = () => ({ baseUrl: mock.url, token: TOKEN.replace(/^Bearer /, ''), retry: false as const });
const arm = () => createResourceManagerClient(options());
const bc = () => createBusinessCentralClient(options());

const NAME = operation('Servers_CheckNameAvailability');
const VENDOR = operation('updateVendor');
const SHIP = operation('createShipmentMethod');
const IMAGES = operation('Location_ListCachedImages');
const { subscriptionId } = pathParams(NAME) as { subscriptionId: string };
const { company_id: companyId, vendor_id: vendorId } = pathParams(VENDOR) as { company_id: string; vendor_id: string };

const check = (name: unknown, type: unknown = 'Provider.Sql/servers') =>
  arm().POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
    params: { path: { subscriptionId } },
    body: { name, type } as any,
  });

describe('name check: the rules the source states', () => {
  const RULES =
    "A name has at most 63 characters, uses only lower-case letters, digits and inner hyphens, contains no '.' or '_', and neither starts nor ends with '-'.";
  const invalid = [
    { name: 'a'.repeat(64), broken: /64 characters long, more than 63/ },
    { name: 'x'.repeat(100), broken: /100 characters long/ },
    { name: 'Sales-DB', broken: /upper-case/ },
    { name: 'sales.db', broken: /contains '\.'/ },
    { name: 'sales_db', broken: /contains '_'/ },
    { name: '-sales', broken: /starts with '-'/ },
    { name: 'sales-', broken: /ends with '-'/ },
    { name: 'sales db', broken: /contains " "/ },
    { name: 'sälës', broken: /contains "ä"/ },
    { name: '', broken: /is empty/ },
  ];
  it.each(
    invalid.map(
      (c) => [label(NAME.operationId, `Invalid: ${JSON.stringify(c.name.length > 20 ? `${c.name.slice(0, 8)}…(${c.name.length})` : c.name)}`), c] as const,
    ),
  )('%s', async (_, { name, broken }) => {
    const result = await check(name);
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({ name, available: false, reason: 'Invalid' });
    expect(result.data!.message).toMatch(broken);
    expect(result.data!.message).toContain(RULES);
    expect(violationsOf(NAME, 200, result.response.headers.get('content-type'), result.data)).toEqual([]);
  });

  it.each([['a'.repeat(63)], ['0sales-db-9'], ['a'], ['a-b-c']])(
    `${label(NAME.operationId, 'valid, free name %s')} is available, with no reason or message`,
    async (name) => {
      const result = await check(name);
      expect(result.data).toEqual({ name, available: true });
    },
  );

  it(`${label(NAME.operationId, 'taken names')}: the spec's AlreadyExists example and those given at start`, async () => {
    for (const name of ['sales-db-west-01', 'orders-db']) {
      const result = await check(name);
      expect(result.data, name).toMatchObject({ name, available: false, reason: 'AlreadyExists' });
      expect(result.data!.message).toContain(name);
    }
    mock.reset({ takenNames: ['inventory-db'] });
    expect((await check('inventory-db')).data).toMatchObject({ available: false, reason: 'AlreadyExists' });
    expect((await check('orders-db')).data).toEqual({ name: 'orders-db', available: true });
  });

  it(`${label(NAME.operationId, 'UnknownNameType')}: names the type sent`, async () => {
    const result = await check('sales-db', 'Provider.Sql/servers/databases');
    expect(result.response.status).toBe(400);
    expect(result.error).toMatchObject({ error: { code: 'UnknownNameType', target: 'type' } });
    expect((result.error as any).error.message).toContain("'Provider.Sql/servers/databases'");
    expect(violationsOf(NAME, 400, result.response.headers.get('content-type'), result.error)).toEqual([]);
  });

  it(`${label(NAME.operationId, 'InvalidNameAvailabilityRequest')}: an otherwise invalid body`, async () => {
    const result = await check(42);
    expect(result.response.status).toBe(400);
    expect(result.error).toMatchObject({ error: { code: 'InvalidNameAvailabilityRequest' } });
    expect((result.error as any).error.message).toMatch(/name.*string/);
  });
});

describe('vendor update: eTag concurrency, state per process', () => {
  const INITIAL = 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="';
  const update = (eTag: string, vendor: Record<string, unknown>) => bc().updateVendor({ companyId, vendorId, eTag, vendor });

  it(`${label(VENDOR.operationId, 'stale eTag')}: 412, nothing changes; the fresh eTag applies only the fields sent`, async () => {
    const stale = await update('W/"stale"', { displayName: 'Never applied' });
    expect(stale.response.status).toBe(412);
    expect(stale.ok).toBe(false);
    expect(stale.response.headers.get('etag')).toBe(INITIAL);
    expect(errorModelViolations((stale.error as any)?.error, JSON.stringify(stale.error))).toEqual([]);
    expect((stale.error as any).error.code).toBe('PreconditionFailed');

    const before = Date.now();
    const fresh = await update(INITIAL, { displayName: 'Fabrikam Europe' });
    expect(fresh.response.status).toBe(200);
    const vendor = fresh.data!;
    expect(vendor.displayName).toBe('Fabrikam Europe');
    expect(vendor.id).toBe(vendorId);
    expect(vendor.number, 'fields not sent keep their values (the example vendor)').toBe('50000');
    expect(Date.parse(vendor.lastModifiedDateTime!)).toBeGreaterThanOrEqual(before - 1000);
    expect(violationsOf(VENDOR, 200, fresh.response.headers.get('content-type'), vendor)).toEqual([]);
    const next = fresh.response.headers.get('etag')!;
    expect(next).toBeTruthy();
    expect(next).not.toBe(INITIAL);

    // The old tag is stale now: refused, and the vendor keeps the change made with the fresh one.
    const again = await update(INITIAL, { displayName: 'Lost update' });
    expect(again.response.status).toBe(412);
    expect(again.response.headers.get('etag')).toBe(next);
    const wildcard = await bc().PATCH('/companies({company_id})/vendors({vendor_id})', {
      params: { path: { company_id: companyId, vendor_id: vendorId }, header: { 'If-Match': '*' } },
      body: { blocked: 'Payment' },
    });
    expect(wildcard.response.status).toBe(200);
    expect(wildcard.data).toMatchObject({ displayName: 'Fabrikam Europe', blocked: 'Payment' });
    expect(wildcard.response.headers.get('etag')).not.toBe(next);
  });

  it(`${label(VENDOR.operationId, 'reset')}: forgets the vendor and its tags`, async () => {
    expect((await update(INITIAL, { displayName: 'Changed' })).response.status).toBe(200);
    mock.reset();
    const result = await update(INITIAL, { city: 'Lyon' });
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({ displayName: 'Fabrikam Supplies', city: 'Lyon' });
  });
});

describe('shipment method create', () => {
  it(`${label(SHIP.operationId, 'CodeAndDisplayName')}: 201 with what was sent, a fresh GUID id and the current time`, async () => {
    const create = (code: string, displayName: string) =>
      bc().POST('/companies({company_id})/shipmentMethods', { params: { path: { company_id: companyId } }, body: { code, displayName } });
    const before = Date.now();
    const [a, b] = [await create('EXW', 'Ex Works'), await create('FOB', 'Free on Board')];
    expect(a.response.status).toBe(201);
    expect(a.data).toMatchObject({ code: 'EXW', displayName: 'Ex Works' });
    expect(b.data).toMatchObject({ code: 'FOB', displayName: 'Free on Board' });
    expect(a.data!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.data!.id).not.toBe(b.data!.id);
    expect(Date.parse(a.data!.lastModifiedDateTime!)).toBeGreaterThanOrEqual(before - 1000);
    expect(violationsOf(SHIP, 201, a.response.headers.get('content-type'), a.data)).toEqual([]);
  });
});

describe('cached images: paging', () => {
  it(`${label(IMAGES.operationId, 'walk to the last page')} on a random port, nextLink on the request's origin`, async () => {
    expect(mock.port).not.toBe(4010);
    const pages = [];
    for await (const page of arm().listCachedImagePages({ subscriptionId, location: 'westeurope' })) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages.slice(0, -1)) expect(new URL(page.nextLink!).origin).toBe(mock.url);
    expect(pages.at(-1)!.nextLink).toBeUndefined();
    const images = pages.flatMap((p) => p.value ?? []);
    expect(new Set(images.map((i) => i.image)).size, 'no entry twice').toBe(images.length);
    for (const page of pages) expect(violationsOf(IMAGES, 200, 'application/json', page)).toEqual([]);
  });

  it(`${label(IMAGES.operationId, 'nextLink follows the Host the client used')}`, async () => {
    const localhost = mock.url.replace('127.0.0.1', 'localhost');
    const result = await createResourceManagerClient({ ...options(), baseUrl: localhost }).GET(
      '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages',
      { params: { path: { subscriptionId, location: 'westeurope' } } },
    );
    expect(new URL(result.data!.nextLink!).origin).toBe(localhost);
  });
});

describe('error bodies in the family model', () => {
  it(`${label('RoleEligibilityScheduleRequests_Get', 'name not a GUID')}: a CloudError that names the problem`, async () => {
    const p = pathParams(operation('RoleEligibilityScheduleRequests_Get')) as Record<string, string>;
    const result = await arm().GET('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}', {
      params: { path: { scope: p.scope!, roleEligibilityScheduleRequestName: 'not-a-guid' } },
    });
    expect(result.response.status).toBe(400);
    expect(errorModelViolations((result.error as any)?.error, JSON.stringify(result.error))).toEqual([]);
    expect((result.error as any).error.message).toMatch(/roleEligibilityScheduleRequestName.*uuid/i);
  });

  it(`${label(VENDOR.operationId, 'invalid body')}: a business-data error object, not null`, async () => {
    const result = await bc().updateVendor({ companyId, vendorId, eTag: 'W/"x"', vendor: { taxLiable: 'yes' as any } });
    expect(result.response.status).toBe(400);
    expect(result.error).not.toBeNull();
    expect(errorModelViolations((result.error as any)?.error, JSON.stringify(result.error))).toEqual([]);
    expect(result.response.headers.get('etag'), 'a vendor answer carries the current tag').toBe('W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="');
  });
});
