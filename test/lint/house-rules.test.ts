// Each house rule of .spectral.yaml with a document that passes, documents that fail, and
// the failing document with the finding suppressed (an `overrides` entry turning the rule
// off at the finding's place, as docs/lint.md says to write one). The passing documents
// are complete enough that no built-in rule fires either, so a result in a failing case
// can only come from the rule under test.
import type { ISpectralDiagnostic } from '@stoplight/spectral-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { codesOf, lintDocument, lintWithSuppressions, pointerOf } from '../helpers/spectral.js';

type Doc = Record<string, any>;

const cloudError = {
  title: 'CloudError',
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } },
};
const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object' }, examples: { Basic: { value: {} } } } } };
const notShown = 'Test document.\n\nNot shown in the source: the rest of the service.';
const errorNotShown = 'Failure. Not shown in the source: the error statuses.';

function armDocument(operation: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: '2020-01-01', description: notShown },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010' } } }],
    tags: [{ name: 'Things', description: 'Things.' }],
    security: [{ azure_auth: ['user_impersonation'] }],
    paths: {
      '/subscriptions/{subscriptionId}/things': {
        get: {
          operationId: 'Things_List',
          summary: 'List things',
          description: 'Lists things.',
          tags: ['Things'],
          parameters: [
            { name: 'subscriptionId', in: 'path', required: true, description: 'Subscription.', schema: { type: 'string' }, example: 's1' },
            {
              name: 'api-version',
              in: 'query',
              required: true,
              description: 'Version.',
              schema: { type: 'string', enum: ['2020-01-01'] },
              example: '2020-01-01',
            },
          ],
          responses: { '200': ok, default: { description: errorNotShown, content: { 'application/json': { schema: cloudError } } } },
          ...operation,
        },
      },
    },
    components: {
      securitySchemes: {
        azure_auth: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: 'https://login.test/authorize', scopes: { user_impersonation: 'Act as the user.' } } },
        },
      },
    },
  };
}

function businessDocument(operation: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: 'v2.0', description: notShown },
    servers: [{ url: '{api_prefix}', variables: { api_prefix: { default: 'http://127.0.0.1:4010/api/v2.0' } } }],
    tags: [{ name: 'Things', description: 'Things.' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/companies({company_id})/things': {
        post: {
          operationId: 'createThing',
          summary: 'Create a thing',
          description: 'Creates a thing.',
          tags: ['Things'],
          parameters: [
            { name: 'company_id', in: 'path', required: true, description: 'Company.', schema: { type: 'string' }, examples: { Cronus: { value: 'c1' } } },
          ],
          responses: {
            '201': { ...ok, description: 'Created' },
            default: { description: errorNotShown, content: { 'application/json': { schema: { title: 'BusinessCentralError' } } } },
          },
          ...operation,
        },
      },
    },
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  };
}

const armGet = (doc: Doc) => doc.paths['/subscriptions/{subscriptionId}/things'].get;
const bcPost = (doc: Doc) => doc.paths['/companies({company_id})/things'].post;

