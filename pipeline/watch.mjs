#!/usr/bin/env node
// `npm run dev [-- --port <n>] [-- --no-mock] [-- --no-docs] [-- --no-dist]`: watches specs/ (and the
// lint configs) and, on a change, runs the build's steps (runner.mjs) for the affected
// documents only: lint, bundle, types, then the running mock serves the new version, their
// docs pages are rendered, and dist/ is recompiled. One warm process: the linters' engines,
// openapi-typescript and Prism stay loaded between changes (dist/ is compiled by TypeScript
// 7's own process, pipeline/compile-dist.mjs, which needs no warming).
//
// A newer save overtakes a cycle: once its types are written, a cycle that sees a newer save
// waiting leaves its later steps (mock reload, docs pages, change report) to the next
// cycle, which does them for its own documents and these, and a dist/ compile under way is
// stopped and made again once the saves stop. So a save's types never wait for the work of
// the save before it.
//
// A broken edit prints its problems (file:line:col) and changes nothing in generated/:
// types, docs, dist/ and the mock keep the last good version until the edit is fixed.
//
// The watcher is chokidar, not fs.watch: Node 20's recursive fs.watch loses a file once
// an editor saves it by writing a new file and renaming it over the old one (Vim,
// JetBrains "safe write", `sed -i`). chokidar re-attaches after such a rename and sees
// deletes, re-creates and files in new folders. "watching" is printed only once its
// initial scan is done, so no save after that line is lost.
import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import chokidar from 'chokidar';
import { forgetWorkspaceKey, workspaceKeyOf } from './cache.mjs';
import { createCompiler } from './compile-dist.mjs';
import { formatFinding, InputError } from '../lib/findings.mjs';
import { distCurrent, documentsReading, planDocuments, readDocumentEdit, readDocumentInputs, recordDocument } from './incremental.mjs';
import { createPipeline } from './engines.mjs';
import { isInside } from '../model/workspace-paths.mjs';
import { changeSummary, summaryLines } from '../changes/index.mjs';
import { operationsOf, writeManifest } from './manifest.mjs';
import { writeGaps } from './gaps.mjs';
import { compileStep, docsStep, lintStep, writeDocument } from './runner.mjs';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    mock: { type: 'boolean', default: true },
    'no-mock': { type: 'boolean', default: false },
    docs: { type: 'boolean', default: true },
    'no-docs': { type: 'boolean', default: false },
    // A session that wants types and docs only (or a test that does not read dist/): no
    // TypeScript 7 compile after each save. dist/ stays as it was: `npm run build` brings it up to date.
    'no-dist': { type: 'boolean', default: false },
  },
});
const withMock = options.mock && !options['no-mock'];
const withDocs = options.docs && !options['no-docs'];

// The workspace dev works on: the checkout this command belongs to.
const root = resolve(import.meta.dirname, '..');
const SPECS = join(root, 'specs');
const CONFIGS = ['redocly.yaml', '.spectral.yaml'].map((file) => join(root, file));
// The house rules' functions, which .spectral.yaml loads: a saved one is read again with the
// ruleset (Spectral's thread bundles it afresh), as a saved .spectral.yaml is.
const RULES = join(root, 'rules');
const isConfig = (/** @type {string} */ file) => CONFIGS.includes(file) || isInside(file, RULES);
const ms = (start) => `${Math.round(performance.now() - start)} ms`;
const log = (step, text, start) => console.log(`dev  ${step.padEnd(8)} ${text}${start === undefined ? '' : `  ${ms(start)}`}`);
const problems = (/** @type {any[]} */ findings) => {
  for (const f of findings) console.error(formatFinding(f));
};

// In TypeScript 7's processes: a compile never holds back the next save's types and docs page.
const compile = createCompiler({ root });
/** @type {import('./runner.mjs').Pipeline} the engines, made from the configuration (undefined while it has never loaded) */
let pipeline = /** @type {any} */ (undefined);
/** @type {any} */
let mock;
/** The workspace the steps work on: this checkout, with the documents of the pipeline's configuration. */
const here = (apis = pipeline.apis) => ({ root, apis });

