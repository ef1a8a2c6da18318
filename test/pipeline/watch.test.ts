// `npm run dev` on a throw-away copy of the workspace: a change regenerates only the
// affected document; a broken edit prints file:line and leaves generated/ as it was;
// fixing the edit recovers without a restart; a change in specs/common/ redoes every
// document that references it; a new version listed in redocly.yaml builds that document
// only, and one removed from it is dropped; dist/ follows the spec. (Timings are the
// benchmark's business, not this test's.)
// The cases run in one dev started with --no-dist (no TypeScript 7 compile after each of
// its dozen saves: about 1.2 s of CPU each, on every Node line of CI), except the one that
// reads dist/, which has a dev of its own that compiles.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addVersion } from '../helpers/add-version.mjs';
import { SOURCE_ROOTS, workspaceCopy } from '../helpers/workspace-copy.js';

let dir: string;
let remove: (() => Promise<void>) | undefined;
let child: ChildProcess;
let output = '';

/** Waits for `pattern` in what a dev printed from `from` on (`read`: the main dev's output by default). */
function waitFor(pattern: RegExp, from: number, timeoutMs = 20_000, read = () => output): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const seen = read().slice(from);
      if (pattern.test(seen)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(seen);
      }
    };
    const poll = setInterval(check, 20);
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no ${pattern} in:\n${read().slice(from)}`));
    }, timeoutMs);
    check();
  });
}

/**
 * Waits for `pattern` in the lines of a cycle that read the save of `path` (dev prints
 * `saved <files>` as each cycle starts): a cycle that was already running when the file was
 * written (a long one, at 300 operations) prints its own `done` first, which must not be
 * taken for this save's.
 */
function afterSave(path: string, pattern: RegExp, from: number, timeoutMs = 20_000): Promise<string> {
  const name = relative(dir, path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return waitFor(new RegExp(`dev  saved +[^\\n]*${name}[\\s\\S]*?${pattern.source}`), from, timeoutMs);
}

/**
 * Resolves once dev is idle: its last line is `dev  idle` (printed when no cycle, save, late
 * check or compile is left, pipeline/watch.mjs) or, before any save, `dev  watch`, and
 * nothing followed for `quietMs`. An in-place write can be seen twice (truncated, then
 * whole), and the second cycle's lines must not land in the next case's window and answer
 * its wait before its own cycle ran; that cycle ends with its own `idle` line.
 */
async function settled(quietMs = 100, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  let length = -1;
  let since = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (output.length !== length) [length, since] = [output.length, Date.now()];
    const last = output.trimEnd().split('\n').at(-1) ?? '';
    if (/^dev {2}(idle|watch) /.test(last) && Date.now() - since >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`dev did not become idle within ${timeoutMs / 1000} s:\n${output.slice(-2000)}`);
}

const file = (path: string) => join(dir, path);
const SHIPMENT_SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';
const SHIPMENT_TYPES = 'generated/types/businesscentral-v1.0.ts';
const OTHER_TYPES = 'generated/types/sql-2025-01-01.ts';
// The documents the cases without dist/ read: business data v1.0 (edited, versioned,
// removed) and the source's resource-management documents (two of them read the shared
// CloudErrorBody). (The dist/ cases copy the bounded set: src/ compiles against v2.0's types.)
// What dev redoes does not depend on how many operations the others hold, and a
// contributor's 300-operation v2.0 otherwise made every shared-file case lint it whole
// (31 -> 44 s for this file).
const DOCUMENTS = Object.values(SOURCE_ROOTS);
const SHIPMENT_DIST = 'dist/generated/types/businesscentral-v1.0.d.ts';

/** How Vim, JetBrains "safe write" and many tools save: a new file renamed over the old one. */
async function renameOver(path: string, text: string) {
  const scratch = `${path}.${Math.random().toString(36).slice(2)}~`;
  await writeFile(scratch, text);
  await rename(scratch, path);
}

/** Edits the schema's `code` description, saves it with `save`, waits for the cycle. */
async function editAndWait(save: (path: string, text: string) => Promise<unknown>, description: string) {
  const path = file(SHIPMENT_SCHEMA);
  const text = (await readFile(path, 'utf8')).replace(
    /  code:\n    type: string\n    description: [^\n]*/,
    `  code:\n    type: string\n    description: ${description}`,
  );
  expect(text).toContain(description);
  const from = output.length;
  await save(path, text);
  const cycle = await afterSave(path, /dev  done .*businesscentral@v1\.0/, from);
  expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain(description);
  return cycle;
}

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('watch-test-', { built: true, documents: DOCUMENTS }));
  // A git checkout, so that dev can say what each save changes against HEAD.
  const git = (...args: string[]) => promisify(execFile)('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd: dir });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'base');
  child = spawn(process.execPath, ['pipeline/watch.mjs', '--no-mock', '--no-docs', '--no-dist'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  await waitFor(/dev  watch/, 0, 60_000);
}, 90_000);

/** Stops a dev: it finishes what it is writing (a dist/ compile) before it exits on SIGTERM. */
async function stop(dev: ChildProcess | undefined) {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGTERM');
    await exited;
  }
}

afterAll(async () => {
  await stop(child);
  await remove?.();
}, 30_000);

describe('npm run dev', () => {
  beforeEach(() => settled(), 30_000);

  it('regenerates the types of the changed document only', async () => {
    const otherBefore = await readFile(file(OTHER_TYPES), 'utf8');
    const from = output.length;
    const schema = await readFile(file(SHIPMENT_SCHEMA), 'utf8');
    await writeFile(file(SHIPMENT_SCHEMA), schema.replace('description: Short code.', 'description: Short code, edited.'));
    const cycle = await afterSave(file(SHIPMENT_SCHEMA), /dev  done /, from);
    expect(cycle).toContain('businesscentral@v1.0');
    expect(cycle).not.toContain('sql@');
    // ... and says what the edit does to clients, against HEAD.
    expect(cycle).toMatch(/dev  change   businesscentral@v1\.0  info +description-changed .*ShipmentMethod\.yaml:\d+/);
    // One info per change line (one per operation that reads the schema: their number is
    // the document's, not this test's).
    const infos = cycle.match(/dev  change   businesscentral@v1\.0  info +description-changed /g)!.length;
    expect(cycle).toMatch(new RegExp(`dev  changes  changes: 0 breaking changes \\(0 inside published versions\\), 0 warnings, ${infos} info`));
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, edited.');
    expect(await readFile(file(OTHER_TYPES), 'utf8')).toBe(otherBefore);
    // The burst ends with one `idle` line, after the cycle's last line (what settled() and a
    // script that waits for final outputs rely on).
    const burst = await waitFor(/dev {2}idle {5}waiting for saves\n/, from);
    expect(burst.match(/^dev {2}idle /gm)).toHaveLength(1);
    expect(burst.indexOf('dev  idle ')).toBeGreaterThan(burst.lastIndexOf('dev  changes '));
  });

  it('keeps the last good outputs on a broken edit and names file and line', async () => {
    const typesBefore = await readFile(file(SHIPMENT_TYPES), 'utf8');
    const bundleBefore = await readFile(file('generated/bundled/businesscentral-v1.0.yaml'), 'utf8');
    const good = await readFile(file(SHIPMENT_SCHEMA), 'utf8');
    const from = output.length;
    await writeFile(file(SHIPMENT_SCHEMA), good.replace('  code:\n    type: string', '  code:\n    type: strin'));
    try {
      // The report of this edit names the schema's line. (An in-place write is a truncate,
      // then the text: on a loaded machine dev can lint the empty file first, and report
      // unresolved $refs, before the save it waits for.)
      const report = await waitFor(/specs\/business-central\/v1\.0\/schemas\/ShipmentMethod\.yaml:\d+:\d+  error  [\s\S]*keep the last good version/, from);
      expect(report).toMatch(/specs\/business-central\/v1\.0\/schemas\/ShipmentMethod\.yaml:\d+:\d+  error  /);
      expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toBe(typesBefore);
      expect(await readFile(file('generated/bundled/businesscentral-v1.0.yaml'), 'utf8')).toBe(bundleBefore);
    } finally {
      // Fixed whatever happened above, so the cases after this one start from a clean document.
      const fixed = output.length;
      await writeFile(file(SHIPMENT_SCHEMA), good.replace('description: Short code, edited.', 'description: Short code, fixed.'));
      await afterSave(file(SHIPMENT_SCHEMA), /dev  done .*businesscentral@v1\.0/, fixed);
    }
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, fixed.');
  });

  // A shared schema of resource-management documents: not company_id.yaml, which every
  // business-data version reads, so this case's time does not follow a version of 300
  // operations. Which documents read it is taken from the copy's own $ref walk (the build's,
  // lib/trust.mjs): a document that comes to read it (a resource type grown by the recipe
  // answers the shared CloudError) is then expected among them.
  it('redoes every document that references a changed file in specs/common/', async () => {
    const from = output.length;
    const common = file('specs/common/resource-manager/schemas/CloudErrorBody.yaml');
    const { loadApis } = await import(pathToFileURL(file('model/apis.mjs')).href);
    const { checkTree } = await import(pathToFileURL(file('pipeline/trust.mjs')).href);
    const apis: Array<{ name: string; root: string }> = loadApis(dir);
    const readers = apis.filter((api) => checkTree(api.root, dir).files.includes(common)).map((api) => api.name);
    // The test has teeth: some documents read it, some do not.
    expect(readers.length).toBeGreaterThanOrEqual(1);
    expect(readers.length).toBeLessThan(apis.length);
    await writeFile(common, (await readFile(common, 'utf8')).replace('description: The error itself.', 'description: The error itself, shared.'));
    const cycle = await afterSave(common, /dev  done [^\n]*/, from);
    const done = cycle
      .split('\n')
      .filter((line) => line.startsWith('dev  done'))
      .at(-1)!;
    // The names the line lists (`dev  done     a@1, b@2  0.4 s`), whole, not as substrings.
    const redone = done
      .split(/[\s,]+/)
      .filter((word) => word.includes('@'))
      .sort();
    expect(redone).toEqual([...readers].sort());
    const reader = apis.find((api) => api.name === readers[0])!;
    expect(await readFile(file(`generated/types/${reader.name.replace('@', '-')}.ts`), 'utf8')).toContain('The error itself, shared.');
  });

  it('keeps hearing a file saved by rename-over, again and again (Vim, JetBrains safe write)', async () => {
    for (const n of [1, 2, 3]) await editAndWait(renameOver, `Short code, renamed over ${n}.`);
  });

  it('keeps hearing a file edited with sed -i', async () => {
    for (const n of [1, 2]) {
      await editAndWait(async (path) => {
        await promisify(execFile)('sed', ['-i', `s/description: Short code[^\\n]*/description: Short code, sed ${n}./`, path]);
      }, `Short code, sed ${n}.`);
    }
  });

  it('hears a delete (lint names the missing file) and the re-create', async () => {
    const path = file(SHIPMENT_SCHEMA);
    const text = await readFile(path, 'utf8');
    const from = output.length;
    await rm(path);
    const report = await waitFor(/keep the last good version/, from);
    expect(report).toMatch(/ShipmentMethod\.yaml/);
    const again = output.length;
    await writeFile(path, text.replace(/description: Short code[^\n]*/, 'description: Short code, re-created.'));
    await afterSave(path, /dev  done .*businesscentral@v1\.0/, again);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, re-created.');
  });

  it('hears new files in new folders once a document references them', async () => {
    const folder = file('specs/business-central/v1.0/schemas/extra');
    await mkdir(folder);
    const extra = join(folder, 'Note.yaml');
    await writeFile(extra, 'type: string\ndescription: A note, first.\n');
    const path = file(SHIPMENT_SCHEMA);
    const text = await readFile(path, 'utf8');
    const from = output.length;
    await writeFile(path, text.replace('properties:\n', 'properties:\n  note:\n    $ref: ./extra/Note.yaml\n'));
    await afterSave(path, /dev  done .*businesscentral@v1\.0/, from);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('A note, first.');

    const second = output.length;
    await renameOver(extra, 'type: string\ndescription: A note, second.\n');
    await afterSave(extra, /dev  done .*businesscentral@v1\.0/, second);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('A note, second.');
  });

  it('reports a YAML syntax error as file:line:col, without a stack trace, and recovers', async () => {
    const path = file(SHIPMENT_SCHEMA);
    const good = await readFile(path, 'utf8');
    const from = output.length;
    await writeFile(path, `${good}broken: [unclosed\n`);
    const report = await waitFor(/keep the last good version/, from);
    expect(report).toMatch(/specs\/business-central\/v1\.0\/schemas\/ShipmentMethod\.yaml:\d+:\d+  error  /);
    expect(report).not.toMatch(/\n\s+at /);
    const again = output.length;
    await writeFile(path, good.replace(/description: Short code[^\n]*/, 'description: Short code, after the syntax error.'));
    await afterSave(path, /dev  done .*businesscentral@v1\.0/, again);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, after the syntax error.');
  });

  it('survives a broken redocly.yaml and picks up the fixed one', async () => {
    const path = file('redocly.yaml');
    const good = await readFile(path, 'utf8');
    const from = output.length;
    await writeFile(path, 'apis: [\n');
    const report = await waitFor(/dev  config +broken/, from);
    expect(report).toMatch(/redocly\.yaml:\d+:\d+  error  yaml-syntax/);
    expect(report).not.toMatch(/\n\s+at /);
    const fixed = output.length;
    await renameOver(path, good);
    // The fixed file is the one dev last built from: reloaded, nothing to redo (the next
    // case's edits show dev working from it).
    await waitFor(/dev  config +reloaded; no document's settings changed, nothing to redo/, fixed, 25_000);
  });

  // The house rules' functions are read again when one is saved, as .spectral.yaml is:
  // every document is linted with the rule as saved, and again once it is put back.
  it('re-lints every document with a house rule function as it is saved, and as it is put back', async () => {
    const path = file('rules/infoNotShown.js');
    const good = await readFile(path, 'utf8');
    const broken = good.replace('const SAYS = /not shown/i;', 'const SAYS = /said by no document/i;');
    expect(broken).not.toBe(good);
    const from = output.length;
    await writeFile(path, broken);
    let report: string;
    try {
      report = await waitFor(/dev  config +changed[\s\S]*keep the last good version[\s\S]*dev  idle /, from, 25_000);
    } finally {
      await renameOver(path, good);
    }
    for (const root of DOCUMENTS) expect(report).toMatch(new RegExp(`${root.replace(/\./g, '\\.')}:\\d+:\\d+  error  house-info-not-shown`));
    const fixed = output.length;
    const again = await waitFor(/dev  config +changed[\s\S]*dev  idle /, fixed, 25_000);
    expect(again).not.toMatch(/house-info-not-shown/);
    // Every document linted clean again, in one cycle.
    expect(/dev  lint +([^\n]*) clean/.exec(again)?.[1]?.split(', ')).toHaveLength(DOCUMENTS.length);
  });

  it('builds only the new document when a version is listed in redocly.yaml, and keeps hearing the others', async () => {
    const from = output.length;
    // The recipe's order: the version's folder first, then its redocly.yaml entry.
    await addVersion(dir, { api: 'businesscentral', from: 'specs/business-central/v1.0', to: 'v1.5' });
    const cycle = await waitFor(/dev  done .*businesscentral@v1\.5/, from, 25_000);
    expect(cycle).toMatch(/dev  lint +businesscentral@v1\.5 clean/);
    // The change report names the new version with its operations (issue 33).
    expect(cycle).toMatch(
      /dev  change   businesscentral@v1\.5  info +version-added  \S+  specs\/business-central\/v1\.5\/\S+:\d+  version v1\.5 of `businesscentral` was added with operation /,
    );
    expect(cycle).not.toMatch(/dev  lint .*(businesscentral@v1\.0|sql@)/);
    expect(await readFile(file('generated/types/businesscentral-v1.5.ts'), 'utf8')).toContain('v1.5');
    // What dev knew of the other documents' files is kept: a save of a shared file redoes
    // every document that reads it, the new one and those not redone for the new entry.
    const from2 = output.length;
    const common = file('specs/common/business-central/parameters/company_id.yaml');
    await writeFile(common, (await readFile(common, 'utf8')).replace(/Key \(id\) of the company|Key of the company/, 'Key (identifier) of the company'));
    // The cycle of this save lists the new version and the old ones (on a loaded machine a
    // late event for the new version's files can make a cycle of its own first).
    const shared = await waitFor(
      /dev  done [^\n]*businesscentral@v1\.5[^\n]*businesscentral@v1\.0|dev  done [^\n]*businesscentral@v1\.0[^\n]*businesscentral@v1\.5/,
      from2,
      25_000,
    );
    expect(shared).toMatch(/dev  lint +[^\n]*businesscentral@v1\.0/);
    expect(shared).not.toMatch(/dev  lint +[^\n]*sql@/);
  });

  it('drops a version removed from redocly.yaml from generated/ without linting the others', async () => {
    const from = output.length;
    const config = file('redocly.yaml');
    const text = await readFile(config, 'utf8');
    const entry = (version: string) => new RegExp(`^ {2}businesscentral@${version.replace('.', '\\.')}:\\n(?: {4}.*\\n)+`, 'm');
    expect(text).toMatch(entry('v1.5'));
    expect(text).toMatch(entry('v1.0'));
    // v1.5 is new in this session; v1.0 is at HEAD, published: removing it breaks its clients.
    await writeFile(config, text.replace(entry('v1.5'), '').replace(entry('v1.0'), ''));
    const seen = await waitFor(/dev  removed [^\n]*\n(?:[^\n]*\n)*?dev  changes  /, from, 25_000);
    const removed = seen.slice(seen.indexOf('dev  removed '));
    expect(removed).toMatch(/dev  removed +businesscentral@v1\.5, businesscentral@v1\.0|dev  removed +businesscentral@v1\.0, businesscentral@v1\.5/);
    // (The copy holds no other business-data version: the API itself is removed.)
    expect(removed).toMatch(
      /dev  change   businesscentral@v1\.0  breaking  api-removed  \S+  redocly\.yaml:\d+  the API `businesscentral` \(businesscentral@v1\.0\) was removed from redocly\.yaml, and with it operation /,
    );
    expect(removed).not.toMatch(/businesscentral@v1\.5  \w+ +version-removed/);
    expect(seen).not.toMatch(/dev  lint /);
    expect(await readFile(file('generated/operations.ts'), 'utf8')).not.toContain('v1.5');
    await expect(readFile(file('generated/types/businesscentral-v1.5.ts'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('with --no-dist, compiles no dist/ (the copy has none)', () => {
    expect(output).toMatch(/dev  done /);
    expect(output).not.toMatch(/dev  dist /);
    expect(existsSync(file('dist'))).toBe(false);
  });
});

describe('npm run dev, compiling dist/', () => {
  let distDir: string;
  let removeDist: (() => Promise<void>) | undefined;
  let dev: ChildProcess | undefined;
  let devOutput = '';
  const read = () => devOutput;

  beforeAll(async () => {
    ({ dir: distDir, remove: removeDist } = await workspaceCopy('watch-dist-test-', { built: true }));
    dev = spawn(process.execPath, ['pipeline/watch.mjs', '--no-mock', '--no-docs'], { cwd: distDir, stdio: ['ignore', 'pipe', 'pipe'] });
    dev.stdout!.on('data', (c) => (devOutput += c));
    dev.stderr!.on('data', (c) => (devOutput += c));
    await waitFor(/dev  watch/, 0, 60_000, read);
  }, 90_000);

  afterAll(async () => {
    await stop(dev);
    await removeDist?.();
  }, 30_000);

  it('keeps dist/ current: the compiled declarations follow the spec', async () => {
    const path = join(distDir, SHIPMENT_SCHEMA);
    const text = (await readFile(path, 'utf8')).replace(
      /  code:\n    type: string\n    description: [^\n]*/,
      '  code:\n    type: string\n    description: Short code, for dist.',
    );
    expect(text).toContain('Short code, for dist.');
    const from = devOutput.length;
    await renameOver(path, text);
    await waitFor(/dev  done .*businesscentral@v1\.0/, from, 20_000, read);
    expect(await readFile(join(distDir, SHIPMENT_TYPES), 'utf8')).toContain('Short code, for dist.');
    // dist/ is compiled after the types line; wait for a compile that contains the edit.
    await waitFor(/dev  dist .*-> dist\//, from, 25_000, read);
    // dev is idle only once dist/ is written: its `idle` line comes after the `dist` line.
    const burst = await waitFor(/dev {2}dist [^\n]*-> dist\/[\s\S]*dev {2}idle /, from, 25_000, read);
    expect(burst.slice(burst.lastIndexOf('dev  dist ')).match(/^dev {2}idle /gm)).toHaveLength(1);
    expect(burst.slice(burst.lastIndexOf('dev  done '), burst.lastIndexOf('dev  dist '))).not.toMatch(/^dev {2}idle /m);
    let dist = '';
    for (let tries = 0; tries < 100; tries++) {
      // dist/ is swapped in whole (two renames, lib/files.mjs): a read between them
      // finds no file (seen on Node 26), so that read counts as not yet.
      dist = await readFile(join(distDir, SHIPMENT_DIST), 'utf8').catch(() => '');
      if (dist.includes('Short code, for dist.')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(dist).toContain('Short code, for dist.');
  });

  // Two saves back to back (an editor's format-on-save, "save all"): the second lands once the
  // first's types are written, while its dist/ compile (about a second) runs. The second's
  // cycle does not wait for that compile: it is stopped, and one compile, after the second's
  // types, makes dist/.
  it('lets a newer save overtake the cycle before it: its types come before any compile, and one compile follows', { timeout: 60_000 }, async () => {
    const path = join(distDir, SHIPMENT_SCHEMA);
    const save = async (description: string) => {
      const text = (await readFile(path, 'utf8')).replace(/(  code:\n    type: string\n    description: )[^\n]*/, `$1${description}`);
      expect(text).toContain(description);
      await renameOver(path, text);
    };
    await waitFor(/dev {2}idle [^\n]*\n$/, 0, 25_000, read); // the case before has ended
    const from = devOutput.length;
    await save('Short code, first of a burst.');
    await waitFor(/dev {2}types /, from, 20_000, read);
    await save('Short code, second of a burst.');
    const burst = await waitFor(/dev {2}dist [^\n]*-> dist\/[\s\S]*dev {2}idle /, from, 30_000, read);
    const secondSaved = burst.indexOf('dev  saved ', burst.indexOf('dev  types '));
    expect(secondSaved, burst).toBeGreaterThan(0);
    const secondTypes = burst.indexOf('dev  types ', secondSaved);
    expect(secondTypes, burst).toBeGreaterThan(secondSaved);
    // No compile ended before the second save's types: the first one did not hold them back ...
    expect(burst.slice(0, secondTypes)).not.toMatch(/^dev {2}dist /m);
    // ... and it was stopped, not finished: one compile in the burst, of the second save.
    expect(burst.match(/^dev {2}dist /gm), burst).toHaveLength(1);
    expect(await readFile(join(distDir, SHIPMENT_TYPES), 'utf8')).toContain('Short code, second of a burst.');
    expect(await readFile(join(distDir, SHIPMENT_DIST), 'utf8')).toContain('Short code, second of a burst.');
  });
});
