// The build's steps, each a function of the workspace it is given, and the sequence they
// run in: lint -> generate (bundles, types, manifest) -> docs, with the dist/ compile
// beside the docs. `npm run build` runs the sequence once (`buildHere`, in its own process
// or on the build server); `npm run dev` (watch.mjs) runs the same steps on each save,
// with the mock and the change report between them.
// Incremental: the cache (cache.mjs, incremental.mjs) says which documents changed since
// the last build (by the content of every file they read, the tool versions and the
// configs); only those are linted, bundled and typed, and the manifest, dist/ and the docs
// are redone only when what they read changed. With nothing changed, no linter, bundler or
// compiler is even loaded.
// dist/ is compiled into a fresh folder and swapped in, so it holds only what the current
// sources produce (nothing of a removed document) and is never half-written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadApis } from '../model/apis.mjs';
import { hashFiles } from './cache.mjs';
import { runCommand } from '../lib/findings.mjs';
import { distCurrent, manifestCurrent, planDocuments, recordDocument, recordManifest, startDistRecord } from './incremental.mjs';
import { seconds } from '../lib/run.mjs';
import { writeFileAtomic } from '../lib/files.mjs';
import { DOCUMENTS_IN_FLIGHT, mapLimit } from '../lib/pool.mjs';

/**
 * @typedef {ReturnType<typeof loadApis>[number]} Api
 * @typedef {{ root: string, apis: Api[] }} Workspace the workspace a step works on: its root and the documents redocly.yaml lists
 * @typedef {Awaited<ReturnType<typeof import('./engines.mjs').createPipeline>>} Pipeline
 * @typedef {{ api: Api, document: any, text: string, files: string[], before: Record<string, string> | undefined, types: string }} Made one document's bundle and types, made in memory
 */

/** At most this many documents are bundled and typed in memory while they are linted. */
const MADE_DURING_LINT = 8;

/**
 * One document's bundle (text, document, the files it read and, with `hash`, their hashes
 * right after bundling) and its types, in memory: nothing is written.
 * @param {Pipeline} pipeline
 * @param {Api} api
 * @param {boolean} hash
 * @returns {Promise<Made>}
 */
function makeDocument(pipeline, api, hash) {
  const made = pipeline.bundled(api).then(async (result) => {
    const before = hash ? await hashFiles(result.files, pipeline.root) : undefined;
    return { api, ...result, before, types: await pipeline.typesText(api, result.document) };
  });
  made.catch(() => {}); // reported when it is awaited
  return made;
}

/**
 * The lint step: `apis` linted (each by the path items its edit reached, `edits`, by API
 * name: slice.mjs), and meanwhile a few of them bundled and typed in memory (Spectral lints
 * in its own thread, so the main thread would otherwise wait; many documents, a cold
 * build, are made after lint, a few at a time, for memory). Resolves to the findings and
 * `made(api)`, each document's bundle and types (nothing is written before lint is clean).
 * `hash`: note what each document's files hashed right after its bundle, so that its
 * record is dropped if one changes before it is written (the build; `npm run dev`, which
 * has its types to print first, records without).
 * @param {Pipeline} pipeline
 * @param {Api[]} apis
 * @param {Map<string, any>} edits
 * @param {{ hash?: boolean }} [options]
 */
export async function lintStep(pipeline, apis, edits, { hash = true } = {}) {
  const { lintAll } = await import('./lint.mjs');
  const linted = lintAll(pipeline, apis, edits);
  const early = apis.length <= MADE_DURING_LINT ? new Map(apis.map((api) => [api, makeDocument(pipeline, api, hash)])) : undefined;
  const findings = await linted;
  return { findings, made: (/** @type {Api} */ api) => early?.get(api) ?? makeDocument(pipeline, api, hash) };
}

/**
 * The generate step for one document: its bundle and types written, then, unless `record`
 * is false (`npm run dev` records once its types line is out), recorded in the build cache
 * of the workspace at `root` (unless a file it read changed meanwhile).
 * @param {string} root
 * @param {Made} made
 * @param {{ record?: boolean }} [options]
 * @returns {Promise<Made>}
 */
export async function writeDocument(root, made, { record = true } = {}) {
  const { api, text, files, before, document } = made;
  await writeFileAtomic(api.bundle, text);
  await writeFileAtomic(api.types, made.types);
  if (record) await recordDocument(root, api, files, before, document);
  return made;
}

/**
 * The docs step: the pages of `only` (all by default) and the landing page.
 * @param {Workspace} ws
 * @param {Api[]} [only]
 */
export async function docsStep(ws, only = ws.apis) {
  const { buildDocs } = await import('./docs.mjs');
  return buildDocs(ws.root, ws.apis, { only });
}

/**
 * The compile step: src/ and generated/ -> dist/ (compile-dist.mjs), unless the build cache
 * says dist/ is what they compile to (`force`: compile anyway). Resolves to the files
 * written, or undefined when dist/ was current.
 * @param {Workspace} ws
 * @param {{ compile?: (options?: { signal?: AbortSignal }) => Promise<{ files: number }>, signal?: AbortSignal, force?: boolean }} [options]
 *   compile: a compiler made once (watch.mjs); signal: stops the compile (a newer save)
 */
export async function compileStep(ws, { compile, signal, force = false } = {}) {
  if (!force && (await distCurrent(ws.root))) return undefined;
  const record = await startDistRecord(ws.root);
  const { files } = await (compile ?? (await import('./compile-dist.mjs')).createCompiler({ root: ws.root }))({ signal });
  await record.record();
  return files;
}

