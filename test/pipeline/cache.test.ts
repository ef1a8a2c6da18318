// The build cache on a throw-away copy of the workspace: a build with nothing changed
// redoes nothing; an edit redoes only the document that reads the edited file; a new
// version listed in redocly.yaml is the only document built, while an edit of the rest of
// redocly.yaml redoes them all; a corrupt entry, a hand-edited output and a new tool
// version are noticed and rebuilt, never trusted. (How fast that is, is the benchmark's
// business, not this test's.)
// The copy starts from this checkout's cache (workspaceCopy's `built`), whose entries it
// checks against its own files like any other.
// The builds run in-process (test/helpers/in-process.ts, which gives each run a new
// workspace key, as a new process computes one), and a new process then finds what they
// recorded current.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addVersion } from '../helpers/add-version.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { SOURCE_ROOTS, workspaceCopy } from '../helpers/workspace-copy.js';
import { filesUnder } from '../../lib/walk.mjs';

const run = promisify(execFile);
let dir: string;
let remove: (() => Promise<void>) | undefined;
/** The documents of the copy (two, then three with the version a case adds). */
let n = 0;

/** `npm run build` without the compile (its cache is the same code path, and slow). */
async function build(): Promise<string> {
  const { code, output } = await runInProcess(dir, 'pipeline/build.mjs', '--no-compile');
  expect(code, output).toBe(0);
  return output;
}

/** The same, as a new Node process. */
async function buildInNewProcess(): Promise<string> {
  const { stdout, stderr } = await run(process.execPath, ['pipeline/build.mjs', '--no-compile'], { cwd: dir });
  return stdout + stderr;
}
const file = (path: string) => join(dir, path);
/** Every file the build writes under generated/ (path -> text). */
async function outputs(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of filesUnder(file('generated'))) files[relative(dir, path)] = await readFile(path, 'utf8');
  return files;
}
const entry = (name: string) => file(`.cache/provider-api/${name}.json`);
const ROOT = join(import.meta.dirname, '../..');
/**
 * The business-data version the case adds: the first v1.N that this checkout neither lists
 * nor has a build-cache entry for (the copy takes its cache), so that a contributor's own
 * v1.1 does not turn the new document into a changed one.
 */
