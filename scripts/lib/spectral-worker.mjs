// Spectral in a worker thread, so the two linters use both cores: Redocly lints (and the
// build bundles and types) on the main thread while Spectral, the heavier of the two
// (about two thirds of a document's lint time), works here.
//
// One thread per process, shared by every pipeline of it: loading Spectral in a new
// thread costs about a second, re-reading a ruleset in a warm one a twentieth of that.
// Each pipeline loads its ruleset afresh (a saved .spectral.yaml or house function in
// `npm run dev`, a test's broken copy) and lints with that one. The thread is unref'd
// while idle, so a CLI that has finished exits, and stays for the process's next pipeline.
import * as fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { finding, InputError } from './findings.mjs';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/** The shared thread, while any pipeline holds a ruleset in it. */
let shared;

function startThread() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { spectralWorker: true } });
  const waiting = new Map(); // message id -> { resolve, reject }
  const thread = { worker, waiting, nextId: 0 };
  const failAll = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    if (shared === thread) shared = undefined; // the next pipeline starts a new thread
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
 * Loads the ruleset at `rulesetPath` into the process's Spectral thread (starting it if
 * need be). Resolves once loaded (a broken ruleset rejects with an InputError naming it)
 * to `{ lint(root) -> findings, close() }`.
 */
export async function startSpectralWorker(rulesetPath) {
  const thread = (shared ??= startThread());
  const answer = await ask(thread, { type: 'load', rulesetPath });
  if (answer.findings) throw new InputError(answer.findings);
  const { ruleset } = answer;
  return {
    lint: (root, text) => ask(thread, { type: 'lint', ruleset, root, text }).then((message) => message.findings),
    /** Forgets this ruleset; the thread stays (idle, unref'd) for the next pipeline. */
    close: async () => thread.worker.postMessage({ type: 'drop', ruleset }),
  };
}

if (!isMainThread && workerData?.spectralWorker) {
  const { default: spectralCore } = await import('@stoplight/spectral-core');
  const { default: spectralParsers } = await import('@stoplight/spectral-parsers'); // CommonJS: named ESM imports are undefined
  const { bundleAndLoadRuleset } = await import('@stoplight/spectral-ruleset-bundler/with-loader');
  const { Resolver } = await import('@stoplight/spectral-ref-resolver');
  const { guardedFileRead } = await import('./trust.mjs');
  const { FirstChainCache } = await import('./spectral-ref-cache.mjs');
  const { Spectral, Document } = spectralCore;
  const noFetch = (url) => Promise.reject(new Error(`remote rulesets are not allowed (tried ${url})`));
  const rulesets = new Map(); // id -> loaded ruleset
  let nextRuleset = 0;

  async function load(rulesetPath) {
    try {
      const id = nextRuleset++;
      rulesets.set(id, await bundleAndLoadRuleset(rulesetPath, { fs, fetch: noFetch }));
      return { ruleset: id };
    } catch (error) {
      return { findings: [finding('spectral', rulesetPath, 1, 1, 'error', 'ruleset', error.message.split('\n')[0])] };
    }
  }

  async function lint(ruleset, root, text) {
    // A fresh Spectral (and so a fresh $ref resolver cache) per run: in watch mode the
    // referenced files change between runs. The ruleset itself is reused.
    // Files only, and only inside specs/ (lib/trust.mjs has refused the rest already; this
    // resolver has no http/https reader, so Spectral cannot fetch even if asked).
    // FirstChainCache: a file $ref'd any number of times resolves every time (the default
    // cache stops after about 100 uses: lib/spectral-ref-cache.mjs says why).
    const resolver = new Resolver({ uriCache: new FirstChainCache(), resolvers: { file: { resolve: guardedFileRead } } });
    const spectral = new Spectral({ resolver });
    spectral.setRuleset(rulesets.get(ruleset));
    const results = await spectral.run(new Document(text ?? (await readFile(root, 'utf8')), spectralParsers.Yaml, root));
    return {
      findings: results.map((r) =>
        finding('spectral', r.source ?? root, r.range.start.line + 1, r.range.start.character + 1, SEVERITY[r.severity], String(r.code), r.message),
      ),
    };
  }

  parentPort.on('message', async ({ id, type, ruleset, rulesetPath, root, text }) => {
    if (type === 'drop') return void rulesets.delete(ruleset);
    try {
      parentPort.postMessage({ id, ...(type === 'load' ? await load(rulesetPath) : await lint(ruleset, root, text)) });
    } catch (error) {
      parentPort.postMessage({ id, error: error?.message ?? String(error) });
    }
  });
}
