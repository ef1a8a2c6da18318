// The model's reading of business data's OData shapes (model/odata.mjs): entity sets and
// the key in their paths, bound actions, declared query options and the If-Match tag, and
// what a query option's value names against an operation's entity.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { entitySchemaOf, entitySetOf, ifMatchOf, isAnnotation, isNavigation, queryMisfitsOf, queryOptionsOf } from '../../model/odata.mjs';

describe('OData entity sets', () => {
  it('read the set, the key and the kind of operation from the path and method', () => {
    const set = '/companies({company_id})/vendors';
    const entity = '/companies({company_id})/vendors({vendor_id})';
    expect(entitySetOf('get', set)).toEqual({ kind: 'list', set: 'vendors', companyParam: 'company_id', keyParam: undefined, action: undefined });
    expect(entitySetOf('post', set)?.kind).toBe('create');
    expect(['get', 'patch', 'delete'].map((method) => entitySetOf(method, entity)?.kind)).toEqual(['read', 'update', 'delete']);
    expect(entitySetOf('put', entity)).toBeUndefined();
    expect(entitySetOf('post', `${entity}/Microsoft.NAV.post`)).toEqual({
      kind: 'action',
      set: 'vendors',
      companyParam: 'company_id',
      keyParam: 'vendor_id',
      action: 'Microsoft.NAV.post',
    });
    expect(entitySetOf('post', `${set}/Microsoft.NAV.post`)).toBeUndefined();
    expect(entitySetOf('get', '/subscriptions/{s}/providers/Provider.Sql/servers')).toBeUndefined();
    // The count of a set (`/$count`): only on the set, never after a key.
    expect(entitySetOf('get', `${set}/$count`)?.kind).toBe('count');
    expect(entitySetOf('get', `${entity}/$count`)).toBeUndefined();
  });

  it('find the If-Match header and the declared $ options among the parameters', () => {
    const ifMatch = { name: 'if-MATCH', in: 'header', required: true };
    const parameters = [
      { name: 'If-Match', in: 'query' },
      ifMatch,
      { name: '$filter', in: 'query' },
      { name: '$top', in: 'query' },
      { name: '$x', in: 'header' },
      undefined,
    ];
    expect(ifMatchOf(parameters)).toBe(ifMatch);
    expect(ifMatchOf([])).toBeUndefined();
    expect(queryOptionsOf(parameters)).toEqual(['$filter', '$top']);
  });
});

describe("the names a query option's value gives, against the entity", () => {
  const line = { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'number' } } };
  const order = {
    '@odata.etag': { type: 'string', readOnly: true },
    id: { type: 'string', format: 'uuid' },
    number: { type: 'string' },
    orderDate: { type: 'string', format: 'date' },
    lines: { type: 'array', items: line },
    customer: { type: 'object', properties: { id: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
  };

  it('an annotation is never a property, whatever the schema declares', () => {
    expect(isAnnotation('@odata.etag')).toBe(true);
    expect(isAnnotation('number')).toBe(false);
    expect(queryMisfitsOf('$filter', "startswith(@odata.etag,'W')", order)).toEqual(['@odata.etag is an annotation, not a property']);
    expect(queryMisfitsOf('$select', 'id,@odata.etag', order)).toEqual(['@odata.etag is an annotation, not a property']);
  });

  it('$filter and $orderby: each property named, not operators, literals, functions or lambda variables', () => {
    expect(
      queryMisfitsOf(
        '$filter',
        "number eq 'S''1' and orderDate ge 2024-01-31 and id ne 5d115c9c-44e3-ea11-bb43-000d3a2feca1 or not contains(number,'x')",
        order,
      ),
    ).toEqual([]);
    expect(queryMisfitsOf('$filter', 'lines/any(l: l/amount gt 5)', order)).toEqual([]);
    expect(queryMisfitsOf('$filter', "displayName eq 'Adatum Corporation'", order)).toEqual(['the entity has no property displayName']);
    expect(queryMisfitsOf('$orderby', 'orderDate desc, number', order)).toEqual([]);
    expect(queryMisfitsOf('$orderby', 'displayName asc', order)).toEqual(['the entity has no property displayName']);
  });

  it('$select: properties or *', () => {
    expect(queryMisfitsOf('$select', 'id, number', order)).toEqual([]);
    expect(queryMisfitsOf('$select', '*', order)).toEqual([]);
    expect(queryMisfitsOf('$select', 'id,displayName', order)).toEqual(['the entity has no property displayName']);
  });

  it('$expand: navigation properties only (an object or an array of objects), nested options aside', () => {
    expect(isNavigation(order.lines)).toBe(true);
    expect(isNavigation(order.customer)).toBe(true);
    expect(isNavigation(order.tags)).toBe(false);
    expect(queryMisfitsOf('$expand', 'lines($select=id,amount),customer', order)).toEqual([]);
    expect(queryMisfitsOf('$expand', 'tags,salesOrderLines', order)).toEqual([
      'tags is not a navigation property (an object or an array of objects)',
      'the entity has no property salesOrderLines',
    ]);
  });

  it('other options and values that are not text are not judged', () => {
    expect(queryMisfitsOf('$top', 'displayName', order)).toEqual([]);
    expect(queryMisfitsOf('$filter', 5, order)).toEqual([]);
  });

  it("the entity is a list's value items, else the answer itself", () => {
    const item = { type: 'object', properties: order };
    const answer = (schema: unknown) => ({ responses: { '200': { content: { 'application/json': { schema } } }, default: {} } });
    expect(entitySchemaOf(answer({ type: 'object', properties: { value: { type: 'array', items: item }, '@odata.nextLink': { type: 'string' } } }))).toBe(item);
    expect(entitySchemaOf(answer(item))).toBe(item);
    expect(entitySchemaOf({ responses: { '201': { content: { 'application/json': { schema: item } } } } })).toBe(item);
    expect(entitySchemaOf({ responses: { '204': { description: 'Deleted.' } } })).toBeUndefined();
    // A bundled document: $refs followed by the deref given.
    const components: Record<string, unknown> = {
      '#/Item': item,
      '#/Page': { type: 'object', properties: { value: { type: 'array', items: { $ref: '#/Item' } } } },
    };
    const deref = (node: any) => (typeof node?.$ref === 'string' ? components[node.$ref] : node);
    expect(entitySchemaOf(answer({ $ref: '#/Page' }), deref)).toBe(item);
  });
});
