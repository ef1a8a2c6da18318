#!/usr/bin/env node
// `npm run build`: lint -> generate (bundles, types, manifest) -> compile the clients
// (dist/) -> render the docs, in one warm process. Stops at the first failing step.
// Incremental: the cache (lib/cache.mjs, lib/incremental.mjs) says which documents
// changed since the last build (by the content of every file they read, the tool
// versions and the configs); only those are linted, bundled and typed, and the manifest,
// dist/ and the docs are redone only when what they read changed. With nothing changed,
// no linter, bundler or compiler is even loaded.
// dist/ is compiled into a fresh folder and swapped in, so it holds only what the current
// sources produce (nothing of a removed document) and is never half-written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadApis, ROOT } from '../model/apis.mjs';
import { hashFiles } from './cache.mjs';
import { isMain, runCommand } from '../lib/findings.mjs';
import { distCurrent, manifestCurrent, planDocuments, recordDocument, recordManifest, startDistRecord } from './incremental.mjs';
import { seconds } from '../lib/run.mjs';
import { writeFileAtomic } from '../lib/files.mjs';
import { DOCUMENTS_IN_FLIGHT, mapLimit } from '../lib/pool.mjs';

/** At most this many documents are bundled and typed in memory while lint runs. */
const MADE_DURING_LINT = 8;

/** A failed step: its output, indented under one headline, and exit code 1. */
class StepFailed extends Error {}
const fail = (name, output) => {
  throw new StepFailed(`${output.trim()}\nbuild  ${name} FAILED`);
};
const step = (name, start, what) => console.log(`build  ${name.padEnd(9)} ${what}  ${seconds(start)}`);
/** `; <api>: 2 of 120 path items (the edit's)` for the documents linted by the path items an edit reached. */
const sliced = (pipeline, apis) =>
  apis
    .map((api) => [api.name, pipeline.lintScopes.get(api.name)])
    .filter(([, scope]) => scope?.keys)
    .map(([name, scope]) => `; ${name}: ${scope.keys.length} of ${scope.total} path items (the edit's)`)
    .join('');
const why = (reasons) => Object.entries(reasons).map(([reason, n]) => `${n} ${reason}`).join(', ');

