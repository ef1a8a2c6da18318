// `npm run lint` on one API version as wide as the real services (issue 34): 60 entity
// sets, 300 operations, added to v2.0 of a workspace copy by specs/README.md's recipe with
// its own `$ref` forms (test/helpers/add-entity-sets.mjs). Every `default` is the shared
// NotShownError.yaml, which itself $refs BusinessCentralError.yaml: with Spectral's default
// resolver cache about 200 of them were false house-error-response-model errors
// (pipeline/spectral-ref-cache.mjs; test/lint/ref-resolver.test.ts is the same in memory).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addEntitySets } from '../helpers/add-entity-sets.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { editFiles, workspaceCopy } from '../helpers/workspace-copy.js';

const WIDE = 'businesscentral@v2.0';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
let dir: string;
let remove: () => Promise<void>;
let names: string[];

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('lint-wide-', { documents: ['specs/business-central/v2.0/openapi.yaml'] }));
  // Up to 300 operations: as many sets as that takes (at least one, which the second case
  // breaks), so a workspace that is already wide is not made twice as wide.
  const bundle = parse(await readFile(join(dir, 'generated/bundled/businesscentral-v2.0.yaml'), 'utf8'));
  const operations = Object.values<any>(bundle.paths ?? {}).flatMap((item) => METHODS.filter((m) => item?.[m])).length;
  names = await addEntitySets(dir, { count: Math.max(1, Math.ceil((300 - operations) / 5)) });
}, 60_000);
afterAll(async () => remove?.());

describe('npm run lint at 300 operations in one version', () => {
  it('is clean: every use of the shared error response resolves (no false house rule finding)', { timeout: 120_000 }, async () => {
    const { code, output } = await runInProcess(dir, 'pipeline/lint.mjs', WIDE);
    expect(
      output
        .split('\n')
        .filter((line) => /\serror\s/.test(line))
        .slice(0, 5),
    ).toEqual([]);
    expect(output).toContain('lint  passed');
    expect(code).toBe(0);
  });

  // And the rules still see: one operation wrong among the 300 (in the entity set listed
  // last in the root's paths) is one finding, with its file and line.
  it('finds the one wrong operation among 300, with its file and line', { timeout: 120_000 }, async () => {
    const last = names[0]!; // addEntitySets lists each new set first: the first added is listed last
    const file = `specs/business-central/v2.0/paths/${last}.yaml`;
    const restore = await editFiles(dir, [[file, (t) => t.replace(/examples:\n        Basic:\n          value: (\S+)\n/, 'example: $1\n')]]);
    try {
      const { code, output } = await runInProcess(dir, 'pipeline/lint.mjs', WIDE);
      const findings = output.split('\n').filter((line) => /\serror\s/.test(line));
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+  error  house-operation-named-example  DELETE `));
      expect(code).toBe(1);
    } finally {
      await restore();
    }
  });
});