/** The APIs a changed file affects: those whose last bundle read it (the build cache says), else those whose folder holds it. */
function affectedBy(file) {
  const known = documentsReading(file, pipeline.apis);
  if (known.length) return known;
  if (file.startsWith(join(SPECS, 'common') + sep)) return pipeline.apis; // not yet referenced: be safe
  return pipeline.apis.filter((api) => file.startsWith(api.specDir + sep) || file === api.root);
}

// What dev has to do: the saves of a burst (pending, until `timer` fires), the cycles
// queued or running (one after another, on `running`), the late checks after them
// (noticeLateChanges) and the dist/ compile (`compiling`). Declared before any of it runs:
// the first cycle, before the watch starts, already compiles.
/** @type {Set<string>} */
let pending = new Set();
/** @type {NodeJS.Timeout | undefined} */
let timer;
/** @type {Promise<void>} */
let running = Promise.resolve();
let cycles = 0;
let lateChecks = 0;
/** @type {Promise<void> | undefined} */
let compiling;
/** @type {AbortController | undefined} */
let stopCompile;
let distWanted = false; // types were written since the running (or last) compile started
let watching = false; // set with the `dev  watch` line: no `idle` before it
let stopping = false; // Ctrl-C or SIGTERM: no compile starts, the one under way is stopped

/** A newer save waits: in its burst, or its cycle queued behind the running one. */
const newerSave = () => pending.size > 0 || cycles > 1;
/** @type {Promise<void> | undefined} resolves at the next save heard (changed()) */
let saveHeard;
let onSave = () => {};
function nextSave() {
  saveHeard ??= new Promise((resolve) => {
    onSave = () => {
      saveHeard = undefined;
      resolve();
    };
  });
  return saveHeard;
}
/** @type {Promise<unknown>} the later step under way (mock, docs…): one at a time; a newer save's lint and types do not wait for it */
let laterStep = Promise.resolve();
let laterSteps = 0; // under way or queued

// `dev  idle` ends every burst of work: no cycle queued or running, no save waiting out its
// burst, no late check to come, no later step or dist/ compile under way. Until the next save, nothing
// more is printed or written, so a script (or the watch test) that waits for this line
// after its save reads outputs that are final.
function announceIdle() {
  if (watching && cycles === 0 && lateChecks === 0 && laterSteps === 0 && pending.size === 0 && timer === undefined && !compiling)
    log('idle', 'waiting for saves');
}

// dist/ follows the generated types. Compiles are serialised and run after the cycle has
// printed its types line, so they never delay fresh types; a newer save stops the one under
// way (schedule()), and one compile follows once the saves stop.
function compileDist() {
  if (options['no-dist']) return Promise.resolve();
  distWanted = true;
  if (!compiling && !newerSave()) startCompile();
  return compiling ?? Promise.resolve();
}
function startCompile() {
  if (stopping) return;
  distWanted = false;
  const start = performance.now();
  const abort = new AbortController();
  stopCompile = abort;
  compiling = compileStep(here(), { compile, signal: abort.signal, force: true })
    .then((files) => log('dist', `${files} files -> dist/`, start))
    .catch((error) => {
      if (abort.signal.aborted) {
        distWanted = true; // made again after the newer save
        return;
      }
      console.error(error.message);
      log('dist', 'FAILED; dist/ keeps the last good build', start);
    })
    .finally(() => {
      compiling = undefined;
      stopCompile = undefined;
      if (cycles === 0 && distWanted && !newerSave()) startCompile();
      announceIdle();
    });
}

// Documents whose last cycle did not end clean (lint problems, a bundle that failed): a
// later save of a config or of a specs/common/ file retries them, since what fixes them
// may be there (another entry that claimed their root, a shared file they never got to
// read), not in their own folder.
const unfinished = new Set();

// api name -> its operations (as the manifest lists them) at the last manifest write.
const knownOperations = new Map();
async function operationsChanged(bundled) {
  let changed = false;
  for (const { api, document } of bundled) {
    const now = JSON.stringify(await operationsOf(api, document));
    if (knownOperations.get(api.name) !== now) changed = true;
    knownOperations.set(api.name, now);
  }
  return changed;
}

