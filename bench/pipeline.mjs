#!/usr/bin/env node
// Pipeline speed, on a throw-away copy of the workspace:
//   cold   `npm run build` steps (lint, bundle, types, docs) in our one warm process
//          against the naive chain: each tool's CLI once per document, in sequence.
//   watch  `npm run dev`: time from saving a one-field change to fresh types / docs page.
//   scale  a synthetic document of 10, 100 and 1,000 operations through lint, bundle,
//          types and a `tsc --noEmit` of a file that uses the client.
// Usage: node bench/pipeline.mjs [cold|watch|scale]...   (default: all three)
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startDev, timeEdits } from './lib/dev-edits.mjs';
import { workspaceCopy } from './lib/workspace-copy.mjs';
import { fmtMs, fmtS, median, timed } from './lib/stats.mjs';
import { scaling } from './lib/scaling.mjs';
import { QUIET_ENV } from '../lib/run.mjs';

const run = promisify(execFile);
// Every build a process of its own (no build server, pipeline/build-server/): the figures are a new process's.
const ENV = { ...process.env, ...QUIET_ENV, PROVIDER_API_BUILD_SERVER: 'off' };
const node = (cwd, script, args = []) => run(process.execPath, [script, ...args], { cwd, env: ENV, maxBuffer: 1 << 26 });
const bin = (cwd, path) => join(cwd, 'node_modules', path);

/** Each tool's CLI run once per document, one after another: what a Makefile would do. */
async function naiveChain(dir, apis) {
  const redocly = bin(dir, '@redocly/cli/lib/index.js');
  const spectral = bin(dir, '@stoplight/spectral-cli/dist/index.js');
  const ots = bin(dir, 'openapi-typescript/bin/cli.js');
  for (const [name, root, slug] of apis) {
    await node(dir, redocly, ['lint', name]);
    await node(dir, spectral, ['lint', '--fail-severity=warn', root]);
    await node(dir, redocly, ['bundle', root, '-o', `naive/${slug}.yaml`]);
    // Its own minimal config: given the root redocly.yaml (several APIs, no x-openapi-ts
    // outputs) the CLI ignores the input argument and refuses to run.
    await node(dir, ots, [`naive/${slug}.yaml`, '-o', `naive/${slug}.ts`, '--read-write-markers', '--redocly', 'naive/redocly.yaml']);
    await node(dir, redocly, ['build-docs', `naive/${slug}.yaml`, '--inlineBundle', '-o', `naive/${slug}.html`]);
  }
}

async function cold(rounds = 3) {
  const { dir, remove } = await workspaceCopy('bench-cold-');
  try {
    const { parse } = await import('yaml');
    const config = parse(await readFile(join(dir, 'redocly.yaml'), 'utf8'));
    const apis = Object.entries(config.apis).map(([name, { root }]) => [name, root, name.replace('@', '-')]);
    await mkdir(join(dir, 'naive'), { recursive: true });
    await writeFile(join(dir, 'naive/redocly.yaml'), 'extends:\n  - minimal\n');
    const ours = [];
    const naive = [];
    for (let i = 0; i < rounds; i++) {
      // Interleaved, so machine noise hits both sides alike.
      ours.push((await timed(() => node(dir, 'pipeline/build.mjs', ['--no-compile'])))[0]);
      naive.push((await timed(() => naiveChain(dir, apis)))[0]);
    }
    const o = median(ours);
    const n = median(naive);
    return { ours: o, naive: n, ratio: n / o, rounds, documents: apis.length };
  } finally {
    await remove();
  }
}

/** Starts `npm run dev` in the copy, edits one description, times until each step reports. */
async function watchCycle(rounds = 5) {
  const { dir, remove } = await workspaceCopy('bench-watch-');
  const dev = startDev(dir, ENV);
  try {
    await dev.waitFor(/dev {2}watch/, 0, 120_000);
    const { types, docs } = await timeEdits(dev, dir, rounds, 300);
    return { types: median(types), docs: median(docs), rounds };
  } finally {
    await dev.stop();
    await remove();
  }
}

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ['cold', 'watch', 'scale'];
const date = new Date().toISOString().slice(0, 10);
console.log(`pipeline benchmark, ${date}, node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
if (wanted.includes('cold')) {
  const r = await cold();
  console.log(
    `cold build (${r.documents} documents, lint+bundle+types+docs, median of ${r.rounds}): ours ${fmtS(r.ours)}, naive CLI chain ${fmtS(r.naive)}, ratio ${r.ratio.toFixed(1)}x`,
  );
}
if (wanted.includes('watch')) {
  const r = await watchCycle();
  console.log(`watch cycle (one-field edit, median of ${r.rounds}): fresh types ${fmtMs(r.types)}, fresh docs page ${fmtMs(r.docs)}`);
}
if (wanted.includes('scale')) {
  for (const row of await scaling([10, 100, 1000])) {
    console.log(
      `scale ${String(row.operations).padStart(5)} operations: lint ${fmtMs(row.lint)}, bundle ${fmtMs(row.bundle)}, types ${fmtMs(row.types)}, tsc ${fmtMs(row.tsc)}`,
    );
  }
}
