// Business data's list-then-update from a list item's own tag, and the `$batch` helper,
// typed. Today's documents declare neither `@odata.etag` on a set nor `/$batch`, so the
// shapes are checked on a paths type written the way openapi-typescript writes the recipe's
// set (test/growth/odata-recipe.mjs: `@odata.etag` read-only, an optional If-Match, `/$batch`),
// with the generated `$Read` marker; the grown copy's real types are checked by
// test/growth/odata-recipe.test.ts.
import { describe, expectTypeOf, it } from 'vitest';
import type { $Read } from '../../generated/types/businesscentral-v2.0.js';
import { createBatch, createBusinessCentralClient, type Batch, type BatchAnswer, type BatchRequest, type TypedClient } from '../../src/index.js';
import type { ETagPatchInit, ETagPatchPaths, ItemOf, OperationOf } from '../../src/conventions.js';

interface Order {
  '@odata.etag'?: $Read<string>;
  id?: $Read<string>;
  number?: string;
  amount?: number;
}
interface Country {
  code?: string;
}
interface Failure {
  error?: { code?: string; message?: string };
}
type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
interface Paths {
  '/companies({company_id})/salesOrders': {
    get: {
      parameters: { query?: { $top?: number; $filter?: string }; header?: never; path: { company_id: string }; cookie?: never };
      responses: { 200: Json<{ value?: Order[]; '@odata.nextLink'?: string }>; default: Json<Failure> };
    };
    post: {
      parameters: { query?: never; header?: never; path: { company_id: string }; cookie?: never };
      requestBody: { content: { 'application/json': Order } };
      responses: { 201: Json<Order>; default: Json<Failure> };
    };
  };
  '/companies({company_id})/salesOrders({salesOrder_id})': {
    patch: {
      parameters: { query?: never; header?: { 'If-Match'?: string }; path: { company_id: string; salesOrder_id: string }; cookie?: never };
      requestBody: { content: { 'application/json': Order } };
      responses: { 200: Json<Order>; 204: { headers: { [name: string]: unknown }; content?: never }; default: Json<Failure> };
    };
  };
  '/companies({company_id})/countries': {
    get: {
      parameters: { path: { company_id: string } };
      responses: { 200: Json<{ value?: Country[]; '@odata.nextLink'?: string }> };
    };
  };
  '/$batch': {
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': { requests: unknown[] } } };
      responses: { 200: Json<{ responses?: unknown[] }>; default: Json<Failure> };
    };
  };
}
type Orders = '/companies({company_id})/salesOrders';
type OrderKey = '/companies({company_id})/salesOrders({salesOrder_id})';

describe("the list-then-update flow from a list item's tag", () => {
  it('a set declaring @odata.etag (read-only) gives its list items a string tag; a set without one has none', () => {
    expectTypeOf<Order['@odata.etag']>().toEqualTypeOf<$Read<string> | undefined>();
    expectTypeOf<ItemOf<Paths, Orders>['@odata.etag']>().toEqualTypeOf<string>();
    expectTypeOf<ItemOf<Paths, Orders>['amount']>().toEqualTypeOf<number | undefined>();
    // the path method's own list gives the same items (a convenience never differs from it)
    const page = async (client: TypedClient<Paths>) => {
      const listed = await client.GET('/companies({company_id})/salesOrders', { params: { path: { company_id: 'c' } } });
      if (listed.ok) expectTypeOf(listed.data.value![0]!).toEqualTypeOf<ItemOf<Paths, Orders>>();
    };
    void page;
    const country = {} as ItemOf<Paths, '/companies({company_id})/countries'>;
    // @ts-expect-error: a set whose schema does not declare @odata.etag has no tag to read
    country['@odata.etag'];
  });

  it("patchWithETag takes a PATCH declaring an optional If-Match, and an item's own tag", () => {
    expectTypeOf<ETagPatchPaths<Paths>>().toEqualTypeOf<OrderKey>();
    const item = {} as ItemOf<Paths, Orders>;
    const init: ETagPatchInit<Paths, OrderKey> = {
      params: { path: { company_id: 'c', salesOrder_id: item.id! } },
      eTag: item['@odata.etag'],
      body: { amount: 6 },
    };
    expectTypeOf(init.eTag).toEqualTypeOf<string>();
    // @ts-expect-error: the tag is read-only, never sent in a body
    const refused: ETagPatchInit<Paths, OrderKey> = { params: { path: { company_id: 'c', salesOrder_id: 'o' } }, eTag: 't', body: { '@odata.etag': 'x' } };
    void refused;
  });
});

describe('$batch', () => {
  const batch = {} as Batch<Paths>;
  const params = { path: { company_id: 'c' } };

  it("adds requests as the path methods take them, each typed by its operation's answer", async () => {
    const a = batch.POST('/companies({company_id})/salesOrders', { params, body: { number: 'SO-1' } });
    expectTypeOf(a).toEqualTypeOf<BatchRequest<BatchAnswer<OperationOf<Paths, Orders, 'post'>>>>();
    const b = batch.PATCH(
      '/companies({company_id})/salesOrders({salesOrder_id})',
      { params: { path: { company_id: 'c', salesOrder_id: 'o' }, header: { 'If-Match': 'W/"1"' } }, body: { amount: 2 } },
      { dependsOn: [a], atomicityGroup: 'g1' },
    );
    batch.GET('/companies({company_id})/salesOrders', { params: { ...params, query: { $top: 2 } } }, { dependsOn: ['g1'] });
    const result = await batch.send();
    if (result.ok) {
      const created = result.get(a);
      expectTypeOf(created.status).toEqualTypeOf<number>();
      if (created.ok) expectTypeOf(created.data.number).toEqualTypeOf<string | undefined>();
      else expectTypeOf(created.error).toEqualTypeOf<Failure>();
      const updated = result.get(b);
      // every entity of a set declaring @odata.etag carries it: the update's answer too
      if (updated.ok) expectTypeOf(updated.data['@odata.etag']).toEqualTypeOf<string>();
    } else {
      expectTypeOf(result.error).toEqualTypeOf<Failure>();
      // @ts-expect-error: no answers to read when the batch itself failed
      result.get(a);
    }
  });

  it('refuses what the path methods refuse', () => {
    // @ts-expect-error: not a path of the document
    batch.GET('/companies({company_id})/nothing', { params });
    // @ts-expect-error: a required path parameter is missing
    batch.POST('/companies({company_id})/salesOrders', { params: { path: {} }, body: {} });
    // @ts-expect-error: a read-only field in a request body
    batch.POST('/companies({company_id})/salesOrders', { params, body: { id: 'x' } });
    // @ts-expect-error: atomicityGroup is a name
    batch.GET('/companies({company_id})/salesOrders', { params }, { atomicityGroup: 1 });
  });

  it('is offered only where a version declares /$batch', () => {
    expectTypeOf(createBatch<Paths>).returns.toEqualTypeOf<Batch<Paths>>();
    const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', token: 't' });
    // @ts-expect-error: today's documents declare no /$batch
    createBatch(bc);
  });
});