// The steps after the types, and the documents (by name) each still owes: a cycle that a
// newer save overtakes leaves its documents here, for the next cycle that gets that far.
const LATER = {
  // The gaps table of specs/README.md follows the x-source-gap records (not the types'); it
  // reads every spec file that may hold one.
  gaps: () => writeGaps(root),
  mock: async () => {
    const t = performance.now();
    await mock.reload(pipeline.apis).then(
      () => log('mock', `reloaded ${mock.routes.length} operations`, t),
      (error) => log('mock', `reload FAILED (${error.message}); still serving the previous documents`, t),
    );
  },
  docs: async (apis, first) => {
    const t = performance.now();
    await docsStep(here(), apis).then(
      () => log('docs', first ? `${apis.length} pages` : apis.map((a) => relative(root, a.docs)).join(', '), t),
      (error) => log('docs', `FAILED ${error.message}`, t),
    );
  },
  changes: async (apis) => printChanges(apis),
};
/** @type {Record<keyof typeof LATER, Set<string>>} */
const owed = { gaps: new Set(), mock: new Set(), docs: new Set(), changes: new Set() };

/**
 * The steps after the types for `apis` and for what earlier cycles owe, one after another;
 * false when a newer save overtook them: the step under way when it came finishes on its
 * own, the rest stays owed.
 */
async function later(apis, { first = false } = {}) {
  const steps = /** @type {const} */ (['gaps', ...(mock ? ['mock'] : []), ...(withDocs ? ['docs'] : []), ...(first ? [] : ['changes'])]);
  for (const step of steps) for (const api of apis) owed[step].add(api.name);
  for (const step of steps) {
    if (newerSave()) return false;
    const due = pipeline.apis.filter((api) => owed[step].has(api.name));
    owed[step].clear();
    if (!due.length) continue;
    laterSteps++;
    laterStep = laterStep
      .then(() => LATER[step](due, first))
      .catch((error) => log(step, `FAILED ${error.message}`))
      .finally(() => {
        laterSteps--;
        announceIdle();
      });
    if (!(await Promise.race([laterStep.then(() => true), nextSave().then(() => false)]))) return false;
  }
  return true;
}

/** Lint -> bundle -> types -> manifest, then dist/ and the later steps (mock, docs, changes), for some APIs. */
async function cycle(apis, { first = false } = {}) {
  if (apis.length === 0) return;
  const names = first ? `${apis.length} documents` : apis.map((a) => a.name).join(', ');
  const total = performance.now();
  // What each document offered before this save, from its bundle as it still is on disk
  // (one file per document, not the N the manifest reads), so the manifest is rewritten
  // only when the operations really changed.
  if (!first) {
    await Promise.all(
      apis
        .filter((api) => !knownOperations.has(api.name))
        .map(async (api) => knownOperations.set(api.name, JSON.stringify(await operationsOf(api).catch(() => null)))),
    );
  }
  let t = performance.now();
  // Each document is linted by the path items the edit reached since its last clean lint
  // (lib/slice.mjs, from the build cache's entry), and meanwhile bundled and typed in
  // memory (Spectral lints in its own thread): nothing is written unless lint is clean.
  const edits = new Map();
  await Promise.all(apis.map(async (api) => edits.set(api.name, await readDocumentEdit(root, api))));
  const { findings, made } = await lintStep(pipeline, apis, edits, { hash: false });
  for (const api of apis) unfinished[findings.length ? 'add' : 'delete'](api.name);
  if (findings.length) {
    problems(findings);
    log('lint', `${names}: ${findings.length} problem(s); generated/, docs, dist/ and mock keep the last good version`, t);
    // A change report is wanted most while an edit is in progress (and is not owed again).
    for (const api of apis) owed.changes.delete(api.name);
    if (!first) return printChanges(apis);
  } else {
    log('lint', `${names} clean`, t);
  }

  t = performance.now();
  const bundled = [];
  // Bundles and types are written before any line: the types line follows at once.
  const written = async (api) => writeDocument(root, await made(api), { record: false });
  for (const result of await Promise.allSettled(apis.map(written))) {
    if (result.status === 'fulfilled') bundled.push(result.value);
    else if (result.reason instanceof InputError) problems(result.reason.findings);
    else console.error(`dev  bundle FAILED  ${result.reason.message}`);
  }
  for (const api of apis) if (!bundled.some((b) => b.api === api)) unfinished.add(api.name);
  if (bundled.length === 0) return log('bundle', 'nothing bundled; outputs unchanged', t);
  log('bundle', first ? `${bundled.length} documents` : bundled.map((b) => b.api.name).join(', '), t);

  t = performance.now();
  // The manifest reads every bundle: rewritten only when the operations changed.
  if ((await operationsChanged(bundled)) || first) await writeManifest(root, pipeline.apis);
  log('types', first ? `${bundled.length} files` : bundled.map(({ api }) => relative(root, api.types)).join(', '), t);
  const dist = compileDist();
  // The build cache learns what was just made, so `npm run build` does not redo it.
  if (!findings.length) await Promise.all(bundled.map(({ api, files, document }) => recordDocument(root, api, files, undefined, document)));
  const finished = await later(
    bundled.map((b) => b.api),
    { first },
  );
  if (first) await dist;
  if (!finished) return log('overtaken', `${names}: a newer save came; its cycle does the gaps table, mock, docs and change report for these too`, total);
  log('done', names, total);
}

