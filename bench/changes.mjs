#!/usr/bin/env node
// Change report speed (`npm run changes`), in one warm process:
//   five      the workspace's five documents against HEAD (compareWithBase, as the CLI runs it)
//   synthetic a synthetic resource-management document of 1,000 operations against a copy
//             with 20 mutations, and the same at 10 and 100 operations (cost as it grows)
// Usage: node bench/changes.mjs [five|synthetic]...   (default: both)
// oasdiff is not run: it is not installable from the npm registry (see README, "Change report").
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { compareWithBase } from '../changes/index.mjs';
import { compareDocuments } from '../changes/compare.mjs';
import { loadDocument, worktreeSource } from '../changes/load.mjs';
import { syntheticDocument } from './lib/scaling.mjs';
import { ROOT } from './lib/workspace-copy.mjs';
import { median } from './lib/stats.mjs';

const ms = (x) => (x < 10 ? x.toFixed(1) : Math.round(x)).toString();

/**
 * @template T
 * @param {() => T} fn
 * @returns {[number, T]}
 */
function timed(fn) {
  const start = performance.now();
  const value = fn();
  return [performance.now() - start, value];
}

async function five(rounds = 20) {
  const [cold, first] = timed(() => compareWithBase({ root: ROOT, base: 'HEAD' }));
  const times = [];
  for (let i = 0; i < rounds; i++) times.push(timed(() => compareWithBase({ root: ROOT, base: 'HEAD' }))[0]);
  // A fresh process, as `npm run changes` pays it (module load included).
  const procs = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '../changes/cli.mjs')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`changes.mjs exited ${r.status}: ${r.stderr}`);
    procs.push(performance.now() - start);
  }
  return { documents: first.groups.length, changes: first.changes.length, cold, warm: median(times), process: median(procs), rounds };
}

const thingPath = (i) => `/subscriptions/{subscriptionId}/providers/Provider.Synthetic/thing${i}`;

/**
 * Twenty edits, spread over the document; 18 change what a client sees, the last two
 * (renaming a schema, splitting one into allOf parts) only how it is written and must
 * report nothing.
 * @type {Array<[string, (d: any, i: number) => unknown]>}
 */
const MUTATIONS = [
  ['response property removed', (d, i) => delete d.components.schemas[`Thing${i}`].properties.name],
  ['response property type changed', (d, i) => (d.components.schemas[`Thing${i}`].properties.count.type = 'string')],
  ['response enum value added', (d, i) => d.components.schemas[`Thing${i}`].properties.state.enum.push('Deleted')],
  [
    'new required query parameter',
    (d, i) => d.paths[thingPath(i)].get.parameters.push({ name: 'expand', in: 'query', required: true, schema: { type: 'string' } }),
  ],
  ['path removed', (d, i) => delete d.paths[thingPath(i)]],
  ['description changed', (d, i) => (d.paths[thingPath(i)].get.description = `Returns thing ${i}, fresh.`)],
  ['optional parameter added', (d, i) => d.paths[thingPath(i)].get.parameters.push({ name: '$select', in: 'query', schema: { type: 'string' } })],
  ['summary changed', (d, i) => (d.paths[thingPath(i)].get.summary = `Read thing ${i}`)],
  ['response property became nullable', (d, i) => (d.components.schemas[`Thing${i}`].properties.name.type = ['string', 'null'])],
  ['response property added', (d, i) => (d.components.schemas[`Thing${i}`].properties.color = { type: 'string' })],
  ['example changed', (d, i) => (d.paths[thingPath(i)].get.responses[200].content['application/json'].examples.Basic.value.name = 'other')],
  ['security scope added', (d, i) => (d.paths[thingPath(i)].get.security = [{ azure_auth: ['user_impersonation', 'admin'] }])],
  [
    'success status removed',
    (d, i) => {
      const r = d.paths[thingPath(i)].get.responses;
      r[201] = r[200];
      delete r[200];
    },
  ],
  [
    'response media type removed',
    (d, i) => {
      const c = d.paths[thingPath(i)].get.responses.default.content;
      c['application/problem+json'] = c['application/json'];
      delete c['application/json'];
    },
  ],
  [
    'operation added',
    (d, i) => (d.paths[`${thingPath(i)}/refresh`] = { post: { operationId: `Thing${i}_Refresh`, responses: { 202: { description: 'Accepted.' } } } }),
  ],
  ['new required header', (d, i) => d.paths[thingPath(i)].get.parameters.push({ name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } })],
  ['response type widened (integer to number)', (d, i) => (d.components.schemas[`Thing${i}`].properties.count.type = 'number')],
  ['property description added', (d, i) => (d.components.schemas[`Thing${i}`].properties.id.description = 'The id.')],
  [
    'schema renamed (no change)',
    (d, i) => {
      d.components.schemas[`Widget${i}`] = d.components.schemas[`Thing${i}`];
      delete d.components.schemas[`Thing${i}`];
      d.paths[thingPath(i)].get.responses[200].content['application/json'].schema.$ref = `#/components/schemas/Widget${i}`;
    },
  ],
  [
    'schema split into allOf (no change)',
    (d, i) => {
      const { properties, ...rest } = d.components.schemas[`Thing${i}`];
      const { id, name, ...others } = properties;
      d.components.schemas[`Thing${i}Base`] = { type: 'object', properties: { id, name } };
      d.components.schemas[`Thing${i}`] = { ...rest, allOf: [{ $ref: `#/components/schemas/Thing${i}Base` }, { properties: others }] };
    },
  ],
];

