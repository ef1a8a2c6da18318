// Spectral in a worker thread, so the two linters use both cores: Redocly lints (and the
// build bundles and types) on the main thread while Spectral, the heavier of the two
// (about two thirds of a document's lint time), works here.
//
// One thread per process, shared by every pipeline of it: loading Spectral in a new
// thread costs about a second of CPU, re-reading a ruleset in a warm one a seventh of
// that. Each pipeline loads its ruleset afresh (a saved .spectral.yaml or house function
// in `npm run dev`, a test's broken copy) and lints with that one. The thread is unref'd
// while idle, so a CLI that has finished exits, and stays for the process's next pipeline.
//
// The thread knows no workspace of its own: a ruleset is loaded with the read guard of
// the workspace that asked (its lib/trust.mjs: files inside its specs/ only), and findings
// come back as Spectral gives them (absolute paths), made relative to that workspace by
// the asking module. So one process that runs the commands of several checkouts (the
// test suite runs them in-process on throw-away copies: test/helpers/in-process.ts)
// starts one thread, not one per checkout: the registry lives on globalThis, keyed by
// the thread's own code, so a checkout whose thread code differs gets a thread of its own.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { finding, InputError } from '../lib/findings.mjs';
import { readEntry, sha256, writeEntry } from './cache.mjs';

const SEVERITY = ['error', 'warning', 'info', 'hint'];
/** The build cache's entry (pipeline/cache.mjs) holding the last ruleset bundled for the workspace. */
const RULESET_ENTRY = 'spectral-ruleset';
/** What the thread runs: this file and the ref cache it imports (the guard comes per ruleset). */
const THREAD_CODE = ['./spectral-worker.mjs', './spectral-ref-cache.mjs', './spectral-ajv.mjs'].map((file) => new URL(file, import.meta.url));
/**
 * This process's threads, by their code: these files' content and the Spectral they load
 * (where it resolves, links followed). Symbol.for: one registry however many copies of
 * this module the process loads.
 */
const THREADS = Symbol.for('provider-api.spectral-threads');
globalThis[THREADS] ??= new Map();
/** @type {Map<string, any>} */
const threads = globalThis[THREADS];
let codeKey;
const threadKey = () =>
  (codeKey ??= THREAD_CODE.reduce((hash, url) => hash.update(fs.readFileSync(fileURLToPath(url))), createHash('sha256'))
    .update(import.meta.resolve('@stoplight/spectral-core'))
    .digest('hex'));