/**
 * Documents gone from redocly.yaml: the manifest is rewritten (which deletes their bundles
 * and types), the mock stops serving them, the docs drop their pages from the landing page
 * and the disk, dist/ follows. No document is linted again for it.
 */
async function dropRemoved(names) {
  await laterStep; // an overtaken cycle's page or table is written before the removal's
  const t = performance.now();
  for (const name of names) {
    knownOperations.delete(name);
    unfinished.delete(name);
  }
  // The documents built so far: an entry added in the same save is not yet (its cycle,
  // right after this, adds it to the manifest, the mock and the docs once it is clean).
  const built = pipeline.apis.filter((api) => existsSync(api.bundle));
  await writeManifest(root, built);
  await writeGaps(root);
  if (mock) await mock.reload(built).catch((error) => log('mock', `reload FAILED (${error.message}); still serving the previous documents`));
  if (withDocs) await docsStep(here(built)).catch((error) => log('docs', `FAILED ${error.message}`));
  compileDist();
  log('removed', `${names.join(', ')}: dropped from generated/, the mock and the docs`, t);
  // What the removal does to clients: version-removed / api-removed, one line per operation lost.
  printChanges([], names);
}

/**
 * What the saved edit does to clients, against HEAD (npm run changes, for these documents;
 * `removed`: the redocly.yaml entries the save removed).
 * @param {any[]} apis
 * @param {string[]} [removed]
 */
function printChanges(apis, removed = []) {
  const t = performance.now();
  try {
    const lines = summaryLines(changeSummary({ root, apis, base: 'HEAD', removed: /** @type {never[]} changes/index.mjs declares none */ (removed) }));
    for (const line of lines.slice(0, -1)) console.log(`dev  change   ${line}`);
    log('changes', lines.at(-1) ?? 'none against HEAD', t);
  } catch (error) {
    // Outside a git checkout (or without git) there is nothing to compare with.
    log('changes', `not compared: ${error.message.split('\n')[0]}`, t);
  }
}

/** The workspace key (lib/cache.mjs) of the configuration the pipeline was made from. */
let pipelineKey;

/** (Re)reads redocly.yaml and .spectral.yaml; a broken config keeps the previous pipeline. */
async function loadPipeline() {
  // Entries recorded from now on are made under this configuration: stamped with its key.
  forgetWorkspaceKey(root);
  try {
    const previous = pipeline;
    pipeline = await createPipeline({ root });
    pipelineKey = workspaceKeyOf(root);
    await previous?.close();
    return true;
  } catch (error) {
    // Refused: dev goes on with the previous pipeline, so it records under that one's key
    // (a later build then sees the saved config as a change and lints everything with it).
    forgetWorkspaceKey(root, pipelineKey);
    if (!(error instanceof InputError)) throw error;
    problems(error.findings);
    log('config', pipeline ? 'broken; keeping the previous configuration' : 'broken; fix it and save');
    return false;
  }
}