// A resource type the ARM way: a tracked resource (PUT on …/providers/{Namespace}/{type}/{name}
// whose body has `location`), created and deleted long-running, and its list by resource group.
const RESOURCE = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Test/things/{thingName}';
const RESOURCES = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Test/things';
const text = (description: string, extra: Doc = {}) => ({ type: 'string', description, ...extra });
const thing = () => ({
  title: 'Thing',
  type: 'object',
  required: ['location'],
  properties: {
    id: text('Resource id.', { readOnly: true }),
    name: text('Resource name.', { readOnly: true }),
    type: text('Resource type.', { readOnly: true }),
    location: text('Azure region.'),
    tags: { type: 'object', description: 'Tags.', additionalProperties: { type: 'string' } },
    systemData: { type: 'object', description: 'Created and modified by.', readOnly: true },
    properties: { type: 'object', description: 'Properties.', properties: { provisioningState: text('State.', { readOnly: true }) } },
  },
});
const thingValue = {
  id: '/subscriptions/s1/resourceGroups/rg/providers/Provider.Test/things/t1',
  name: 't1',
  type: 'Provider.Test/things',
  location: 'westeurope',
  tags: {},
};
const body = (schema: Doc, description = 'The thing.') => ({
  description,
  content: { 'application/json': { schema, examples: { Basic: { value: thingValue } } } },
});
const header = (description: string, format?: string) => ({ description, schema: { type: 'string', ...(format ? { format } : {}) } });
const monitor = () => ({
  'Azure-AsyncOperation': header('Status monitor.', 'uri'),
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
});
const cloudErrorResponse = () => ({ description: errorNotShown, content: { 'application/json': { schema: cloudError } } });
const armParameters = (withName = true) => [
  { name: 'subscriptionId', in: 'path', required: true, description: 'Subscription.', schema: { type: 'string' }, example: 's1' },
  { name: 'resourceGroupName', in: 'path', required: true, description: 'Resource group.', schema: { type: 'string' }, example: 'rg' },
  ...(withName
    ? [{ name: 'thingName', in: 'path', required: true, description: 'Thing.', schema: { type: 'string' }, examples: { Basic: { value: 't1' } } }]
    : []),
  { name: 'api-version', in: 'query', required: true, description: 'Version.', schema: { type: 'string', enum: ['2020-01-01'] }, example: '2020-01-01' },
];
function armResourceDocument(): Doc {
  const doc = armDocument();
  const common = { tags: ['Things'], parameters: armParameters() };
  doc.paths[RESOURCE] = {
    put: {
      operationId: 'Things_CreateOrUpdate',
      summary: 'Create or replace a thing',
      description: 'Creates or replaces a thing.',
      ...common,
      requestBody: { required: true, ...body(thing()) },
      responses: { '200': body(thing(), 'Replaced.'), '201': { ...body(thing(), 'Created.'), headers: monitor() }, default: cloudErrorResponse() },
      'x-ms-long-running-operation': true,
      // Where @azure/core-lro reads a PUT's result whatever the marking (house-arm-final-state-via).
      'x-ms-long-running-operation-options': { 'final-state-via': 'original-uri' },
    },
    delete: {
      operationId: 'Things_Delete',
      summary: 'Delete a thing',
      description: 'Deletes a thing.',
      ...common,
      responses: {
        '200': { description: 'Deleted.' },
        '202': { description: 'Accepted.', headers: monitor() },
        '204': { description: 'Not there.' },
        default: cloudErrorResponse(),
      },
      'x-ms-long-running-operation': true,
    },
  };
  doc.paths[RESOURCES] = {
    get: {
      operationId: 'Things_ListByResourceGroup',
      summary: 'List things',
      description: 'Lists the things of a resource group.',
      tags: ['Things'],
      parameters: armParameters(false),
      responses: {
        '200': {
          description: 'A page of things.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { value: { type: 'array', items: thing() }, nextLink: { type: 'string', format: 'uri', description: 'Next page.' } },
              },
              examples: { Basic: { value: { value: [thingValue] } } },
            },
          },
        },
        default: cloudErrorResponse(),
      },
      'x-ms-pageable': { nextLinkName: 'nextLink' },
    },
  };
  return doc;
}
const put = (doc: Doc) => doc.paths[RESOURCE].put;
const del = (doc: Doc) => doc.paths[RESOURCE].delete;
const list = (doc: Doc) => doc.paths[RESOURCES].get;
/** A broken copy of the resource document. */
const armBroken = (change: (doc: Doc) => void) => () => {
  const doc = armResourceDocument();
  change(doc);
  return doc;
};