function startThread(key) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { spectralWorker: true } });
  const waiting = new Map(); // message id -> { resolve, reject }
  const thread = { worker, waiting, nextId: 0 };
  const failAll = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    if (threads.get(key) === thread) threads.delete(key); // the next pipeline starts a new thread
  };
  worker.on('message', (message) => {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (waiting.size === 0) worker.unref();
    if (message.error) pending?.reject(new Error(message.error));
    else pending?.resolve(message);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the Spectral worker stopped (exit code ${code})`)));
  worker.unref();
  threads.set(key, thread);
  return thread;
}

/** Sends one request to the thread and waits for its answer. */
function ask(thread, request) {
  return new Promise((resolve, reject) => {
    const id = thread.nextId++;
    if (thread.waiting.size === 0) thread.worker.ref(); // keep the process alive while an answer is owed
    thread.waiting.set(id, { resolve, reject });
    thread.worker.postMessage({ ...request, id });
  });
}

/**
 * Loads the .spectral.yaml of the workspace at `workspace` into the process's Spectral
 * thread (starting it if need be). Resolves once loaded (a broken ruleset rejects with an
 * InputError naming it) to `{ lint(root) -> findings, close() }`.
 */
export async function startSpectralWorker(workspace) {
  const rulesetPath = join(workspace, '.spectral.yaml');
  const key = threadKey();
  const thread = threads.get(key) ?? startThread(key);
  // This workspace's read guard: the thread reads files inside this checkout's specs/ only.
  const guard = new URL('./trust.mjs', import.meta.url).href;
  // The bundle the workspace's last process made (the thread checks that its files still read the same).
  const saved = await readEntry(workspace, RULESET_ENTRY).catch(() => ({ value: undefined }));
  const answer = await ask(thread, { type: 'load', rulesetPath, guard, workspace, saved: saved.value });
  if (answer.failed) throw new InputError([finding('spectral', rulesetPath, 1, 1, 'error', 'ruleset', answer.failed, workspace)]);
  // A cache is a help, not a duty: a workspace whose .cache/ cannot be written lints all the same.
  if (answer.bundled) await writeEntry(workspace, RULESET_ENTRY, answer.bundled).catch(() => undefined);
  const { ruleset } = answer;
  return {
    lint: (root, text) =>
      ask(thread, { type: 'lint', ruleset, root, text }).then((message) =>
        message.results.map((r) => finding('spectral', r.source ?? root, r.line, r.col, SEVERITY[r.severity], r.code, r.message, workspace)),
      ),
    /** Forgets this ruleset; the thread stays (idle, unref'd) for the next pipeline. */
    close: async () => thread.worker.postMessage({ type: 'drop', ruleset }),
  };
}

if (!isMainThread && workerData?.spectralWorker) {
  const { default: spectralCore } = await import('@stoplight/spectral-core');
  const { default: spectralParsers } = await import('@stoplight/spectral-parsers'); // CommonJS: named ESM imports are undefined
  const { Resolver } = await import('@stoplight/spectral-ref-resolver');
  const { FirstChainCache } = await import('./spectral-ref-cache.mjs');
  // One set of JSON Schema validators for every run of this thread (pipeline/spectral-ajv.mjs).
  (await import('./spectral-ajv.mjs')).shareSchemaValidators();
  const { Spectral, Document } = spectralCore;
  const noFetch = (url) => Promise.reject(new Error(`remote rulesets are not allowed (tried ${url})`));
  const rulesets = new Map(); // id -> { loaded ruleset, its reader: files inside the asking workspace's specs/ only }
  let nextRuleset = 0;

  // Bundled rulesets by what they were bundled from. Bundling .spectral.yaml (migrate it,
  // then rollup over the house functions and the model they import) is most of a load: in
  // a new process some 0.7 of 0.9 s of CPU with the import of rollup, in a warm thread 0.13
  // of 0.22 s. The code rollup gives holds no path, so it is reused for any checkout whose
  // files read the same: a bundle records the files it was made from (.spectral.yaml, and
  // every module as rollup read it, so a file saved while bundling cannot pair old code with
  // new text), by their path relative to the checkout, with their SHA-256. The thread keeps
  // the last few (a process that loads many pipelines: `npm run dev`, the test suite's
  // copies); the asking module keeps the last one in the workspace's build cache for its
  // next process (startSpectralWorker). The code is evaluated afresh per load, as the
  // bundler does, so no two pipelines share a function's state.
  /** @typedef {{ files: [file: string, sha: string][], code: string }} Bundle */
  /** @type {Bundle[]} newest first */
  const bundles = [];
  // Resolved now, loaded on first use: the checkout whose module started this thread may be
  // gone by then (a test's copy), and the resolved path is node_modules' own (links followed).
  const BUNDLER = createRequire(import.meta.url).resolve('@stoplight/spectral-ruleset-bundler/with-loader');
  const BUNDLER_DIR = dirname(BUNDLER);
  // A bundle records .spectral.yaml first, so one that records nothing (a torn or hand-made
  // cache entry) never matches. `hashes` holds this load's hash of each file, read once
  // however many bundles name it.
  const readsAsRecorded = (/** @type {Bundle} */ { files }, /** @type {string} */ workspace, hashes = new Map()) =>
    Array.isArray(files) &&
    files.length > 0 &&
    files.every((entry) => {
      try {
        const [file, recorded] = entry;
        if (!hashes.has(file)) hashes.set(file, sha256(fs.readFileSync(resolve(workspace, file), 'utf8')));
        return hashes.get(file) === recorded;
      } catch {
        return false;
      }
    });
  /** The bundler's own loader (its dist/loader/node.js): the code as a CommonJS module of the ruleset's folder. */
  function evaluate(code, rulesetPath) {
    const require = createRequire(rulesetPath);
    const paths = [dirname(rulesetPath), BUNDLER_DIR];
    const module = { exports: undefined };
    Function('module, require', code)(module, (/** @type {string} */ id) => require(require.resolve(id, { paths })));
    if (typeof module.exports !== 'object' || module.exports === null) throw new Error('No valid export found');
    return module.exports;
  }
  /**
   * The ruleset at `rulesetPath`, from a bundle that reads as recorded (`saved`, then the
   * thread's own) or bundled afresh; `bundled` is the record the workspace keeps (none when
   * it holds this one already).
   * @returns {Promise<{ ruleset: any, bundled?: Bundle }>}
   */
  async function loadRuleset(rulesetPath, workspace, /** @type {Bundle | undefined} */ saved) {
    const hashes = new Map();
    const reused = [...(typeof saved?.code === 'string' ? [saved] : []), ...bundles].find((bundle) => readsAsRecorded(bundle, workspace, hashes));
    // One of the thread's own: the workspace records it too, so that its next process (with
    // no thread yet) finds it instead of bundling again and writing a bundle of its own.
    if (reused)
      return {
        ruleset: new spectralCore.Ruleset(evaluate(reused.code, rulesetPath), { severity: 'recommended', source: rulesetPath }),
        bundled: reused === saved ? undefined : reused,
      };
    let rulesetText;
    try {
      rulesetText = fs.readFileSync(rulesetPath, 'utf8');
    } catch {
      // the bundler says it is missing
    }
    // The ruleset migrated to JavaScript: a module of the bundle that is no file.
    const migrated = join(dirname(rulesetPath), '.spectral.js');
    /** @type {Bundle | undefined} */
    let made;
    const record = {
      name: 'provider-api:record-bundle',
      generateBundle(/** @type {any} */ _options, /** @type {Record<string, any>} */ output) {
        // Packages (spectral's functions and rulesets) are not in the code: each load requires them from its own checkout.
        const modules = [...this.getModuleIds()].map((id) => this.getModuleInfo(id)).filter((info) => info && !info.isExternal && info.id !== migrated);
        if (rulesetText === undefined || !modules.every((info) => typeof info.code === 'string')) return;
        // By path: rollup lists its modules in the order their reads ended, which differs
        // from one process to the next; the record of the same files is the same record.
        const files = [[rulesetPath, rulesetText], ...modules.map((info) => [info.id, info.code]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
        made = {
          files: files.map(([file, text]) => /** @type {[string, string]} */ ([relative(workspace, file), sha256(text)])),
          code: Object.values(output)[0].code,
        };
      },
    };
    // Loaded on first use: a process whose bundle is saved never loads rollup.
    const { bundleAndLoadRuleset } = await import(pathToFileURL(BUNDLER).href);
    const ruleset = await bundleAndLoadRuleset(rulesetPath, { fs, fetch: noFetch }, [record]);
    // .spectral.yaml is read by the bundler, not rollup: kept only if it read the same throughout.
    if (!made || !readsAsRecorded({ ...made, files: made.files.slice(0, 1) }, workspace)) return { ruleset };
    bundles.unshift(made);
    bundles.length = Math.min(bundles.length, 4);
    return { ruleset, bundled: made };
  }

  async function load(rulesetPath, guard, workspace, saved) {
    const { guardedFileRead } = await import(guard);
    try {
      const id = nextRuleset++;
      const read = (/** @type {any} */ uri) => guardedFileRead(uri, workspace);
      const { ruleset, bundled } = await loadRuleset(rulesetPath, workspace, saved);
      rulesets.set(id, { ruleset, read });
      return { ruleset: id, bundled };
    } catch (error) {
      return { failed: loadFailure(error) };
    }
  }

  /**
   * What a failed load says: the error's first line; for the AggregateError Spectral throws
   * on a ruleset it refuses (its own message is empty), each finding, with its place.
   */
  function loadFailure(error) {
    const errors = Array.isArray(error?.errors) && error.errors.length ? error.errors : [error];
    const lines = errors.map((e) => `${Array.isArray(e?.path) && e.path.length ? `${e.path.join('.')}: ` : ''}${String(e?.message ?? e).split('\n')[0]}`);
    return lines.filter((line) => line.trim()).join('; ') || `the ruleset could not be loaded (${error?.name ?? 'unknown error'})`;
  }

  async function lint(id, root, text) {
    // A fresh Spectral (and so a fresh $ref resolver cache) per run: in watch mode the
    // referenced files change between runs. The ruleset itself is reused.
    // Files only, and only inside the asking workspace's specs/ (its lib/trust.mjs has
    // refused the rest already; this resolver has no http/https reader, so Spectral cannot
    // fetch even if asked).
    // FirstChainCache: a file $ref'd any number of times resolves every time (the default
    // cache stops after about 100 uses: lib/spectral-ref-cache.mjs says why).
    const { ruleset, read } = rulesets.get(id);
    const resolver = new Resolver({ uriCache: new FirstChainCache(), resolvers: { file: { resolve: read } } });
    const spectral = new Spectral({ resolver });
    spectral.setRuleset(ruleset);
    const results = await spectral.run(new Document(text ?? (await readFile(root, 'utf8')), spectralParsers.Yaml, root));
    return {
      results: results.map((r) => ({
        source: r.source,
        line: r.range.start.line + 1,
        col: r.range.start.character + 1,
        severity: r.severity,
        code: String(r.code),
        message: r.message,
      })),
    };
  }

  const port = /** @type {import('node:worker_threads').MessagePort} a worker's */ (parentPort);
  port.on('message', async ({ id, type, ruleset, rulesetPath, guard, workspace, saved, root, text }) => {
    if (type === 'drop') return void rulesets.delete(ruleset);
    try {
      port.postMessage({ id, ...(type === 'load' ? await load(rulesetPath, guard, workspace, saved) : await lint(ruleset, root, text)) });
    } catch (error) {
      port.postMessage({ id, error: error?.message ?? String(error) });
    }
  });
}