const NEW = (() => {
  const listed = Object.keys(parse(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8')).apis ?? {});
  for (let n = 1; ; n++) {
    const version = `v1.${n}`;
    if (!listed.includes(`businesscentral@${version}`) && !existsSync(join(ROOT, `.cache/provider-api/doc-businesscentral-${version}.json`))) return version;
  }
})();
const SHIPMENT_SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';
const SHIPMENT_TYPES = 'generated/types/businesscentral-v1.0.ts';

beforeAll(async () => {
  // The two documents the cases read (business data v1.0 and sql's first version): which
  // documents a build redoes does not depend on how many operations the others hold, and
  // the cases that redo every document would otherwise lint a contributor's widest
  // version whole, twice (a v2.0 of 300 operations made this file 11 -> 26 s).
  ({ dir, remove } = await workspaceCopy('cache-test-', {
    built: true,
    documents: [SOURCE_ROOTS.businessDataV1, SOURCE_ROOTS.sql],
  }));
  n = await documentCount();
  expect(n).toBeGreaterThanOrEqual(2); // "only that document" needs others to leave alone
  // Nothing to do when the checkout was built; a cold build of the copy when it was not.
  await build();
}, 120_000);

/** The documents redocly.yaml lists in the copy. */
const documentCount = async () => Object.keys(parse(await readFile(file('redocly.yaml'), 'utf8')).apis).length;

afterAll(async () => {
  await remove?.();
});

describe.sequential('npm run build cache', () => {
  it('redoes nothing when nothing changed', async () => {
    const again = await build();
    expect(again).toContain(`${n} documents unchanged since the last build (cache)`);
    expect(again).toContain(`${n} bundles + types unchanged`);
    expect(again).toContain(`0 of ${n} pages rendered`);
  });

  it('redoes only the document that reads an edited file', async () => {
    const text = await readFile(file(SHIPMENT_SCHEMA), 'utf8');
    await writeFile(file(SHIPMENT_SCHEMA), text.replace(/(  code:\n    type: string\n    description: )[^\n]*/, '$1Short code (edited).'));
    const out = await build();
    expect(out).toContain(`1 of ${n} documents (1 changed; the rest unchanged)`);
    expect(out).toContain(`1 of ${n} pages rendered`);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code (edited).');
  });

  it('rebuilds a document whose cache entry is corrupt, and says so', async () => {
    const path = entry('doc-businesscentral-v1.0');
    const text = await readFile(path, 'utf8');
    // One flipped character inside the body: still JSON, no longer its own hash.
    expect(text).toContain('outputs');
    await writeFile(path, text.replace('outputs', 'outputz'));
    const out = await build();
    expect(out).toContain(`1 of ${n} documents (1 corrupt; the rest unchanged)`);
    // Not JSON at all: a torn write would look like this (another document's entry).
    await writeFile(entry('doc-sql-2025-01-01'), '{"sha":"');
    expect(await build()).toContain(`1 of ${n} documents (1 corrupt; the rest unchanged)`);
    expect(await build()).toContain(`${n} documents unchanged`);
  });

  it('rebuilds an output edited by hand instead of trusting the entry', async () => {
    await writeFile(file(SHIPMENT_TYPES), '// edited by hand\n');
    const out = await build();
    expect(out).toContain(`1 of ${n} documents (1 changed; the rest unchanged)`);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code (edited).');
    // A docs page edited by hand is rendered again too.
    await writeFile(file('generated/docs/businesscentral-v1.0.html'), 'broken');
    expect(await build()).toContain(`1 of ${n} pages rendered`);
  });

  it('builds only the new document when a version is added to redocly.yaml; the others are kept', async () => {
    // A version of the smaller business-data document: what is checked is which documents
    // the build redoes, not how many operations the new one holds.
    await addVersion(dir, { api: 'businesscentral', from: 'specs/business-central/v1.0', to: NEW });
    n = await documentCount();
    const out = await build();
    expect(out).toContain(`1 of ${n} documents (1 absent; the rest unchanged)`);
    expect(out).toContain(`1 of ${n} bundles + types`);
    expect(out).toContain(`1 of ${n} pages rendered`);
    expect(await readFile(file(`generated/bundled/businesscentral-${NEW}.yaml`), 'utf8')).toContain(`/api/${NEW}`);
    // Its entry, re-pointed to another output, is its own change: that document again, alone.
    const config = await readFile(file('redocly.yaml'), 'utf8');
    await writeFile(
      file('redocly.yaml'),
      config.replace(`output: generated/bundled/businesscentral-${NEW}.yaml`, `output: generated/bundled/businesscentral-${NEW}-moved.yaml`),
    );
    expect(await build()).toContain(`1 of ${n} documents (1 changed; the rest unchanged)`);
    expect(await readFile(file(`generated/bundled/businesscentral-${NEW}-moved.yaml`), 'utf8')).toContain(NEW);
  });

  it("writes what a build from nothing writes, after an edit that reuses the other documents' entries", async () => {
    // Two business-data versions now, so the landing page holds the changes between them:
    // an edit of sql reuses every business-data entry (documents, pages, that report).
    const text = await readFile(file(SOURCE_ROOTS.sql), 'utf8');
    const edited = text.replace('description: Resource-management base address.', 'description: Resource-management base address (edited).');
    expect(edited).not.toBe(text);
    await writeFile(file(SOURCE_ROOTS.sql), edited);
    expect(await build()).toContain(`1 of ${n} documents (1 changed; the rest unchanged)`);
    const incremental = await outputs();
    // The reused report is on the page (the case before this one added the second version).
    expect(incremental['generated/docs/index.html']).toContain('id="changes-businesscentral"');
    // From nothing: no cache, and no outputs an earlier build left (one only an incremental
    // build keeps would otherwise be in both).
    await rm(file('.cache/provider-api'), { recursive: true });
    await rm(file('generated'), { recursive: true });
    expect(await build()).toContain(`${n} of ${n} bundles + types`);
    expect(await outputs()).toEqual(incremental);
  });

  it('drops a version removed from redocly.yaml, redoing no document', async () => {
    const config = await readFile(file('redocly.yaml'), 'utf8');
    const entry = new RegExp(`^ {2}businesscentral@${NEW.replace('.', '\\.')}:\\n(?: {4}.*\\n)+`, 'm');
    expect(config).toMatch(entry);
    await writeFile(file('redocly.yaml'), config.replace(entry, ''));
    n = await documentCount();
    const out = await build();
    expect(out).toContain(`${n} documents unchanged since the last build (cache)`);
    // The manifest and the docs, keyed on the list, drop it; its outputs are deleted.
    expect(await readFile(file('generated/operations.ts'), 'utf8')).not.toContain(NEW);
    expect(await readFile(file('generated/docs/index.html'), 'utf8')).not.toContain(`businesscentral-${NEW}`);
    for (const gone of [
      `generated/bundled/businesscentral-${NEW}-moved.yaml`,
      `generated/types/businesscentral-${NEW}.ts`,
      `generated/docs/businesscentral-${NEW}.html`,
    ]) {
      await expect(readFile(file(gone), 'utf8'), gone).rejects.toThrow(/ENOENT/);
    }
  });

  it('redoes every document when redocly.yaml changes outside its list of documents', async () => {
    const config = await readFile(file('redocly.yaml'), 'utf8');
    // A lint setting every document reads (turning a rule off cannot add a finding).
    expect(config).toMatch(/^rules:\n/m);
    await writeFile(file('redocly.yaml'), config.replace(/^rules:\n/m, 'rules:\n  no-unused-components: off\n'));
    const out = await build();
    expect(out).toContain(`redocly + spectral clean, ${n} documents`);
    expect(out).toContain(`${n} of ${n} bundles + types`);
    // A comment is not a setting: nothing is redone for it.
    await writeFile(file('redocly.yaml'), `# a comment\n${await readFile(file('redocly.yaml'), 'utf8')}`);
    expect(await build()).toContain(`${n} documents unchanged since the last build (cache)`);
  });

  it('treats every entry as stale after a tool-version change', async () => {
    const lockPath = file('package-lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8'));
    lock.packages['node_modules/openapi-typescript'].version = '7.99.0';
    await writeFile(lockPath, JSON.stringify(lock, null, 2));
    const out = await build();
    expect(out).toContain(`redocly + spectral clean, ${n} documents`);
    expect(out).toContain(`${n} of ${n} bundles + types`);
    expect(out).toContain(`${n} of ${n} pages rendered`);
    expect(await buildInNewProcess()).toContain(`${n} documents unchanged`);
  });

  it('leaves no temporary files behind', async () => {
    const names = [...(await readdir(file('.cache/provider-api'))), ...(await readdir(file('generated/docs')))];
    expect(names.filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});