function mutated(n) {
  const doc = syntheticDocument(n);
  const step = Math.max(1, Math.floor(n / MUTATIONS.length));
  const applied = new Map();
  MUTATIONS.forEach(([name, apply], k) => {
    const i = (k * step + (n >= MUTATIONS.length ? 0 : k)) % n;
    if (!doc.paths[thingPath(i)]) return;
    try {
      apply(doc, i);
      applied.set(name, i);
    } catch {
      // An earlier mutation took away what this one edits (only at 10 operations).
    }
  });
  return { doc, applied };
}

async function synthetic(sizes = [10, 100, 1000], rounds = 7) {
  const rows = [];
  for (const n of sizes) {
    const dir = await mkdtemp(join(tmpdir(), `bench-changes-${n}-`));
    try {
      const { doc, applied } = mutated(n);
      await writeFile(join(dir, 'old.yaml'), stringify(syntheticDocument(n)));
      await writeFile(join(dir, 'new.yaml'), stringify(doc));
      const source = worktreeSource(dir);
      const loads = [];
      const compares = [];
      let changes = [];
      for (let r = 0; r < rounds + 1; r++) {
        const [load, [before, after]] = timed(() => [loadDocument(source, 'old.yaml').document, loadDocument(source, 'new.yaml').document]);
        const [compare, found] = timed(() =>
          compareDocuments(before, after, { api: 'synthetic', version: '2020-01-01', family: 'resource-manager', published: true }),
        );
        if (r === 0) continue; // warm-up
        loads.push(load);
        compares.push(compare);
        changes = found;
      }
      rows.push({ n, mutations: applied.size, load: median(loads), compare: median(compares), changes, rounds });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

const which = process.argv.slice(2);
const want = (name) => !which.length || which.includes(name);
console.log(
  `node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
if (want('five')) {
  const r = await five();
  console.log('\n| five documents against HEAD | ms |\n| --- | ---: |');
  console.log(`| first report in the process (git read of HEAD, parse, resolve, compare) | ${ms(r.cold)} |`);
  console.log(`| warm report, median of ${r.rounds} | ${ms(r.warm)} |`);
  console.log(`| \`node changes/cli.mjs\` as a process, median of 5 | ${ms(r.process)} |`);
  console.log(`(${r.documents} documents, ${r.changes} changes)`);
}
if (want('synthetic')) {
  const rows = await synthetic();
  console.log(
    '\n| operations | mutations | parse + resolve both (ms) | compare (ms) | total (ms) | changes reported |\n| ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of rows) console.log(`| ${r.n} | ${r.mutations} | ${ms(r.load)} | ${ms(r.compare)} | ${ms(r.load + r.compare)} | ${r.changes.length} |`);
  const big = rows[rows.length - 1];
  const byRule = {};
  for (const c of big.changes) byRule[`${c.level} ${c.rule}`] = (byRule[`${c.level} ${c.rule}`] ?? 0) + 1;
  console.log(`\nAt ${big.n} operations, by rule:`);
  for (const [k, v] of Object.entries(byRule).sort()) console.log(`  ${v}  ${k}`);
}
