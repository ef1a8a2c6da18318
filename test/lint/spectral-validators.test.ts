// The JSON Schema validators of Spectral's thread (pipeline/spectral-ajv.mjs): a ruleset's
// schema, seen again in a later run, is compiled once for the thread; everything else gets
// upstream's own per-run instances, so a run's `$id`s and `$ref`s behave as upstream's and
// nothing of a document outlives its run.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { runScopedAjv } from '../../pipeline/spectral-ajv.mjs';

const require = createRequire(import.meta.url);
type CreateAjvInstances = (() => (schema: object, dialect: string, allErrors: boolean) => (data: unknown) => boolean) & {
  upstream?: CreateAjvInstances;
};
// Spectral's own function, also when a file before this one in the worker wrapped the
// export (test/helpers/spectral.ts shares the validators, as the build's thread does).
const exported = require('@stoplight/spectral-functions/dist/schema/ajv.js').createAjvInstances as CreateAjvInstances;
const upstream = exported.upstream ?? exported;

/** runScopedAjv over upstream, counting the instance sets it makes and what each one compiled. */
function counted() {
  const sets: object[][] = [];
  const createRun = runScopedAjv(() => {
    const compiled: object[] = [];
    sets.push(compiled);
    const assign = upstream();
    return (schema: object, dialect: string, allErrors: boolean) => {
      compiled.push(schema);
      return assign(schema, dialect, allErrors);
    };
  });
  return { createRun: createRun as () => (schema: object, dialect: string, allErrors: boolean) => (data: unknown) => boolean, sets };
}

describe("Spectral's validators in its thread", () => {
  it("compile a ruleset's schema once for the thread, from the second run on, and make no instances for a run that needs none", () => {
    expect((upstream as { runScoped?: boolean }).runScoped, "the tests wrap Spectral's own function, not the shared wrapper").toBeUndefined();
    const { createRun, sets } = counted();
    const rulesetSchema = { type: 'object', required: ['openapi'] };
    const first = createRun()(rulesetSchema, 'draft2020-12', false);
    expect(first({ openapi: '3.1.0' })).toBe(true);
    const second = createRun()(rulesetSchema, 'draft2020-12', false);
    const third = createRun()(rulesetSchema, 'draft2020-12', false);
    expect(third).toBe(second);
    expect(third({})).toBe(false);
    // The first run's own set, then the thread's: runs two and three made none of their own.
    expect(sets).toHaveLength(2);
  });

  it("answer a document's schemas with that run's instances: a nested $id of an earlier run is not found", () => {
    const { createRun } = counted();
    // Run A: a component with a nested $id; run B: a schema with that $id and other content.
    const a = createRun()({ type: 'object', properties: { pet: { $id: 'https://x.test/pet', required: ['name'] } } }, 'draft7', false);
    expect(a({ pet: {} })).toBe(false);
    const b = createRun()({ $id: 'https://x.test/pet', required: ['id'] }, 'draft7', false);
    expect(b({ name: 'a' })).toBe(false);
    expect(b({ id: 1 })).toBe(true);
  });

  it('resolve a $ref by $id to another schema of the same run, as upstream does', () => {
    const { createRun } = counted();
    const run = createRun();
    run({ $id: 'https://x.test/common', definitions: { name: { type: 'string' } } }, 'draft7', false);
    const named = run({ properties: { n: { $ref: 'https://x.test/common#/definitions/name' } } }, 'draft7', false);
    expect(named({ n: 'a' })).toBe(true);
    expect(named({ n: 1 })).toBe(false);
  });

  it("keep nothing of a document's schemas in the thread's set, however many runs", () => {
    const { createRun, sets } = counted();
    const rulesetSchema = { type: 'string' };
    createRun()(rulesetSchema, 'draft7', false);
    for (let run = 0; run < 20; run++) {
      const assign = createRun();
      assign(rulesetSchema, 'draft7', false);
      const validate = assign({ $id: 'https://x.test/same-id', type: 'object', properties: { n: { const: run } } }, 'draft7', false);
      expect(validate({ n: run })).toBe(true);
    }
    // Sets: the first run's, the thread's, and one per later run for its document schema.
    expect(sets).toHaveLength(22);
    expect(sets[1]).toEqual([rulesetSchema, ...Array(19).fill(rulesetSchema)]);
  });
});
