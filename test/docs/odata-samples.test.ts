// The docs' samples and "Try it" of a business-data list (site/samples.mjs exampleRequest,
// which pipeline/docs.mjs gives both): each OData query option sends the parameter's own
// example where it names what the entity has, and a value read from the entity's schema
// where it does not; an annotation (`@odata.etag`, declared in the schema and carried by
// the examples, as the service's entities carry it) is never taken for a property
// (issue 43: the sample was `$filter=startswith(@odata.etag,'W')`, which the mock refuses).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { exampleRequest, operationsIn, typescriptSample } from '../../site/samples.mjs';

const option = (name: string, example: unknown, type = 'string') => ({ name, in: 'query', schema: { type }, example });

/** A bundled document (local $refs) with one list: its entity `SalesOrder`, the query options given. */
function documentOf(options: object[]) {
  return {
    openapi: '3.1.0',
    servers: [{ url: 'http://127.0.0.1:4010/api/v2.0' }],
    paths: {
      '/companies({company_id})/salesOrders': {
        get: {
          operationId: 'listSalesOrders',
          parameters: [{ name: 'company_id', in: 'path', required: true, schema: { type: 'string' }, example: 'c1' }, ...options],
          responses: {
            200: {
              description: 'A page.',
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/SalesOrderList' },
                  examples: { One: { value: { value: [{ '@odata.etag': 'W/"1"', id: 'x', number: 'S-1', displayName: 'Adatum Corporation' }] } } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        SalesOrderList: {
          type: 'object',
          properties: { value: { type: 'array', items: { $ref: '#/components/schemas/SalesOrder' } }, '@odata.nextLink': { type: 'string', format: 'uri' } },
        },
        SalesOrder: {
          type: 'object',
          properties: {
            '@odata.etag': { type: 'string', readOnly: true },
            id: { type: 'string', format: 'uuid' },
            number: { type: 'string' },
            displayName: { type: 'string' },
            lines: { type: 'array', items: { $ref: '#/components/schemas/SalesOrderLine' } },
          },
        },
        SalesOrderLine: { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'number' } } },
      },
    },
  };
}

const queryOf = (document: any) =>
  Object.fromEntries(exampleRequest(document, operationsIn(document)[0], 'business-central').query.map((q: any) => [q.name, q.value]));

describe("an OData list's sample and Try it", () => {
  it("send each query option's own example where it names what the entity has", () => {
    const document = documentOf([
      option('$filter', "displayName eq 'Adatum Corporation'"),
      option('$orderby', 'number desc'),
      option('$select', 'id,number'),
      option('$expand', 'lines'),
      option('$top', 20, 'integer'),
    ]);
    expect(queryOf(document)).toEqual({
      $filter: "displayName eq 'Adatum Corporation'",
      $orderby: 'number desc',
      $select: 'id,number',
      $expand: 'lines',
      $top: '20',
    });
    const sample = typescriptSample(document, operationsIn(document)[0], 'business-central', new Set(['listAll']));
    expect(sample).toContain(`query: { $filter: "displayName eq 'Adatum Corporation'", $orderby: "number desc" }`);
  });

  it('never build a filter, an order or a selection from an annotation, though the schema declares it first and the example carries it', () => {
    const document = documentOf([option('$filter', "startswith(@odata.etag,'W')"), option('$orderby', '@odata.etag'), option('$select', 'id,@odata.etag')]);
    const query = queryOf(document);
    expect(JSON.stringify(query)).not.toContain('@odata');
    expect(query).toEqual({ $filter: "startswith(number,'S')", $orderby: 'number', $select: 'id,number' });
  });

  it('replace an example naming what this entity lacks (a shared parameter written for another list)', () => {
    const document = documentOf([option('$filter', "customerName eq 'Adatum'"), option('$expand', 'salesOrderLines')]);
    expect(queryOf(document)).toEqual({ $filter: "startswith(number,'S')", $expand: 'lines' });
  });
});
