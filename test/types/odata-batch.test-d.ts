// Business data's list-then-update from a list item's own tag, and the `$batch` helper,
// typed. The shapes are checked on a paths type written the way openapi-typescript writes the recipe's
// set (test/growth/odata-recipe.mjs: `@odata.etag` read-only, an optional If-Match, `/$batch`),
// with the generated `$Read` marker, whatever this workspace's documents declare; the grown copy's real types are checked by
// test/growth/odata-recipe.test.ts.
import { describe, expectTypeOf, it } from 'vitest';
import type { $Read } from '../../generated/types/businesscentral-v2.0.js';
import { createBatch, type Batch, type BatchAnswer, type BatchRequest, type TypedClient } from '../../src/index.js';
import type { ETagPatchInit, ETagPatchPaths, ItemOf, OperationOf } from '../../src/conventions.js';
import type { WithPaths } from '../../src/batch.js';

interface Order {
  '@odata.etag'?: $Read<string>;
  id?: $Read<string>;
  number?: string;
  amount?: number;
}
interface Line {
  id?: $Read<string>;
  quantity?: number;
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
  '/companies({company_id})/salesOrders({salesOrder_id})/lines': {
    get: {
      parameters: { query?: { $top?: number }; header?: never; path: { company_id: string; salesOrder_id: string }; cookie?: never };
      responses: { 200: Json<{ value?: Line[] }>; default: Json<Failure> };
    };
  };
  '/companies({company_id})/salesOrders({salesOrder_id})/lines({line_id})': {
    patch: {
      parameters: { query?: never; header?: never; path: { company_id: string; salesOrder_id: string; line_id: string }; cookie?: never };
      requestBody: { content: { 'application/json': Line } };
      responses: { 200: Json<Line>; default: Json<Failure> };
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
    // its result (what `at(a)` starts from) is the entity it creates: its path and a key
    expectTypeOf(a).toEqualTypeOf<BatchRequest<BatchAnswer<OperationOf<Paths, Orders, 'post'>>, `${Orders}({${string}})`>>();
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

  it("at(earlier) takes the paths at or below the earlier request's result, without the parameters of the part $<id> stands for", async () => {
    const a = batch.POST('/companies({company_id})/salesOrders', { params, body: { number: 'SO-1' } });
    const patched = batch.at(a).PATCH('/companies({company_id})/salesOrders({salesOrder_id})', { body: { amount: 2 } });
    const lines = batch.at(a).GET('/companies({company_id})/salesOrders({salesOrder_id})/lines', { params: { query: { $top: 5 } } }, { atomicityGroup: 'g' });
    batch.at(a).PATCH('/companies({company_id})/salesOrders({salesOrder_id})/lines({line_id})', { params: { path: { line_id: 'l1' } }, body: { quantity: 3 } });
    // a PATCH's result is its own path: what starts there is at it or below it
    batch.at(patched).GET('/companies({company_id})/salesOrders({salesOrder_id})/lines');
    const result = await batch.send();
    if (result.ok) {
      const read = result.get(lines);
      if (read.ok) expectTypeOf(read.data.value![0]!.quantity).toEqualTypeOf<number | undefined>();
      const order = result.get(patched);
      if (order.ok) expectTypeOf(order.data.amount).toEqualTypeOf<number | undefined>();
    }
    // @ts-expect-error: not below the created order
    batch.at(a).GET('/companies({company_id})/countries', { params });
    // @ts-expect-error: the created order's collection is not at or below the order
    batch.at(a).GET('/companies({company_id})/salesOrders', { params });
    // @ts-expect-error: a parameter of the rest of the path is still required
    batch.at(a).PATCH('/companies({company_id})/salesOrders({salesOrder_id})/lines({line_id})', { params: { path: {} }, body: {} });
    // @ts-expect-error: the body is still the operation's
    batch.at(a).PATCH('/companies({company_id})/salesOrders({salesOrder_id})', { body: { amount: 'two' } });
    // @ts-expect-error: a list's result is the list: an entity of it is not at or below it
    batch.at(batch.GET('/companies({company_id})/salesOrders', { params })).PATCH('/companies({company_id})/salesOrders({salesOrder_id})', { body: {} });
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
    // A client typed by the same paths without `/$batch` (whatever this workspace's documents declare).
    const withoutBatch = {} as WithPaths<Omit<Paths, '/$batch'>>;
    // @ts-expect-error: its version declares no /$batch
    createBatch(withoutBatch);
  });
});