// A business-data list with the OData query options, each parameter's example naming what
// its entity (the page's `value` items) has; `@odata.etag` declared, as the service's
// entities carry it (an annotation, never a property).
const orderLine = { type: 'object', properties: { id: text('Line id.'), amount: { type: 'number', description: 'Amount.' } } };
const salesOrder = {
  type: 'object',
  properties: {
    '@odata.etag': text('The tag.', { readOnly: true }),
    id: text('Id.', { format: 'uuid' }),
    number: text('Number.'),
    lines: { type: 'array', description: 'Lines.', items: orderLine },
  },
};
const option = (name: string, example: string) => ({ name, in: 'query', required: false, description: `OData ${name}.`, schema: { type: 'string' }, example });
function businessListDocument(): Doc {
  const doc = businessDocument();
  doc.paths['/companies({company_id})/things'].get = {
    operationId: 'listThings',
    summary: 'List things',
    description: 'Lists things.',
    tags: ['Things'],
    parameters: [
      { name: 'company_id', in: 'path', required: true, description: 'Company.', schema: { type: 'string' }, example: 'c1' },
      option('$filter', "startswith(number,'S') and lines/any(l: l/amount gt 5)"),
      option('$orderby', 'number desc'),
      option('$select', 'id,number'),
      option('$expand', 'lines'),
    ],
    responses: {
      '200': {
        description: 'A page of things.',
        content: {
          'application/json': {
            schema: { type: 'object', properties: { value: { type: 'array', items: salesOrder }, '@odata.nextLink': text('Next page.', { format: 'uri' }) } },
            examples: { Basic: { value: { value: [] } } },
          },
        },
      },
      default: { description: errorNotShown, content: { 'application/json': { schema: { title: 'BusinessCentralError' } } } },
    },
  };
  return doc;
}
const bcList = (doc: Doc) => doc.paths['/companies({company_id})/things'].get;
/** The list document with one query option's example changed. */
const listExample = (name: string, example: string) => () => {
  const doc = businessListDocument();
  bcList(doc).parameters.find((p: Doc) => p.name === name).example = example;
  return doc;
};

describe('the passing documents are clean', () => {
  it.each([
    ['resource management', armDocument()],
    ['business data', businessDocument()],
    ['resource management with a tracked resource, long-running PUT and DELETE, a list', armResourceDocument()],
    ['business data with a list whose query options name what its entity has', businessListDocument()],
  ])('%s document has no Spectral result at all', async (_, doc) => {
    expect(codesOf(await lintDocument(doc))).toEqual([]);
  });
});

