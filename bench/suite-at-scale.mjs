#!/usr/bin/env node
// `npm test` on a generated N-document workspace (default 100), to see that no test is
// sized by the number of documents in a way that turns into time-outs. Builds the copy,
// runs the whole suite there (every project, contract included), prints the failures, the
// summary, the wall time and the load average seen during the run.
//
// With --wide <sets>, the workspace is instead as wide as the real services: v2.0 holds that
// many entity sets more (bench/lib/workspace-wide.mjs, the tests' own generator; 60 sets:
// about 300 operations), issue 34's "npm test at width".
//
// Usage: node bench/suite-at-scale.mjs [N] [--wide SETS] [--out FILE] [--keep] [--dir DIR] [vitest args]
//   --out FILE  write vitest's whole output to FILE (the console gets the failures only)
//   --keep      leave the workspace in place and print its path (to re-run single tests)
//   --dir DIR   re-use a workspace left by --keep (no copy, no build); implies --keep
//   anything else goes to `vitest run`, e.g. --project unit, or a test file's path
import { spawn, spawnSync } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from './lib/workspace-copy.mjs';
import { workspaceOfN } from './lib/workspace-n.mjs';

const args = process.argv.slice(2);
const n = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 100;
let out;
let keep = false;
let dir;
let wide = 0;
const extra = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = resolve(args[++i]);
  else if (args[i] === '--keep') keep = true;
  else if (args[i] === '--dir') dir = resolve(args[++i]);
  else if (args[i] === '--wide') wide = Number(args[++i]);
  else extra.push(args[i]);
}
if (dir) keep = true; // --dir implies --keep

// What the tests read besides what a benchmark copy holds: the tests and their config, the
// CommonJS build's config (without it the build skips dist/cjs/), the package's README, the
// docs (test/deps/architecture.test.ts reads the rooms from docs/architecture.md).
const FOR_TESTS = ['test', 'bench', 'vitest.config.ts', 'tsconfig.cjs.json', 'README.md', 'docs', '.npmrc', '.nvmrc'];

const loads = [];
const sampler = setInterval(() => loads.push(loadavg()[0]), 5000);
const loadLine = () => {
  if (!loads.length) return 'load average: not sampled';
  const sorted = [...loads].sort((a, b) => a - b);
  return `load average (1 min, every 5 s, n=${loads.length}): min ${sorted[0].toFixed(2)}, median ${sorted[sorted.length >> 1].toFixed(2)}, max ${sorted.at(-1).toFixed(2)}`;
};

const label = wide ? `${wide} more entity sets in v2.0` : `N=${n}`;
const copy = dir
  ? { dir, remove: async () => {} }
  : wide
    ? await (await import('./lib/workspace-wide.mjs')).wideWorkspace(wide, `suite-wide${wide}-`)
    : await workspaceOfN(n, `suite-n${n}-`);
try {
  if (!dir) {
    for (const entry of FOR_TESTS) await cp(join(ROOT, entry), join(copy.dir, entry), { recursive: true });
    const start = performance.now();
    const build = spawnSync(process.execPath, ['pipeline/build.mjs', '--no-server'], { cwd: copy.dir, encoding: 'utf8' });
    console.log(`${build.stdout}${build.stderr}build of ${label}: exit ${build.status}, ${((performance.now() - start) / 1000).toFixed(1)} s`);
    if (build.status !== 0) process.exitCode = 1;
  }
  loads.length = 0;
  const start = performance.now();
  const chunks = [];
  const status = await new Promise((done) => {
    const test = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...extra], {
      cwd: copy.dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    test.stdout.on('data', (chunk) => chunks.push(chunk));
    test.stderr.on('data', (chunk) => chunks.push(chunk));
    test.on('close', done);
  });
  const wall = (performance.now() - start) / 1000;
  const text = Buffer.concat(chunks).toString('utf8');
  if (out) await writeFile(out, text);
  const lines = text.split('\n');
  console.log(
    lines
      .filter((line) => /FAIL|×|timed out|↓/.test(line))
      .slice(0, 60)
      .join('\n'),
  );
  console.log(lines.filter((line) => /Test Files|Tests |tests:|Duration/.test(line)).join('\n'));
  console.log(`npm test on ${label}: exit ${status}, ${wall.toFixed(1)} s wall; ${loadLine()}`);
  if (out) console.log(`whole output: ${out}`);
  if (status !== 0) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  if (keep) console.log(`workspace kept: ${copy.dir}`);
  else await copy.remove();
}
