// The mock reads the bundles at start and again on reload() (`npm run mock -- --watch`
// calls it when `npm run generate` rewrites them). Run in-process on copies of the
// bundles, so generated/ is never touched.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { apis, ROOT } from '../helpers/bundles.js';
import { operations } from '../../generated/operations.js';
import { send, validRequest, operation } from './support.js';

interface Mock {
  url: string;
  routes: Array<{ operationId: string; method: string; path: string }>;
  reload(): Promise<unknown>;
  close(): Promise<void>;
}
// A non-literal specifier: the .mjs has no type declarations, the interface above is its contract.
const modulePath = pathToFileURL(join(ROOT, 'mock/index.mjs')).href;
const { startMock } = (await import(modulePath)) as { startMock: (options: object) => Promise<Mock> };

let dir: string;
let mock: Mock;
const ship = operation('createShipmentMethod');
// The bundle of the version `ship` is (one of several in a workspace with more versions).
const shipBundle = () => join(dir, basename(apis().find((api) => api.name === ship.api)!.bundle));
// The example by name: without Prefer the mock answers with the fields sent.
const example = () => ({ ...validRequest(ship), headers: { ...validRequest(ship).headers, prefer: 'example=CodeAndDisplayName' } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mock-reload-'));
  const copies = await Promise.all(
    apis().map(async (api) => {
      const bundle = join(dir, basename(api.bundle));
      await copyFile(api.bundle, bundle);
      return { ...api, bundle };
    }),
  );
  mock = await startMock({ port: 0, apis: copies });
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reload', () => {
  it('serves every operation of every document, with the business-data prefixes', () => {
    const served = mock.routes.map((r) => `${r.method} ${r.path}`);
    expect([...served].sort()).toEqual(operations.map((op) => `${op.method} ${'prefix' in op ? op.prefix : ''}${op.path}`).sort());
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}',
        'POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability',
        'GET /subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages',
        'PATCH /api/v2.0/companies({company_id})/vendors({vendor_id})',
        'POST /api/v1.0/companies({company_id})/shipmentMethods',
      ]),
    );
  });

  it('a changed example is served after reload(), on the same port', async () => {
    const before = await send(example(), mock.url);
    expect((before.json as any).displayName).toBe('Ex Warehouse');
    // The example the mock serves for this operation, found by what it is (the first such
    // text in the bundle may be another operation's example, once one holds the same value).
    const bundle = parseDocument(await readFile(shipBundle(), 'utf8'));
    const [path] = Object.entries<any>((bundle.toJS() as any).paths).find(([, item]) => item.post?.operationId === ship.operationId)!;
    const served = ['paths', path, 'post', 'responses', '201', 'content', 'application/json', 'examples', 'CodeAndDisplayName'];
    const ref = bundle.getIn([...served, '$ref']) as string | undefined;
    const at = ref ? ref.replace(/^#\//, '').split('/') : served;
    expect(bundle.getIn([...at, 'value', 'displayName'])).toBe('Ex Warehouse');
    bundle.setIn([...at, 'value', 'displayName'], 'Ex Works');
    await writeFile(shipBundle(), String(bundle));
    await mock.reload();
    const after = await send(example(), mock.url);
    expect(after.status).toBe(201);
    expect((after.json as any).displayName).toBe('Ex Works');
  });

  it('a broken bundle fails reload() and the previous documents stay served', async () => {
    await writeFile(shipBundle(), 'openapi: [not, a, document');
    await expect(mock.reload()).rejects.toThrow();
    const response = await send(validRequest(ship), mock.url);
    expect(response.status).toBe(201);
  });
});