const cases: Array<{ rule: string; why: string; broken: () => Doc }> = [
  {
    rule: 'house-parameter-example',
    why: 'a path parameter without an example (the samples would send an empty key)',
    broken: () => {
      const doc = businessDocument();
      delete bcPost(doc).parameters[0].examples;
      return doc;
    },
  },
  {
    rule: 'house-odata-query-example',
    why: "a $filter example naming the annotation @odata.etag (the entity's schema declares it)",
    broken: listExample('$filter', "startswith(@odata.etag,'W')"),
  },
  { rule: 'house-odata-query-example', why: 'a $select example naming a property the entity lacks', broken: listExample('$select', 'id,displayName') },
  { rule: 'house-odata-query-example', why: 'an $orderby example naming a property the entity lacks', broken: listExample('$orderby', 'displayName asc') },
  { rule: 'house-odata-query-example', why: 'an $expand example naming a property that is not a related entity', broken: listExample('$expand', 'number') },
  {
    rule: 'house-odata-query-example',
    why: 'a named example (examples:) of $filter naming what the entity lacks',
    broken: () => {
      const doc = businessListDocument();
      const filter = bcList(doc).parameters.find((p: Doc) => p.name === '$filter');
      delete filter.example;
      filter.examples = { Adatum: { value: "displayName eq 'Adatum Corporation'" } };
      return doc;
    },
  },
  {
    rule: 'house-arm-api-version-required',
    why: 'a resource-management operation without api-version',
    broken: () => {
      const doc = armDocument();
      armGet(doc).parameters = armGet(doc).parameters.filter((p: Doc) => p.name !== 'api-version');
      return doc;
    },
  },
  {
    rule: 'house-arm-api-version-required',
    why: 'an optional api-version',
    broken: () => {
      const doc = armDocument();
      armGet(doc).parameters[1].required = false;
      return doc;
    },
  },
  {
    rule: 'house-arm-api-version-required',
    why: 'an api-version that accepts any string (the mock serves one version per document)',
    broken: () => {
      const doc = armDocument();
      armGet(doc).parameters[1].schema = { type: 'string' };
      return doc;
    },
  },
  {
    rule: 'house-arm-api-version-required',
    why: "an api-version whose enum is another document's version",
    broken: () => {
      const doc = armDocument();
      armGet(doc).parameters[1].schema = { type: 'string', enum: ['2019-01-01'] };
      return doc;
    },
  },
  { rule: 'house-operation-id-convention', why: 'a lower-camel id in resource management', broken: () => armDocument({ operationId: 'listThings' }) },
  { rule: 'house-operation-id-convention', why: 'a Resource_Verb id in business data', broken: () => businessDocument({ operationId: 'Things_Create' }) },
  {
    rule: 'house-operation-id-convention',
    why: 'an id that starts with its noun in business data',
    broken: () => businessDocument({ operationId: 'ThingsCreate' }),
  },
  {
    rule: 'house-success-response-example',
    why: 'a 200 without an example',
    broken: () => armDocument({ responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } } }),
  },
  {
    rule: 'house-operation-security-or-gap',
    why: 'no security and no gap record',
    broken: () => {
      const doc = businessDocument();
      delete doc.security;
      return doc;
    },
  },
  {
    rule: 'house-error-response-model',
    why: 'a resource-management error that is not CloudError or ErrorResponse',
    broken: () => {
      const doc = armDocument();
      armGet(doc).responses.default.content['application/json'].schema = { title: 'Oops', type: 'object' };
      return doc;
    },
  },
  {
    rule: 'house-error-response-model',
    why: 'a business-data error that uses CloudError',
    broken: () => {
      const doc = businessDocument();
      bcPost(doc).responses.default.content['application/json'].schema = cloudError;
      return doc;
    },
  },
  {
    rule: 'house-operation-responses',
    why: 'an operation without responses',
    broken: () => {
      const doc = businessDocument();
      delete bcPost(doc).responses;
      return doc;
    },
  },
  {
    rule: 'house-operation-named-example',
    why: 'a DELETE answering 204 whose key parameter has a bare `example:` and no named one (issue 33)',
    broken: armBroken((doc) => {
      const key = del(doc).parameters.find((p: Doc) => p.name === 'thingName');
      delete key.examples;
      key.example = 't1';
      del(doc).responses = { '200': { description: 'Deleted.' }, '202': { description: 'Accepted.', headers: monitor() }, default: cloudErrorResponse() };
    }),
  },
  {
    rule: 'house-info-not-shown',
    why: 'a new document whose overview does not say what the source does not show (issue 33)',
    broken: () => ({ ...businessDocument(), info: { title: 'Test', version: 'v2.0', description: 'Test document.' } }),
  },
  {
    rule: 'house-source-gap-described',
    why: 'an x-source-gap that the description does not say',
    broken: () => businessDocument({ 'x-source-gap': 'The authentication requirement is not shown.' }),
  },
  {
    rule: 'house-error-response-shown',
    why: 'an error response with neither an example nor "Not shown in the source"',
    broken: () => {
      const doc = armDocument();
      armGet(doc).responses.default.description = 'Error';
      return doc;
    },
  },
  { rule: 'house-arm-tracked-resource-put', why: 'a tracked resource PUT without 201', broken: armBroken((doc) => delete put(doc).responses['201']) },
  {
    rule: 'house-arm-tracked-resource-put',
    why: 'a tracked resource PUT whose 200 answers another schema',
    broken: armBroken((doc) => (put(doc).responses['200'] = body({ type: 'object', title: 'Other', properties: { ok: { type: 'boolean' } } }))),
  },
  {
    rule: 'house-arm-tracked-resource-shape',
    why: 'a tracked resource whose location is not required on PUT',
    broken: armBroken((doc) => (put(doc).requestBody.content['application/json'].schema.required = [])),
  },
  {
    rule: 'house-arm-tracked-resource-shape',
    why: 'a tracked resource without tags',
    broken: armBroken((doc) => delete put(doc).requestBody.content['application/json'].schema.properties.tags),
  },
  ...['id', 'name', 'type', 'systemData'].map((field) => ({
    rule: 'house-arm-read-only',
    why: `a tracked resource whose ${field} is writable`,
    broken: armBroken((doc) => delete put(doc).requestBody.content['application/json'].schema.properties[field].readOnly),
  })),
  {
    rule: 'house-arm-read-only',
    why: 'a tracked resource whose properties.provisioningState is writable',
    broken: armBroken((doc) => delete put(doc).requestBody.content['application/json'].schema.properties.properties.properties.provisioningState.readOnly),
  },
  { rule: 'house-arm-delete-responses', why: 'a DELETE answering 201', broken: armBroken((doc) => (del(doc).responses['201'] = { description: 'Created?' })) },
  {
    rule: 'house-arm-delete-responses',
    why: 'a DELETE answering 202 that is not marked long-running',
    broken: armBroken((doc) => delete del(doc)['x-ms-long-running-operation']),
  },
  { rule: 'house-arm-delete-responses', why: 'a long-running DELETE without 202', broken: armBroken((doc) => delete del(doc).responses['202']) },
  {
    rule: 'house-arm-list-next-link',
    why: 'a list without nextLink',
    broken: armBroken((doc) => delete list(doc).responses['200'].content['application/json'].schema.properties.nextLink),
  },
  { rule: 'house-arm-list-next-link', why: 'a list without x-ms-pageable', broken: armBroken((doc) => delete list(doc)['x-ms-pageable']) },
  {
    rule: 'house-arm-long-running',
    why: 'a long-running PUT whose 201 has no Retry-After',
    broken: armBroken((doc) => delete put(doc).responses['201'].headers['Retry-After']),
  },
  {
    rule: 'house-arm-long-running',
    why: 'a long-running DELETE whose 202 has neither Azure-AsyncOperation nor Location',
    broken: armBroken((doc) => delete del(doc).responses['202'].headers['Azure-AsyncOperation']),
  },
  {
    rule: 'house-arm-long-running',
    why: 'a final-state-via ARM does not know',
    broken: armBroken((doc) => (put(doc)['x-ms-long-running-operation-options']['final-state-via'] = 'somewhere')),
  },
  {
    rule: 'house-arm-long-running',
    why: 'final-state-via location without a Location header',
    broken: armBroken((doc) => (put(doc)['x-ms-long-running-operation-options']['final-state-via'] = 'location')),
  },
  {
    rule: 'house-arm-long-running',
    why: 'long-running options on an operation not marked long-running',
    broken: armBroken((doc) => {
      delete put(doc)['x-ms-long-running-operation'];
    }),
  },
  {
    rule: 'house-arm-long-running',
    why: 'a long-running GET',
    broken: armBroken((doc) => (list(doc)['x-ms-long-running-operation'] = true)),
  },
  {
    rule: 'house-arm-final-state-via',
    why: "a long-running PUT whose final-state-via is azure-async-operation (core-lro reads a PUT's result from its URI)",
    broken: armBroken((doc) => (put(doc)['x-ms-long-running-operation-options']['final-state-via'] = 'azure-async-operation')),
  },
  {
    rule: 'house-arm-final-state-via',
    why: 'a long-running DELETE with a final-state-via (it has no result)',
    broken: armBroken((doc) => (del(doc)['x-ms-long-running-operation-options'] = { 'final-state-via': 'azure-async-operation' })),
  },
];

