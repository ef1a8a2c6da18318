// The model's reading of which family a document, a spec root or a request path belongs
// to (model/family.mjs), and the one walk of a document's operations (model/operations.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { loadApis } from '../../model/apis.mjs';
// @ts-expect-error: plain ESM module without types
import { BUSINESS_CENTRAL, familyOf, familyOfPath, familyOfRoot, RESOURCE_MANAGER } from '../../model/family.mjs';
// @ts-expect-error: plain ESM module without types
import { METHODS, operationsOf } from '../../model/operations.mjs';

describe('family', () => {
  it('reads a document’s family from its first server URL', () => {
    expect(familyOf({ servers: [{ url: '{base_url}' }, { url: '{api_prefix}' }] })).toBe(RESOURCE_MANAGER);
    expect(familyOf({ servers: [{ url: '{api_prefix}/api/v2.0' }] })).toBe(BUSINESS_CENTRAL);
    expect(familyOf({ servers: [{ url: 'https://example.com' }] })).toBeUndefined();
    expect(familyOf({})).toBeUndefined();
    expect(familyOf(undefined)).toBeUndefined();
  });

  it('reads a spec root’s family from its folder', () => {
    expect(familyOfRoot('specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml')).toBe(RESOURCE_MANAGER);
    expect(familyOfRoot('specs/business-central/v2.0/openapi.yaml')).toBe(BUSINESS_CENTRAL);
  });

  it('takes a path under /api/vN for business data, any other for resource management', () => {
    expect(familyOfPath('/api/v2.0/companies(1)/vendors')).toBe(BUSINESS_CENTRAL);
    expect(familyOfPath('/subscriptions/s/providers/Provider.Sql/servers')).toBe(RESOURCE_MANAGER);
    expect(familyOfPath('/api/beta/x')).toBe(RESOURCE_MANAGER);
  });

  it('agrees, for every document of the workspace, between its folder and its servers', () => {
    const apis = loadApis(join(import.meta.dirname, '../..'));
    expect(apis.length).toBeGreaterThan(0);
    for (const api of apis) {
      const bundle = parse(readFileSync(api.bundle, 'utf8'));
      expect([api.name, familyOf(bundle)]).toEqual([api.name, api.family]);
      expect(api.family).toBe(familyOfRoot(api.rootRelative));
    }
  });
});

describe('operationsOf', () => {
  it('yields every operation as [path, method, operation, path item], in OpenAPI’s method order, skipping what is not an operation', () => {
    const get = { operationId: 'a' };
    const patch = { operationId: 'b' };
    const options = { operationId: 'c' };
    const item = { patch, get, options, parameters: [], summary: 'x', put: null };
    const document = { paths: { '/a': item, '/b': null, '/c': 'text' } };
    expect([...operationsOf(document)]).toEqual([
      ['/a', 'get', get, item],
      ['/a', 'options', options, item],
      ['/a', 'patch', patch, item],
    ]);
    expect([...operationsOf({})]).toEqual([]);
    expect(METHODS).toEqual(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  });
});
