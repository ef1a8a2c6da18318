// The bundles as other tools meet them: an independent OpenAPI 3.1 schema validator (not
// Redocly, not Spectral), and the habits that other generators and renderers rely on.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { apis, bundled, deref } from '../helpers/bundles.js';

/** Every schema node of a document, with its JSON pointer. */
function* schemas(node: unknown, pointer = '#'): Generator<[string, any]> {
  if (!node || typeof node !== 'object') return;
  const value = node as Record<string, unknown>;
  if ('type' in value || 'properties' in value || 'items' in value) yield [pointer, value];
  for (const [key, child] of Object.entries(value)) yield* schemas(child, `${pointer}/${key}`);
}

describe.each(apis())('$name bundle', (api) => {
  const document = bundled(api);

  it('is valid for @seriousme/openapi-schema-validator (OpenAPI 3.1 schema, strict)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('gives every parameter an example, so sample requests in renderers are usable', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const parameter of (operation.parameters ?? []).map((p: any) => deref(document, p))) {
          if (parameter.example === undefined && parameter.examples === undefined) missing.push(`${method} ${path} ${parameter.in} ${parameter.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares `items` on every array schema (required by OpenAPI 3.0 and AutoRest-style generators)', () => {
    const arrays = [...schemas(document)].filter(([, s]) => s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array')));
    expect(arrays.filter(([, s]) => s.items === undefined).map(([p]) => p)).toEqual([]);
  });
});

describe('the independent checks', () => {
  it('see array schemas at all (the items check is not vacuous)', () => {
    const arrays = apis().flatMap((api) => [...schemas(bundled(api))].filter(([, s]) => s.type === 'array'));
    expect(arrays.length).toBeGreaterThan(1);
  });

  it('rejects what these tests guard against (a non-URL authorizationUrl)', async () => {
    const document = structuredClone(bundled(apis().find((a) => a.name.startsWith('authorization@'))!));
    document.components.securitySchemes.azure_auth.flows.implicit.authorizationUrl = '{auth_url}';
    const result = await new Validator().validate(document);
    expect(result.valid).toBe(false);
  });
});