describe('house-arm-api-version-required, across operations', () => {
  /** Two operations reading one api-version parameter (components), its enum another version. */
  function sharedWrongEnum(): Doc {
    const doc = armDocument();
    const get = armGet(doc);
    doc.components.parameters = { ApiVersion: { ...get.parameters[1], schema: { type: 'string', enum: ['2019-01-01'] } } };
    get.parameters[1] = { $ref: '#/components/parameters/ApiVersion' };
    doc.paths['/subscriptions/{subscriptionId}/others'] = {
      get: { ...structuredClone(get), operationId: 'Others_List', summary: 'List others', description: 'Lists others.' },
    };
    return doc;
  }

  it('reports a shared parameter with a wrong enum once, naming info.version and how many operations read it', async () => {
    const found = (await lintDocument(sharedWrongEnum())).filter((r) => r.code === 'house-arm-api-version-required');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/and 1 other operation reading the same parameter: .*info\.version "2020-01-01".*it accepts \["2019-01-01"\]/);
  });

  it('reports each inline parameter with a wrong enum (one per operation: each needs its own fix)', async () => {
    const doc = sharedWrongEnum();
    for (const item of Object.values<Doc>(doc.paths)) item.get.parameters[1] = { ...doc.components.parameters.ApiVersion };
    expect((await lintDocument(doc)).filter((r) => r.code === 'house-arm-api-version-required')).toHaveLength(2);
  });

  it("takes an operation's own api-version over its path item's", async () => {
    const doc = armDocument();
    const item = doc.paths['/subscriptions/{subscriptionId}/things'];
    item.parameters = [armGet(doc).parameters[1]];
    armGet(doc).parameters[1] = { ...armGet(doc).parameters[1], schema: { type: 'string', enum: ['2019-01-01'] } };
    expect(codesOf(await lintDocument(doc))).toContain('house-arm-api-version-required');
  });
});

describe('each house rule fails its broken document', () => {
  it.each(cases)('$rule: $why', async ({ rule, broken }) => {
    const results = await lintDocument(broken());
    expect(codesOf(results), `expected ${rule} among the results`).toContain(rule);
  });
});