// --- first pass: what changed since the last build ----------------------------------------
// Documents the build cache knows as current are not redone; their file lists come from
// the cache. The rest go through a full cycle; pages and dist/ are made only if missing
// or out of date.
async function firstPass() {
  const { current, stale } = await planDocuments(root, pipeline.apis);
  for (const api of current) await readDocumentInputs(root, api);
  if (current.length) log('cache', `${current.length} of ${pipeline.apis.length} documents unchanged since the last build`);
  await cycle(stale, { first: true });
  if (withDocs && stale.length < pipeline.apis.length) {
    const t = performance.now();
    const { pages } = await docsStep(here());
    log('docs', `${pages.length} pages brought up to date`, t);
  }
  if (!stale.length && !(await distCurrent(root))) await compileDist();
  return { redone: stale.length > 0 };
}
/**
 * When the first pass had nothing to redo, the engines have not run in this process yet:
 * one document is linted, bundled and typed in memory (nothing written), so the first
 * save is as quick as the later ones.
 */
async function warmUp() {
  const t = performance.now();
  // One document of each family: their rules and schemas take different paths through the
  // engines. Its largest one (by its bundle's size) is bundled, typed and linted by slice:
  // the first save of a document of 300 operations otherwise pays for compiling the
  // engines' code on it (about half a second); the smallest is linted whole.
  const size = (api) => statSync(api.bundle, { throwIfNoEntry: false })?.size ?? 0;
  const families = new Map(); // Map.groupBy is Node 21+
  for (const api of pipeline.apis) families.set(api.family, [...(families.get(api.family) ?? []), api]);
  for (const apis of families.values()) {
    const bySize = [...apis].sort((a, b) => size(a) - size(b));
    try {
      await pipeline.lint(bySize[0]);
      const largest = bySize.at(-1);
      await pipeline.typesText(largest, (await pipeline.bundled(largest)).document);
      // And its lint by slice, as a save is linted: one path item's file taken as edited.
      const edit = await readDocumentEdit(root, largest);
      const pathFile = (await readDocumentInputs(root, largest)).find((file) => file.includes(`${sep}paths${sep}`));
      if (edit?.operations && pathFile) await pipeline.lint(largest, { ...edit, changed: [pathFile] });
    } catch {
      // a broken document is reported when it is saved
    }
  }
  // What each document offers now (read from its bundle), which a save compares with to
  // know whether the manifest must be rewritten: read here, not in the first save's cycle.
  for (const api of pipeline.apis) {
    if (!knownOperations.has(api.name)) knownOperations.set(api.name, JSON.stringify(await operationsOf(api).catch(() => null)));
  }
  log('warm', 'linters, bundler and type generator loaded', t);
}

let warming;
// The file checks the last build kept (lib/check-cache.mjs): the first save of a document
// the first pass did not redo re-checks the saved file, not all 700 of a wide document.
await (await import('./check-cache.mjs')).loadChecks(root);
if (await loadPipeline()) {
  const { redone } = await firstPass();
  if (!redone && pipeline.apis.length) warming = warmUp();
}
if (withMock && pipeline) {
  try {
    mock = await (await import('../mock/index.mjs')).startMock({ root, port: Number(options.port), apis: pipeline.apis });
    log('mock', `serving ${mock.routes.length} operations at ${mock.url}`);
  } catch (error) {
    log('mock', `not started: ${error.message}`);
  }
}

// --- change cycles -----------------------------------------------------------------------

async function onChanges(files) {
  if (files.some(isConfig)) {
    log('config', 'changed; reloading the list of APIs and the rulesets');
    const before = pipeline && { key: pipelineKey, entries: new Map(pipeline.apis.map((api) => [api.name, api.configKey])) };
    if (!(await loadPipeline())) return;
    // Only redocly.yaml's list of documents changed (the settings every document reads did
    // not): as the build does (lib/cache.mjs), the documents whose entry is new or edited
    // are redone (and those whose last cycle failed: the save may be their fix); a removed
    // one is dropped from the manifest, the mock and the docs. Any other change of the
    // configuration redoes every document.
    if (before && before.key === pipelineKey) {
      const removed = [...before.entries.keys()].filter((name) => !pipeline.apis.some((api) => api.name === name));
      const changed = pipeline.apis.filter((api) => before.entries.get(api.name) !== api.configKey || unfinished.has(api.name));
      if (removed.length) await dropRemoved(removed);
      if (!changed.length && !removed.length) return log('config', "reloaded; no document's settings changed, nothing to redo");
      return cycle(changed);
    }
    // Every document again: each records the files it reads anew.
    return cycle(pipeline.apis);
  }
  if (!pipeline) return;
  const affected = new Set(files.flatMap(affectedBy));
  if (files.some((file) => file.startsWith(join(SPECS, 'common') + sep))) for (const api of pipeline.apis) if (unfinished.has(api.name)) affected.add(api);
  return cycle(pipeline.apis.filter((api) => affected.has(api)));
}

