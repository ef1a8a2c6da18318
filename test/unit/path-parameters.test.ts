// How a path parameter is written comes from its API's documents, not from a list of names:
// pipeline/manifest.mjs reads `x-ms-skip-url-encoding: true` (multi-segment) and a
// business-data key's `format: uuid` into the client manifest's `pathParameters`, per API
// and name, and the clients' path serializer writes each parameter as its API's entry says.
// Tested here with names no document of today's workspace uses.
import { describe, expect, it } from 'vitest';
import { businesscentralApi, sqlApi } from '../../generated/client-manifest.js';
// @ts-expect-error: plain ESM module without types
import { clientManifestOf, operationsOf, versionsByApi } from '../../pipeline/manifest.mjs';
import { createBatch, createBusinessCentralClientOf, createResourceManagerClientOf, type ManifestApi } from '../../src/index.js';
import { fakeFetch, GUID, json } from './fake-fetch.js';

type Untyped = { GET(path: string, init?: object): Promise<{ ok: boolean }> };
const options = (fetch: ReturnType<typeof fakeFetch>['fetch']) => ({ baseUrl: 'https://h.example', token: 't', retry: false as const, fetch });

/** A client of one API whose manifest entry says `pathParameters` (a grown API, as pipeline/manifest.mjs would write it). */
function clientOf(api: ManifestApi) {
  const fake = fakeFetch(() => json({ responses: [] }));
  const client = (api.family === 'resource-manager'
    ? createResourceManagerClientOf([api as never], options(fake.fetch))
    : createBusinessCentralClientOf([api as never], options(fake.fetch))) as unknown as Untyped;
  return { client, calls: fake.calls };
}

describe('the serializer follows the manifest', () => {
  const SEGMENTS = '/{parentPath}/providers/Provider.Sql/things/{thingName}';

  it('a multi-segment parameter of another name keeps its slashes, each segment encoded; without the fact it is one segment', async () => {
    const grown = clientOf({ ...sqlApi, pathParameters: { parentPath: 'segments' } } as ManifestApi);
    await grown.client.GET(SEGMENTS, { params: { path: { parentPath: '/subscriptions/s 1/resourceGroups/rg', thingName: 'a/b' } } });
    expect(grown.calls[0]!.url.pathname).toBe('/subscriptions/s%201/resourceGroups/rg/providers/Provider.Sql/things/a%2Fb');
    await expect(grown.client.GET(SEGMENTS, { params: { path: { parentPath: 'subscriptions/../x', thingName: 't' } } })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'parentPath',
    });

    const plain = clientOf(sqlApi as ManifestApi);
    await plain.client.GET(SEGMENTS, { params: { path: { parentPath: 'subscriptions/s', thingName: 't' } } });
    expect(plain.calls[0]!.url.pathname).toBe('/subscriptions%2Fs/providers/Provider.Sql/things/t');
  });

  it('scope is multi-segment because its document says so, not by its name', async () => {
    const scoped = clientOf({ ...sqlApi, pathParameters: {} } as ManifestApi);
    await scoped.client.GET('/{scope}/providers/Provider.Sql/things', { params: { path: { scope: 'subscriptions/s' } } });
    expect(scoped.calls[0]!.url.pathname).toBe('/subscriptions%2Fs/providers/Provider.Sql/things');
  });

  it('a uuid key of another name must be a GUID (sent as is); the same name without the fact is encoded, unchecked', async () => {
    const KEY = '/companies({company_id})/salesOrders({order_id})';
    const grown = clientOf({ ...businesscentralApi, pathParameters: { order_id: 'uuid' } } as ManifestApi);
    await expect(grown.client.GET(KEY, { params: { path: { company_id: 'c', order_id: 'SO-1' } } })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'order_id',
      message: 'Path parameter "order_id" is not a GUID; nothing sent.',
    });
    await grown.client.GET(KEY, { params: { path: { company_id: 'c', order_id: GUID } } });
    expect(grown.calls.map((call) => call.url.pathname)).toEqual([`/api/${businesscentralApi.default}/companies(c)/salesOrders(${GUID})`]);

    const plain = clientOf({ ...businesscentralApi, pathParameters: {} } as ManifestApi);
    await plain.client.GET(KEY, { params: { path: { company_id: 'c', order_id: "SO-1')" } } });
    expect(plain.calls[0]!.url.pathname).toBe(`/api/${businesscentralApi.default}/companies(c)/salesOrders(SO-1%27%29)`);
  });

  it('a batch writes its urls with the same facts', async () => {
    const { calls, client } = clientOf({ ...businesscentralApi, pathParameters: { order_id: 'uuid' } } as ManifestApi);
    const batch = (createBatch as (c: unknown) => { GET(path: string, init: object): unknown; send(): Promise<unknown> })(client);
    batch.GET('/companies({company_id})/salesOrders({order_id})', { params: { path: { company_id: 'c', order_id: 'SO-1' } } });
    await expect(batch.send()).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'order_id' });
    expect(calls).toHaveLength(0);
  });
});

describe('pipeline/manifest.mjs reads the facts from the documents', () => {
  const parameter = (name: string, more: object = {}, schema: object = { type: 'string' }) => ({ name, in: 'path', required: true, schema, ...more });
  const document = (paths: object) => ({
    openapi: '3.0.3',
    servers: [{ url: '/api/v9.0' }],
    paths,
    components: { parameters: { parentPath: parameter('parentPath', { 'x-ms-skip-url-encoding': true }) } },
  });
  const entryOf = async (family: string, apiName: string, doc: object, version: string) => {
    const api = { name: `${apiName}-${version}`, apiName, version, family };
    return clientManifestOf(versionsByApi([api], await operationsOf(api, doc)))[family][apiName];
  };

  it('x-ms-skip-url-encoding (through a $ref) is `segments`; a business-data key of format uuid is `uuid`; the rest is not listed', async () => {
    const arm = document({
      '/{parentPath}/providers/Provider.Sql/things/{thingName}': {
        parameters: [{ $ref: '#/components/parameters/parentPath' }],
        get: { parameters: [parameter('thingName', {}, { type: 'string', format: 'uuid' })], responses: {} },
      },
    });
    // a resource-management document's uuid is left to the service, as today
    expect((await entryOf('resource-manager', 'sql', arm, '2030-01-01')).pathParameters).toEqual({ parentPath: 'segments' });

    const odata = document({
      '/companies({company_id})/salesOrders({order_id})': {
        get: { parameters: [parameter('company_id'), parameter('order_id', {}, { type: 'string', format: 'uuid' })], responses: {} },
        patch: { parameters: [parameter('company_id'), parameter('order_id', {}, { type: 'string', format: 'uuid' })], responses: {} },
      },
    });
    expect((await entryOf('business-central', 'orders', odata, 'v9.0')).pathParameters).toEqual({ order_id: 'uuid' });
  });

  it('a name its operations declare two ways gets no fact (written as one plain segment)', async () => {
    const mixed = document({
      '/companies({company_id})/salesOrders({order_id})': {
        get: { parameters: [parameter('company_id'), parameter('order_id', {}, { type: 'string', format: 'uuid' })], responses: {} },
      },
      '/companies({company_id})/archivedOrders({order_id})': {
        get: { parameters: [parameter('company_id'), parameter('order_id')], responses: {} },
      },
    });
    expect((await entryOf('business-central', 'orders', mixed, 'v9.0')).pathParameters).toBeUndefined();
  });
});