// One broken document per rule, linted with the rule turned off where it fired (a
// `.spectral.yaml` `overrides` entry: `files: ["<file>#<pointer>"]`, `rules: { <rule>: off }`):
// the finding goes, and only that one. Every rule's document is its own file (named for
// the rule) under one ruleset that holds all the suppressions, each scoped to its file, as
// a .spectral.yaml with several suppressions does: one ruleset load, not one per rule.
const firstPerRule = [...new Map(cases.map((c) => [c.rule, c])).values()];
describe('each house rule can be suppressed where it fires, and only there', () => {
  const linted = new Map<string, { before: ISpectralDiagnostic[]; after: ISpectralDiagnostic[] }>();
  beforeAll(async () => {
    const documents = await Promise.all(
      firstPerRule.map(async ({ rule, broken }) => {
        const document = broken();
        const before = await lintDocument(document);
        const suppress = before.filter((r) => r.code === rule).map((r) => ({ rule, pointer: pointerOf(r.path) }));
        return { name: rule, document, before, suppress };
      }),
    );
    const after = await lintWithSuppressions(documents);
    for (const { name, before } of documents) linted.set(name, { before, after: after.get(name)! });
  }, 60_000);

  it.each(firstPerRule)('$rule: $why, suppressed', ({ rule }) => {
    const { before, after } = linted.get(rule)!;
    const found = before.filter((r) => r.code === rule);
    expect(found.length).toBeGreaterThan(0);
    expect(codesOf(after)).not.toContain(rule);
    expect(codesOf(after).sort()).toEqual(codesOf(before.filter((r) => r.code !== rule)).sort());
  });
});

describe('the ARM rules key on shapes, not names', () => {
  it('a PUT on a resource path whose body has no location is not a tracked resource (no location or tags required)', async () => {
    const doc = armResourceDocument();
    const schema = put(doc).requestBody.content['application/json'].schema;
    delete schema.properties.location;
    delete schema.properties.tags;
    schema.required = [];
    expect(codesOf(await lintDocument(doc)).filter((c) => c.startsWith('house-arm-tracked'))).toEqual([]);
  });

  it('a business-data DELETE answering 201 or a list without nextLink is not judged by ARM rules', async () => {
    const doc = businessDocument();
    bcPost(doc).responses['201'].content['application/json'].schema = { type: 'object', properties: { value: { type: 'array', items: { type: 'string' } } } };
    expect(codesOf(await lintDocument(doc)).filter((c) => c.startsWith('house-arm-'))).toEqual([]);
  });
});

describe('operation-security-or-gap accepts a recorded gap', () => {
  it('an operation with no security but an x-source-gap about its authentication passes', async () => {
    const doc = businessDocument({ 'x-source-gap': 'The authentication requirement is not shown.' });
    delete doc.security;
    expect(codesOf(await lintDocument(doc))).not.toContain('house-operation-security-or-gap');
  });
});

describe('house-odata-query-example reports at the parameter, for each operation that reads it', () => {
  it('a shared parameter (components) whose example fits one list and not the other: one finding, at the operation it does not fit', async () => {
    const doc = businessListDocument();
    doc.components.parameters = { expand: option('$expand', 'lines') };
    bcList(doc).parameters[4] = { $ref: '#/components/parameters/expand' };
    const other = structuredClone(bcList(doc));
    other.operationId = 'listOthers';
    other.parameters = other.parameters.filter((p: Doc) => p.name !== '$filter');
    other.responses['200'].content['application/json'].schema.properties.value.items = {
      type: 'object',
      properties: { id: text('Id.'), number: text('Number.') },
    };
    doc.paths['/companies({company_id})/others'] = { get: other };
    const found = (await lintDocument(doc)).filter((r) => r.code === 'house-odata-query-example');
    expect(found.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^GET \/companies\(\{company_id\}\)\/others: the example of \$expand, "lines", does not fit the operation's entity \(the entity has no property lines\)/,
      ),
    ]);
    // In the document (one file here), the shared parameter is reported at its component.
    expect(found[0]!.path).toEqual(['components', 'parameters', 'expand']);
  });

  it("a malformed entity schema (allOf not a list) is the structural rules' to report: lint still runs", async () => {
    const doc = businessListDocument();
    bcList(doc).responses['200'].content['application/json'].schema.properties.value.items = { allOf: 'not a list' };
    const results = await lintDocument(doc);
    expect(codesOf(results)).not.toContain('house-odata-query-example');
    expect(codesOf(results).length).toBeGreaterThan(0);
  });

  it('a malformed $ref (a % not followed by two hex digits) does not stop the component-name rule', async () => {
    const doc = businessListDocument();
    bcList(doc).responses['200'].content['application/json'].schema.properties.value.items = { $ref: 'schemas/%E0%A4%A.yaml' };
    expect(codesOf(await lintDocument(doc))).not.toContain('house-component-name-unique');
  });

  it('does not judge a resource-management document', async () => {
    const doc = armDocument();
    armGet(doc).parameters.push(option('$filter', "startswith(@odata.etag,'W')"));
    expect(codesOf(await lintDocument(doc))).not.toContain('house-odata-query-example');
  });
});