// chokidar drops a second `change` of one path within 50 ms of the first (its throttle),
// so a quick second save would be lost. Each cycle notes what it read; shortly after, a
// file that differs from that (other inode, size or mtime) is taken as changed again.
const fingerprint = async (file) => {
  const s = await stat(file).catch(() => undefined);
  return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : 'absent';
};
const lastRead = new Map(); // file -> its fingerprint when the latest cycle started
function noticeLateChanges(files) {
  lateChecks++;
  setTimeout(async () => {
    try {
      for (const file of files) if ((await fingerprint(file)) !== lastRead.get(file)) changed(file);
    } finally {
      lateChecks--;
      announceIdle();
    }
  }, 80).unref();
}

function schedule() {
  const files = [...pending];
  pending = new Set();
  timer = undefined;
  cycles++;
  stopCompile?.abort(); // its types are stale: compiled again once the saves stop
  running = running
    .then(async () => {
      await Promise.all(files.map(async (file) => lastRead.set(file, await fingerprint(file))));
      // Which saves this cycle reads: what a cycle's later lines (its `done`) answer to. A
      // save made while another cycle runs is read by the next one, never by that one.
      log('saved', files.map((file) => relative(root, file)).join(', '));
      await onChanges(files);
      // What an overtaken cycle left, when this one did not get there (a broken edit, a config).
      if (!newerSave()) await later([]);
      noticeLateChanges(files);
    })
    .catch((error) => console.error(`dev  FAILED  ${error.stack ?? error}`))
    .finally(() => {
      cycles--;
      if (cycles === 0 && distWanted && !compiling && !newerSave()) startCompile();
      announceIdle();
    });
}

function changed(path) {
  pending.add(path);
  onSave();
  clearTimeout(timer);
  timer = setTimeout(schedule, 30); // editors write in bursts; one cycle per burst
}

// The configs are watched through their folder: a rename-over save of a watched single
// file is otherwise lost, as with fs.watch.
const watchers = [
  // followSymlinks: false: a symlink in specs/ to `/` must not have the watcher crawl the disk
  // (the build refuses such a link anyway, lib/trust.mjs).
  chokidar.watch(SPECS, { ignoreInitial: true, followSymlinks: false, ignored: (path, stats) => Boolean(stats?.isFile()) && !/\.(ya?ml|json)$/.test(path) }),
  chokidar.watch(root, { ignoreInitial: true, depth: 0, ignored: (path) => path !== root && !CONFIGS.includes(path) }),
  // The rule modules the workspace key hashes (pipeline/cache.mjs): .js and .mjs files.
  chokidar.watch(RULES, {
    ignoreInitial: true,
    followSymlinks: false,
    ignored: (path, stats) => Boolean(stats) && !stats?.isDirectory() && !/\.m?js$/.test(path),
  }),
];
for (const watcher of watchers) {
  watcher.on('all', (event, path) => {
    if (['add', 'change', 'unlink'].includes(event)) changed(path);
  });
}
await Promise.all([...watchers.map((watcher) => new Promise((resolve) => watcher.once('ready', () => resolve(undefined)))), warming]);
log('watch', `watching ${relative(root, SPECS)}/, ${relative(root, RULES)}/, redocly.yaml, .spectral.yaml (Ctrl-C to stop)`);
watching = true;

async function stop() {
  stopping = true;
  await Promise.all(watchers.map((watcher) => watcher.close()));
  // A compile's tsc is a process of its own: left running, it would outlive dev and go on
  // writing under the workspace. dist/ keeps the last good build (it is swapped in whole).
  stopCompile?.abort();
  await running;
  await laterStep;
  await compiling;
  await mock?.close();
  process.exit(0);
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
