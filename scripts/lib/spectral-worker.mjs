// Spectral in a worker thread, so the two linters use both cores: Redocly lints (and the
// build bundles and types) on the main thread while Spectral, the heavier of the two
// (about two thirds of a document's lint time), works here. The ruleset is loaded once
// per worker. The worker is unref'd while idle, so a CLI that has finished exits.
import * as fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { finding, InputError } from './findings.mjs';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

/**
 * Starts the worker with the ruleset at `rulesetPath`. Resolves once the ruleset is
 * loaded (a broken ruleset rejects with an InputError naming it) to
 * `{ lint(root) -> findings, close() }`.
 */
export async function startSpectralWorker(rulesetPath) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { spectralWorker: true, rulesetPath } });
  const waiting = new Map(); // id -> { resolve, reject }
  let nextId = 0;
  let ready;
  const loaded = new Promise((resolve, reject) => (ready = { resolve, reject }));
  const failAll = (error) => {
    ready.reject(error);
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (message) => {
    if (message.type === 'ready') return ready.resolve();
    if (message.type === 'ruleset-failed') return failAll(new InputError(message.findings));
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (waiting.size === 0) worker.unref();
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message.findings);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the Spectral worker stopped (exit code ${code})`)));
  await loaded;
  worker.unref();
  return {
    lint(root) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        if (waiting.size === 0) worker.ref(); // keep the process alive while a lint is owed
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, root });
      });
    },
    close: () => worker.terminate(),
  };
}

if (!isMainThread && workerData?.spectralWorker) {
  const { default: spectralCore } = await import('@stoplight/spectral-core');
  const { default: spectralParsers } = await import('@stoplight/spectral-parsers'); // CommonJS: named ESM imports are undefined
  const { bundleAndLoadRuleset } = await import('@stoplight/spectral-ruleset-bundler/with-loader');
  const { Resolver } = await import('@stoplight/spectral-ref-resolver');
  const { guardedFileRead } = await import('./trust.mjs');
  const { Spectral, Document } = spectralCore;
  const { rulesetPath } = workerData;
  const noFetch = (url) => Promise.reject(new Error(`remote rulesets are not allowed (tried ${url})`));
  let ruleset;
  try {
    ruleset = await bundleAndLoadRuleset(rulesetPath, { fs, fetch: noFetch });
    parentPort.postMessage({ type: 'ready' });
  } catch (error) {
    parentPort.postMessage({ type: 'ruleset-failed', findings: [finding('spectral', rulesetPath, 1, 1, 'error', 'ruleset', error.message.split('\n')[0])] });
  }
  parentPort.on('message', async ({ id, root }) => {
    try {
      // A fresh Spectral (and so a fresh $ref resolver cache) per run: in watch mode the
      // referenced files change between runs. The ruleset itself is reused.
      // Files only, and only inside specs/ (lib/trust.mjs has refused the rest already; this
      // resolver has no http/https reader, so Spectral cannot fetch even if asked).
      const spectral = new Spectral({ resolver: new Resolver({ resolvers: { file: { resolve: guardedFileRead } } }) });
      spectral.setRuleset(ruleset);
      const results = await spectral.run(new Document(await readFile(root, 'utf8'), spectralParsers.Yaml, root));
      const findings = results.map((r) =>
        finding('spectral', r.source ?? root, r.range.start.line + 1, r.range.start.character + 1, SEVERITY[r.severity], String(r.code), r.message),
      );
      parentPort.postMessage({ id, findings });
    } catch (error) {
      parentPort.postMessage({ id, error: error?.message ?? String(error) });
    }
  });
}
