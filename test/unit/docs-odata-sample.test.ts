// The docs' sample of a business-data list (site/samples.mjs): listAll with a
// filter and an order read from the entity's own schema, so that the sample names what
// this entity has and its curl form runs against the mock whatever the entity is.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { exampleRequest, operationsIn, sampleShape, typescriptSample } from '../../site/samples.mjs';

const QUERY = ['filter', 'orderby', 'top', 'skip', 'select', 'expand', 'count'].map((name) => ({
  name: `$${name}`,
  in: 'query',
  schema: { type: name === 'top' || name === 'skip' ? 'integer' : name === 'count' ? 'boolean' : 'string' },
  example: {
    filter: "displayName eq 'Adatum Corporation'",
    orderby: 'displayName asc',
    top: 20,
    skip: 0,
    select: 'id,displayName',
    expand: 'lines',
    count: true,
  }[name],
}));

function documentOf(properties: Record<string, unknown>, example?: Record<string, unknown>) {
  return {
    openapi: '3.1.0',
    servers: [{ url: 'http://127.0.0.1:4010/api/v2.0' }],
    paths: {
      '/companies({company_id})/items': {
        get: {
          operationId: 'listItems',
          parameters: [{ name: 'company_id', in: 'path', required: true, schema: { type: 'string' }, example: 'c1' }, ...QUERY],
          responses: {
            200: {
              description: 'A page.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { value: { type: 'array', items: { type: 'object', properties } }, '@odata.nextLink': { type: 'string', format: 'uri' } },
                  },
                  ...(example ? { examples: { One: { value: { value: [example] } } } } : {}),
                },
              },
            },
          },
        },
      },
    },
  };
}

const CONVENIENCES = new Set(['listAll', 'patchWithETag']);
const queryOf = (document: any) =>
  Object.fromEntries(exampleRequest(document, operationsIn(document)[0], 'business-central').query.map((q: any) => [q.name, q.value]));

describe('the sample of an OData list', () => {
  it("filters and orders by a text property of the entity, starting with its example's first letter", () => {
    const document = documentOf(
      {
        id: { type: 'string', format: 'uuid' },
        number: { type: 'string' },
        description: { type: 'string' },
        lines: { type: 'array', items: { type: 'object' } },
      },
      { id: 'x', description: 'Bicycle' },
    );
    expect(queryOf(document)).toEqual({
      $filter: "startswith(description,'B')",
      $orderby: 'description',
      $top: '20',
      $skip: '0',
      $select: 'id,description',
      $expand: 'lines',
      $count: 'true',
    });
    expect(sampleShape(document, operationsIn(document)[0], 'business-central', CONVENIENCES)).toBe('list');
    const sample = typescriptSample(document, operationsIn(document)[0], 'business-central', CONVENIENCES);
    expect(sample).toContain('bc.listAll("/companies({company_id})/items"');
    expect(sample).toContain(`query: { $filter: "startswith(description,'B')", $orderby: "description" }`);
    expect(sample).toContain("Prefer: 'odata.maxpagesize=50'");
  });

  it('falls back to the key, and leaves $expand out, when the entity has no text property and nothing related', () => {
    const document = documentOf({ id: { type: 'string', format: 'uuid' }, quantity: { type: 'integer' } });
    expect(queryOf(document)).toMatchObject({ $filter: 'id ne null', $orderby: 'id', $select: 'id', $expand: '' });
  });

  it('is not a list sample without @odata.nextLink', () => {
    const document = documentOf({ id: { type: 'string' } });
    delete (document.paths['/companies({company_id})/items'].get.responses[200].content['application/json'].schema.properties as Record<string, unknown>)[
      '@odata.nextLink'
    ];
    expect(sampleShape(document, operationsIn(document)[0], 'business-central', CONVENIENCES)).toBe('call');
  });
});
