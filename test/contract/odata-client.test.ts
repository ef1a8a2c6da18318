// An independent client of the business-data family: `@odata/client` (a maintained OData
// V4 client from the npm registry, a devDependency, not the house clients) runs the flows
// integrations run every day against the mock, on the fixture of odata-control.test.ts
// (an entity set grown by the recipe, declaring `@odata.etag`, `@odata.context`, `$count`
// and `$batch`): list, take an item's `@odata.etag`, update with it as `If-Match` (a stale
// tag refused), and a JSON batch (OData 4.01) built by the library whose second request
// changes what its first created (`$1`, dependsOn, an atomicity group). GUID keys are
// written raw (`salesOrders(<guid>)`, as the service writes them) with the library's
// RawString; If-Match goes in the library's common headers of the client that updates.
import { join } from 'node:path';
import { OData, RawString } from '@odata/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { startMock } from './growth-fixtures.js';

const COMPANY = 'c0ffee00-0000-4000-8000-00000000000c';
const SET = `companies(${COMPANY})/salesOrders`;
let mock: Mock;

interface Order {
  id: string;
  number: string | number;
  amount?: number;
  '@odata.etag'?: string;
}

beforeAll(async () => {
  mock = await startMock({
    port: 0,
    documents: [
      { api: 'odata-control', version: 'v8.0', family: 'business-central', document: join(import.meta.dirname, 'fixtures/odata-control/business-v8.0.yaml') },
    ],
  });
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

/** The library's client of the service root, with these headers on every request. */
const client = (headers: Record<string, string> = {}) =>
  OData.New4({ serviceEndpoint: `${mock.url}/api/v8.0/`, commonHeaders: { Authorization: 'Bearer odata-client', ...headers } });

describe('@odata/client against the mock', () => {
  it("the list-then-update flow: a list item's @odata.etag updates it as If-Match; a stale one is refused", async () => {
    const odata = client();
    const orders = odata.getEntitySet<Order>(SET);
    await orders.create({ number: 'SO-1', amount: 1 });
    await orders.create({ number: 'SO-2', amount: 2 });
    const items = await orders.query(odata.newParam().filter(odata.newFilter().field('amount').gt(1)));
    expect(items.map((item) => item.number)).toEqual(['SO-2']);
    const item = items[0] as Order;
    const tag = String(item['@odata.etag']);
    expect(item['@odata.etag']).toEqual(expect.any(String));

    await client({ 'If-Match': tag }).getEntitySet<Order>(SET).update(RawString.from(item.id), { amount: 20 });
    const read = await orders.retrieve(RawString.from(item.id));
    expect(read).toMatchObject({ id: item.id, amount: 20 });
    expect(read['@odata.etag']).not.toBe(item['@odata.etag']);

    await expect(client({ 'If-Match': tag }).getEntitySet<Order>(SET).update(RawString.from(item.id), { amount: 30 })).rejects.toThrow(/not the current eTag/);
    expect((await orders.retrieve(RawString.from(item.id))).amount).toBe(20);
  });

  it('a JSON batch built by the library: $1 and dependsOn in an atomicity group, then a list that depends on the group', async () => {
    const odata = client();
    const responses = await odata.execBatchRequestsJson([
      odata.newBatchRequest({ collection: SET, method: 'POST', entity: { number: 'SO-3' }, requestId: '1', atomicityGroup: 'g' }),
      odata.newBatchRequest({ collection: '$1', method: 'PATCH', entity: { amount: 9 }, requestId: '2', dependsOn: ['1'], atomicityGroup: 'g' }),
      odata.newBatchRequest({ collection: SET, method: 'GET', requestId: '3', dependsOn: ['g'] }),
    ]);
    expect(responses.map((response: any) => response.status)).toEqual([201, 200, 200]);
    const [created, patched, listed] = await Promise.all(responses.map((response: any) => response.json()));
    expect(patched).toMatchObject({ id: created.id, number: 'SO-3', amount: 9 });
    expect(patched['@odata.etag']).not.toBe(created['@odata.etag']);
    expect(listed.value).toEqual([expect.objectContaining({ id: created.id, amount: 9, '@odata.etag': patched['@odata.etag'] })]);
  });

  it('a failed member rolls its group back, as the library reads it', async () => {
    const odata = client();
    const responses = await odata.execBatchRequestsJson([
      odata.newBatchRequest({ collection: SET, method: 'POST', entity: { number: 'SO-4' }, requestId: '1', atomicityGroup: 'g' }),
      odata.newBatchRequest({ collection: SET, method: 'POST', entity: { number: 4 }, requestId: '2', atomicityGroup: 'g' }),
    ]);
    expect(responses.map((response: any) => response.status)).toEqual([424, 400]);
    expect(await odata.getEntitySet<Order>(SET).query(odata.newParam())).toEqual([]);
  });
});
