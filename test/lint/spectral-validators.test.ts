// The JSON Schema validators Spectral's thread keeps between runs (pipeline/spectral-ajv.mjs):
// a ruleset's schema is compiled once, a document's schema leaves nothing behind, and a
// `$id` never answers with another schema's validator.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { createSharedAjv } from '../../pipeline/spectral-ajv.mjs';

const require = createRequire(import.meta.url);
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';

/** What an instance holds: its compiled schemas and its registered ids. */
const held = (ajv: any) => ({ cache: ajv._cache.size, refs: Object.keys(ajv.refs).sort(), schemas: Object.keys(ajv.schemas).sort() });

describe("Spectral's validators, kept between runs", () => {
  it('compile a schema object once, whatever the run asking', () => {
    const { assign } = createSharedAjv();
    const rulesetSchema = { type: 'object', required: ['openapi'] };
    const first = assign(rulesetSchema, 'draft2020-12', false);
    expect(assign(rulesetSchema, 'draft2020-12', false)).toBe(first);
    expect(first({ openapi: '3.1.0' })).toBe(true);
    expect(first({})).toBe(false);
    // Another dialect or allErrors is another instance, as upstream keeps them.
    expect(assign(rulesetSchema, 'draft2020-12', true)).not.toBe(first);
  });

  it("leave nothing of a document's schemas in the instances, however many runs", () => {
    const { assign, instances } = createSharedAjv();
    assign({ type: 'string' }, 'draft7', false);
    const ajv = instances.get('auto false');
    const before = held(ajv);
    for (let run = 0; run < 50; run++) {
      const validate = assign({ $id: `https://example.test/run-${run}`, type: 'object', properties: { n: { const: run } } }, 'draft7', false);
      expect(validate({ n: run })).toBe(true);
    }
    expect(held(ajv)).toEqual(before);
  });

  it("never answer a $id with an earlier run's schema of that $id", () => {
    const { assign } = createSharedAjv();
    const id = 'https://example.test/vendor';
    const original = assign({ $id: id, type: 'object', properties: { name: { type: 'string' } } }, 'draft2020-12', false);
    // The schema edited between two lints: same $id, another content.
    const edited = assign({ $id: id, type: 'object', properties: { name: { type: 'integer' } } }, 'draft2020-12', false);
    expect(original({ name: 'x' })).toBe(true);
    expect(edited({ name: 'x' })).toBe(false);
    expect(edited({ name: 1 })).toBe(true);
  });

  it('answer a meta-schema $id with the meta-schema the instance was made with, as upstream does', () => {
    const { assign } = createSharedAjv();
    // Not the draft-06 meta-schema's content: the registered one validates schemas.
    const validate = assign({ $id: DRAFT_06, type: 'string' }, 'draft7', false);
    expect(validate({ type: 'object' })).toBe(true);
    expect(validate('a string')).toBe(false);
  });

  it('leave nothing behind when a schema does not compile, and then compile one of that $id', () => {
    const { assign, instances } = createSharedAjv();
    assign({ type: 'string' }, 'draft7', false);
    const ajv = instances.get('auto false');
    const before = held(ajv);
    const id = 'https://example.test/broken';
    expect(() => assign({ $id: id, $ref: 'https://example.test/nowhere' }, 'draft7', false)).toThrow(/can't resolve reference/);
    expect(held(ajv)).toEqual(before);
    expect(assign({ $id: id, type: 'integer' }, 'draft7', false)(1)).toBe(true);
  });

  it("uses the Ajv, formats and error messages of Spectral's own functions package", () => {
    const { assign } = createSharedAjv();
    const email = assign({ type: 'string', format: 'email' }, 'draft7', false);
    expect(email('not an address')).toBe(false);
    const withMessage = assign({ type: 'string', errorMessage: 'a name, please' }, 'draft7', true);
    expect(withMessage(1)).toBe(false);
    expect((withMessage as any).errors[0].message).toBe('a name, please');
    // The module it replaces the export of is the one Spectral's `schema` function reads.
    const upstream = require('@stoplight/spectral-functions/dist/schema/ajv.js');
    expect(typeof upstream.createAjvInstances).toBe('function');
  });
});
