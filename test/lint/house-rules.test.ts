// Each house rule of .spectral.yaml with a document that passes and one that fails.
// The passing documents are complete enough that no built-in rule fires either, so a
// result in the failing case can only come from the rule under test.
import { describe, expect, it } from 'vitest';
import { codesOf, lintDocument } from '../helpers/spectral.js';

type Doc = Record<string, any>;

const cloudError = {
  title: 'CloudError',
  type: 'object',
  properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } },
};
const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object' }, examples: { Basic: { value: {} } } } } };

function armDocument(operation: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: '2020-01-01', description: 'Test document.' },
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
            { name: 'api-version', in: 'query', required: true, description: 'Version.', schema: { type: 'string', enum: ['2020-01-01'] }, example: '2020-01-01' },
          ],
          responses: { '200': ok, default: { description: 'Error', content: { 'application/json': { schema: cloudError } } } },
          ...operation,
        },
      },
    },
    components: {
      securitySchemes: {
        azure_auth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://login.test/authorize', scopes: { user_impersonation: 'Act as the user.' } } } },
      },
    },
  };
}

function businessDocument(operation: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: 'v2.0', description: 'Test document.' },
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
          parameters: [{ name: 'company_id', in: 'path', required: true, description: 'Company.', schema: { type: 'string' }, examples: { Cronus: { value: 'c1' } } }],
          responses: {
            '201': { ...ok, description: 'Created' },
            default: { description: 'Error', content: { 'application/json': { schema: { title: 'BusinessCentralError' } } } },
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

describe('the passing documents are clean', () => {
  it.each([
    ['resource management', armDocument()],
    ['business data', businessDocument()],
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
];

describe('each house rule fails its broken document', () => {
  it.each(cases)('$rule: $why', async ({ rule, broken }) => {
    const results = await lintDocument(broken());
    expect(codesOf(results), `expected ${rule} among the results`).toContain(rule);
  });
});

describe('operation-security-or-gap accepts a recorded gap', () => {
  it('an operation with no security but an x-source-gap about its authentication passes', async () => {
    const doc = businessDocument({ 'x-source-gap': 'The authentication requirement is not shown.' });
    delete doc.security;
    expect(codesOf(await lintDocument(doc))).not.toContain('house-operation-security-or-gap');
  });
});