async function build(skip) {
  const total = performance.now();
  let start = performance.now();
  const apis = loadApis();
  // Started now, awaited by the docs step: a first extraction runs beside lint.
  const runtime = skip.has('docs') ? undefined : import('./docs-runtime.mjs').then((m) => m.redocRuntime());
  runtime?.catch(() => {}); // reported by the docs step
  const { stale, reasons, edits } = await planDocuments(apis);
  const n = apis.length;

  if (stale.length) {
    // The engines are loaded only when there is something for them to do.
    const { createPipeline, formatFinding } = await import('./engines.mjs');
    const { lintAll } = await import('./lint.mjs');
    const checks = await import('./check-cache.mjs');
    const [pipeline] = await Promise.all([createPipeline({ apis }), checks.loadChecks()]);
    // Its ruleset is dropped from Spectral's thread when the build ends (a build server runs
    // many builds in one process).
    try {
      // A document's bundle and types, made in memory (nothing written before lint is clean).
      const make = (api) => {
        const made = (async () => {
          const { document, text, files } = await pipeline.bundled(api);
          const before = await hashFiles(files);
          return { document, text, files, before, types: await pipeline.typesText(api, document) };
        })();
        made.catch(() => {}); // reported when it is awaited
        return made;
      };
      const linted = lintAll(pipeline, stale, edits);
      // A few documents (an edit, a new version) are bundled and typed while they are being
      // linted: Spectral lints in its own thread, so the main thread would otherwise wait.
      // Many documents (a cold build) are made after lint, a few at a time (memory).
      const early = stale.length <= MADE_DURING_LINT ? new Map(stale.map((api) => [api, make(api)])) : undefined;
      const findings = await linted;
      if (findings.length) fail('lint', findings.map(formatFinding).join('\n'));
      step('lint', start, (stale.length === n ? `redocly + spectral clean, ${n} documents` : `redocly + spectral clean, ${stale.length} of ${n} documents (${why(reasons)}; the rest unchanged)`) + sliced(pipeline, stale));

      start = performance.now();
      const read = await mapLimit(stale, DOCUMENTS_IN_FLIGHT, async (api) => {
        const { document, text, files, before, types } = await (early?.get(api) ?? make(api)).catch((error) => fail('generate', error.message));
        await writeFileAtomic(api.bundle, text);
        await writeFileAtomic(api.types, types);
        await recordDocument(api, files, before, document);
        return files;
      });
      await checks.saveChecks(read.flat());
    } finally {
      await pipeline.close();
    }
  } else {
    step('lint', start, `${n} documents unchanged since the last build (cache)`);
    start = performance.now();
  }
  if (stale.length || !(await manifestCurrent(apis))) {
    const { writeManifest } = await import('./manifest.mjs');
    const operations = await writeManifest(apis).catch((error) => fail('generate', error.message));
    await recordManifest(apis);
    // The gaps table of specs/README.md, from the x-source-gap records of the specs.
    const { writeGaps } = await import('./gaps.mjs');
    await writeGaps().catch((error) => fail('generate', error.message));
    step('generate', start, `${stale.length} of ${n} bundles + types, ${operations.length} operations -> generated/`);
  } else {
    step('generate', start, `${n} bundles + types unchanged`);
  }

  // The clients and the docs only read generated/: the compile (TypeScript 7 in its own
  // processes, lib/compile.mjs) starts first and runs beside the docs on this process.
  const compileStart = performance.now();
  const compile = !skip.has('compile') && existsSync(join(ROOT, 'src/index.ts'))
    ? (async () => {
        if (await distCurrent()) return () => step('compile', compileStart, 'dist/ unchanged');
        const { createCompiler } = await import('./compile-dist.mjs');
        const record = await startDistRecord();
        await createCompiler()();
        await record.record();
        return () => step('compile', compileStart, 'src/ -> dist/');
      })()
    : Promise.resolve(() => {});
  compile.catch(() => {}); // reported below, after the docs
  if (!skip.has('docs')) {
    try {
      const { buildDocs } = await import('./docs.mjs');
      start = performance.now();
      await runtime.catch((error) => fail('docs', error.message));
      const { pages } = await buildDocs(apis).catch((error) => fail('docs', error.message));
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

/** The steps a build can skip; with --no-server and --stop-server, every option it knows. */
export const STEP_FLAGS = ['--no-compile', '--no-docs'];
const FLAGS = [...STEP_FLAGS, '--no-server', '--stop-server'];

/**
 * One build in this process: returns its exit code (0, or 1 with the failing step's output
 * printed). --no-compile / --no-docs skip a step (the pipeline benchmark compares like with
 * like). The build server (build-server/server.mjs) runs this for its clients.
 */
export function buildHere(args = []) {
  const skip = new Set(args.filter((a) => STEP_FLAGS.includes(a)).map((a) => a.slice(5)));
  return runCommand('build', async () => {
    try {
      await build(skip);
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      console.error(error.message);
      return 1;
    }
  });
}

/**
 * The command: the build on this workspace's build server (build-server/: started for the
 * first build, warm for the next ones), or in this process when no server can take it.
 * `--no-server` (or PROVIDER_API_BUILD_SERVER=off) builds here and starts none;
 * `--stop-server` stops it.
 */
export async function main(args = process.argv.slice(2)) {
  const { buildOnServer, stopServer } = await import('./build-server/client.mjs');
  const { serverWanted } = await import('./build-server/address.mjs');
  const unknown = args.filter((a) => !FLAGS.includes(a));
  if (unknown.length) {
    console.error(`build  unknown option ${unknown.join(' ')} (known: ${FLAGS.join(', ')})`);
    return 2;
  }
  if (args.includes('--stop-server')) {
    console.log((await stopServer()) ? 'build  the build server stopped' : 'build  no build server runs for this workspace');
    return 0;
  }
  const wanted = serverWanted(args);
  const local = args.filter((a) => a !== '--no-server');
  if (wanted) {
    const code = await buildOnServer(local);
    if (code !== undefined) return code;
  }
  return buildHere(local);
}

if (isMain(import.meta.url)) process.exitCode = await main();
