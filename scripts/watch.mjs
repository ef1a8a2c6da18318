#!/usr/bin/env node
// `npm run dev [-- --port <n>] [-- --no-mock] [-- --no-docs]`: watches specs/ and, on a
// change, re-lints only the affected documents, re-bundles them, regenerates their types
// and docs page, and makes the running mock serve the new version. One warm process:
// the linters' engines, openapi-typescript and Prism stay loaded between changes.
//
// A broken edit prints its lint problems (file:line:col) and changes nothing in
// generated/: types, docs and the mock keep the last good version until the edit is fixed.
import { watch } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/apis.mjs';
import { createPipeline, formatFinding } from './lib/pipeline.mjs';
import { writeManifest } from './manifest.mjs';
import { generateAll } from './generate.mjs';
import { lintAll } from './lint.mjs';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    mock: { type: 'boolean', default: true },
    'no-mock': { type: 'boolean', default: false },
    docs: { type: 'boolean', default: true },
    'no-docs': { type: 'boolean', default: false },
  },
});
const withMock = options.mock && !options['no-mock'];
const withDocs = options.docs && !options['no-docs'];

const SPECS = join(ROOT, 'specs');
const ms = (start) => `${Math.round(performance.now() - start)} ms`;
const log = (step, text, start) => console.log(`dev  ${step.padEnd(8)} ${text}${start === undefined ? '' : `  ${ms(start)}`}`);

const pipeline = await createPipeline();
const docs = withDocs ? await import('./docs.mjs') : undefined;

// file -> the APIs whose bundle read it; rebuilt from each successful bundle.
const dependents = new Map();
function recordDependencies(api, files) {
  for (const [file, apis] of dependents) if (apis.delete(api) && apis.size === 0) dependents.delete(file);
  for (const file of files) {
    if (!dependents.has(file)) dependents.set(file, new Set());
    dependents.get(file).add(api);
  }
}

/** The APIs a changed file affects: those that read it, else those whose folder holds it. */
function affectedBy(file) {
  const known = dependents.get(file);
  if (known?.size) return [...known];
  if (file.startsWith(join(SPECS, 'common') + sep)) return pipeline.apis; // not yet referenced: be safe
  return pipeline.apis.filter((api) => file.startsWith(api.specDir + sep));
}

// --- first full pass -----------------------------------------------------------------
let start = performance.now();
const firstFindings = await lintAll(pipeline);
for (const f of firstFindings) console.error(formatFinding(f));
log('lint', firstFindings.length ? `${firstFindings.length} problem(s); fix them and save` : `${pipeline.apis.length} documents clean`, start);
start = performance.now();
const { results } = await generateAll(pipeline).catch((error) => {
  console.error(`dev  generate FAILED  ${error.message}`);
  return { results: [] };
});
for (const { api, files } of results) recordDependencies(api, files);
log('generate', `${results.length} bundles + types`, start);
if (docs) {
  start = performance.now();
  await docs.buildDocs(pipeline.apis);
  log('docs', `${pipeline.apis.length} pages`, start);
}
const mock = withMock ? await (await import('./mock/index.mjs')).startMock({ port: Number(options.port) }) : undefined;
if (mock) log('mock', `serving ${mock.routes.length} operations at ${mock.url}`);
log('watch', `watching ${relative(ROOT, SPECS)}/ (Ctrl-C to stop)`);

// --- change cycles ---------------------------------------------------------------------
let pending = new Set();
let timer;
let running = Promise.resolve();

async function cycle(files) {
  const apis = [...new Set(files.flatMap(affectedBy))];
  if (apis.length === 0) return;
  const names = apis.map((a) => a.name).join(', ');
  const total = performance.now();
  let t = performance.now();
  const findings = await lintAll(pipeline, apis);
  if (findings.length) {
    for (const f of findings) console.error(formatFinding(f));
    log('lint', `${names}: ${findings.length} problem(s); generated/, docs and mock keep the last good version`, t);
    return;
  }
  log('lint', `${names} clean`, t);

  t = performance.now();
  let bundled;
  try {
    bundled = await Promise.all(apis.map(async (api) => ({ api, ...(await pipeline.bundle(api)) })));
  } catch (error) {
    log('bundle', `FAILED ${error.message}; outputs unchanged`, t);
    return;
  }
  for (const { api, files: read } of bundled) recordDependencies(api, read);
  log('bundle', `${names}`, t);

  t = performance.now();
  await Promise.all(bundled.map(({ api, document }) => pipeline.types(api, document)));
  await writeManifest(pipeline.apis);
  log('types', `${apis.map((a) => relative(ROOT, a.types)).join(', ')}`, t);

  if (mock) {
    t = performance.now();
    await mock.reload();
    log('mock', `reloaded ${mock.routes.length} operations`, t);
  }
  if (docs) {
    t = performance.now();
    await docs.buildDocs(pipeline.apis, { only: apis });
    log('docs', `${apis.map((a) => relative(ROOT, a.docs)).join(', ')}`, t);
  }
  log('done', `${names}`, total);
}

function schedule() {
  const files = [...pending];
  pending = new Set();
  running = running.then(() => cycle(files)).catch((error) => console.error(`dev  FAILED  ${error.stack ?? error}`));
}

const watcher = watch(SPECS, { recursive: true }, (_event, name) => {
  if (!name || !/\.(ya?ml|json)$/.test(name)) return;
  pending.add(join(SPECS, name));
  clearTimeout(timer);
  timer = setTimeout(schedule, 30); // editors write in bursts; one cycle per burst
});

async function stop() {
  watcher.close();
  await running;
  await mock?.close();
  process.exit(0);
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
