// `npm run lint` on one API version as wide as the real services (issue 34): 60 entity
// sets, 300 operations, added to v2.0 of a workspace copy by specs/README.md's recipe with
// its own `$ref` forms (test/helpers/add-entity-sets.mjs). Every `default` is the shared
// NotShownError.yaml, which itself $refs BusinessCentralError.yaml: with Spectral's default
// resolver cache about 200 of them were false house-error-response-model errors
// (scripts/lib/spectral-ref-cache.mjs; test/lint/ref-resolver.test.ts is the same in memory).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEntitySets } from '../helpers/add-entity-sets.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const WIDE = 'businesscentral@v2.0';
let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('lint-wide-', { documents: ['specs/business-central/v2.0/openapi.yaml'] }));
  await addEntitySets(dir, { count: 60 });
}, 60_000);
afterAll(async () => remove?.());

describe('npm run lint at 300 operations in one version', () => {
  it('is clean: every use of the shared error response resolves (no false house rule finding)', { timeout: 120_000 }, async () => {
    const { code, output } = await runInProcess(dir, 'scripts/lint.mjs', WIDE);
    expect(output.split('\n').filter((line) => /\serror\s/.test(line)).slice(0, 5)).toEqual([]);
    expect(output).toContain('lint  passed');
    expect(code).toBe(0);
  });
});
