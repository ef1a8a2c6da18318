// The docs pages' shared Redoc runtime (pipeline/docs-runtime.mjs): read from the standalone
// bundle in @redocly/cli's package, it must be the runtime cut out of a page that the CLI's
// own `build-docs --inlineBundle` renders, byte for byte. A CLI upgrade that moves the file
// or changes what it inlines fails here; the pipeline then falls back to the page.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { runtimeFromCli, runtimeFromPackage } from '../../pipeline/docs-runtime.mjs';
import { ROOT } from '../helpers/bundles.js';

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe("the docs' Redoc runtime", () => {
  it('read from the CLI package is the one cut out of a page that build-docs renders', async () => {
    const fromPackage = await runtimeFromPackage(ROOT);
    expect(fromPackage?.name).toMatch(/^redoc-\d+\.\d+\.\d+-[0-9a-f]{12}\.js$/);
    const fromPage = await runtimeFromCli(ROOT);
    expect(fromPackage).toEqual(fromPage);
  }, 60_000);

  it('is not read from a package without the file, nor from a file of another shape', async () => {
    const root = await mkdtemp(join(tmpdir(), 'docs-runtime-test-'));
    scratch.push(root);
    expect(await runtimeFromPackage(root)).toBeUndefined();
    const chunks = join(root, 'node_modules/@redocly/cli/lib/chunks');
    await mkdir(chunks, { recursive: true });
    await writeFile(join(chunks, 'redoc.standalone.js'), '/** Version: 9.9.9 **/\nconsole.log("not the bundle");\n');
    expect(await runtimeFromPackage(root)).toBeUndefined();
  });
});