/** A failed step: its output, indented under one headline, and exit code 1. */
class StepFailed extends Error {}
/** @returns {never} */
const fail = (/** @type {string} */ name, /** @type {string} */ output) => {
  throw new StepFailed(`${output.trim()}\nbuild  ${name} FAILED`);
};
const step = (/** @type {string} */ name, /** @type {number} */ start, /** @type {string} */ what) =>
  console.log(`build  ${name.padEnd(9)} ${what}  ${seconds(start)}`);
/** `; <api>: 2 of 120 path items (the edit's)` for the documents linted by the path items an edit reached. */
const sliced = (/** @type {Pipeline} */ pipeline, /** @type {Api[]} */ apis) =>
  apis
    .map((api) => [api.name, pipeline.lintScopes.get(api.name)])
    .filter(([, scope]) => scope?.keys)
    .map(([name, scope]) => `; ${name}: ${scope.keys.length} of ${scope.total} path items (the edit's)`)
    .join('');
const why = (/** @type {{ [reason: string]: number }} */ reasons) =>
  Object.entries(reasons)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');

/**
 * The build: the sequence once, for the documents the cache says changed. Stops at the
 * first failing step.
 * @param {Workspace} ws
 * @param {Set<string>} skip the steps to skip: 'compile', 'docs'
 */
async function build(ws, skip) {
  const total = performance.now();
  let start = performance.now();
  const { apis } = ws;
  // Started now, awaited by the docs step: a first extraction runs beside lint.
  const runtime = skip.has('docs') ? undefined : import('./docs-runtime.mjs').then((m) => m.redocRuntime(ws.root));
  runtime?.catch(() => {}); // reported by the docs step
  const { stale, reasons, edits } = await planDocuments(ws.root, apis);
  const n = apis.length;

  if (stale.length) {
    // The engines are loaded only when there is something for them to do.
    const { createPipeline, formatFinding } = await import('./engines.mjs');
    const checks = await import('./check-cache.mjs');
    const [pipeline] = await Promise.all([createPipeline({ root: ws.root, apis }), checks.loadChecks(ws.root)]);
    // Its ruleset is dropped from Spectral's thread when the build ends (a build server runs
    // many builds in one process).
    try {
      const { findings, made } = await lintStep(pipeline, stale, edits);
      if (findings.length) fail('lint', findings.map(formatFinding).join('\n'));
      step(
        'lint',
        start,
        (stale.length === n
          ? `redocly + spectral clean, ${n} documents`
          : `redocly + spectral clean, ${stale.length} of ${n} documents (${why(reasons)}; the rest unchanged)`) + sliced(pipeline, stale),
      );

      start = performance.now();
      const read = await mapLimit(
        stale,
        DOCUMENTS_IN_FLIGHT,
        async (api) => (await writeDocument(ws.root, await made(api).catch((error) => fail('generate', error.message)))).files,
      );
      await checks.saveChecks(ws.root, read.flat());
    } finally {
      await pipeline.close();
    }
  } else {
    step('lint', start, `${n} documents unchanged since the last build (cache)`);
    start = performance.now();
  }
  if (stale.length || !(await manifestCurrent(ws.root, apis))) {
    const { writeManifest } = await import('./manifest.mjs');
    const operations = await writeManifest(ws.root, apis).catch((error) => fail('generate', error.message));
    await recordManifest(ws.root, apis);
    // The gaps table of specs/README.md, from the x-source-gap records of the specs.
    const { writeGaps } = await import('./gaps.mjs');
    await writeGaps(ws.root).catch((error) => fail('generate', error.message));
    step('generate', start, `${stale.length} of ${n} bundles + types, ${operations.length} operations -> generated/`);
  } else {
    step('generate', start, `${n} bundles + types unchanged`);
  }

  // The clients and the docs only read generated/: the compile (TypeScript 7 in its own
  // processes, compile-dist.mjs) starts first and runs beside the docs on this process.
  const compileStart = performance.now();
  const compile =
    !skip.has('compile') && existsSync(join(ws.root, 'src/index.ts'))
      ? compileStep(ws).then((files) => () => step('compile', compileStart, files === undefined ? 'dist/ unchanged' : 'src/ -> dist/'))
      : Promise.resolve(() => {});
  compile.catch(() => {}); // reported below, after the docs
  if (runtime) {
    try {
      start = performance.now();
      await runtime.catch((error) => fail('docs', error.message));
      const { pages } = await docsStep(ws).catch((error) => fail('docs', error.message));
      step('docs', start, `${pages.length} of ${n} pages rendered (the rest unchanged) + index -> generated/docs/`);
    } catch (error) {
      // The compile runs on: a failed build ends when it does, never beside the next one.
      await compile.catch(() => {});
      throw error;
    }
  }
  (await compile.catch((error) => fail('compile', error.message)))();
  console.log(`build  done in ${seconds(total)}`);
}

/** The steps a build can skip (`--no-compile`, `--no-docs`). */
export const STEP_FLAGS = ['--no-compile', '--no-docs'];

/**
 * One build in this process of the workspace at `root` (its documents as redocly.yaml
 * lists them now): returns its exit code (0, or 1 with the failing step's output
 * printed). --no-compile / --no-docs skip a step (the pipeline benchmark compares like with
 * like). The build server (build-server/server.mjs) runs this for its clients.
 * @param {string} root
 * @param {string[]} [args]
 * @returns {Promise<number>}
 */
export function buildHere(root, args = []) {
  const skip = new Set(args.filter((a) => STEP_FLAGS.includes(a)).map((a) => a.slice(5)));
  return runCommand('build', async () => {
    try {
      await build({ root, apis: loadApis(root) }, skip); // a broken redocly.yaml is reported as the command's problem
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      console.error(error.message);
      return 1;
    }
  });
}