describe('house-arm-final-state-via notes at the marking (a hint: never failing lint), saying what @azure/core-lro does instead', () => {
  const finalStateFindings = async (doc: Doc) => (await lintDocument(doc)).filter((r) => r.code === 'house-arm-final-state-via');
  /** The resource document with a long-running POST action on the resource, `headers` on its 202. */
  const withAction = (via: string, headers: Doc) =>
    armBroken((doc) => {
      doc.paths[`${RESOURCE}/restart`] = {
        post: {
          ...structuredClone(del(doc)),
          operationId: 'Things_Restart',
          summary: 'Restart a thing',
          description: 'Restarts a thing.',
          responses: { '200': body(thing(), 'Restarted.'), '202': { description: 'Accepted.', headers }, default: cloudErrorResponse() },
          'x-ms-long-running-operation-options': { 'final-state-via': via },
        },
      };
    })();

  it('a PUT: at its final-state-via, a note naming the original URI', async () => {
    const doc = armResourceDocument();
    put(doc)['x-ms-long-running-operation-options']['final-state-via'] = 'azure-async-operation';
    const found = await finalStateFindings(doc);
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe(3); // hint: a note, never failing lint
    expect(found[0]!.path).toEqual(['paths', RESOURCE, 'put', 'x-ms-long-running-operation-options', 'final-state-via']);
    expect(found[0]!.message).toMatch(
      /^PUT .*final-state-via "azure-async-operation" is not read: @azure\/core-lro reads a PUT's result from its original URI/,
    );
  });

  it('a DELETE with location: no result to read', async () => {
    const doc = armResourceDocument();
    del(doc)['x-ms-long-running-operation-options'] = { 'final-state-via': 'location' };
    del(doc).responses['202'].headers.Location = header('Result.', 'uri');
    expect((await finalStateFindings(doc)).map((r) => r.message)).toEqual([expect.stringMatching(/^DELETE .*reads no result for a DELETE/)]);
  });

  it('a PATCH with azure-async-operation is read from its URI', async () => {
    const doc = armResourceDocument();
    doc.paths[RESOURCE].patch = {
      ...structuredClone(put(doc)),
      operationId: 'Things_Update',
      'x-ms-long-running-operation-options': { 'final-state-via': 'azure-async-operation' },
    };
    expect((await finalStateFindings(doc)).map((r) => r.message)).toEqual([expect.stringMatching(/^PATCH .*reads this PATCH's result from its original URI/)]);
  });

  it('a POST: original-uri without a status monitor is not read; with one it is, and location always is', async () => {
    const location = { Location: header('Result.', 'uri'), 'Retry-After': monitor()['Retry-After'] };
    expect((await finalStateFindings(withAction('original-uri', location))).map((r) => r.message)).toEqual([
      expect.stringMatching(/^POST .*only when the first answer carries a status monitor/),
    ]);
    expect(await finalStateFindings(withAction('original-uri', { ...location, ...monitor() }))).toEqual([]);
    expect(await finalStateFindings(withAction('location', location))).toEqual([]);
    expect(await finalStateFindings(withAction('azure-async-operation', monitor()))).toEqual([]);
  });

  it('is silent where final-state-via is left out, and on operations not marked long-running', async () => {
    const doc = armResourceDocument();
    delete put(doc)['x-ms-long-running-operation-options'];
    expect(await finalStateFindings(doc)).toEqual([]);
  });
});
