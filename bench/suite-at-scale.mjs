#!/usr/bin/env node
// `npm test` on a generated N-document workspace (default 100), to see that no test is
// sized by the number of documents in a way that turns into time-outs. Builds the copy,
// runs the whole suite there, prints its summary and wall time.
// Usage: node bench/suite-at-scale.mjs [N] [vitest args, e.g. --project unit]
import { spawnSync } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './lib/workspace-copy.mjs';
import { workspaceOfN } from './lib/workspace-n.mjs';

const n = Number(process.argv[2] ?? 100);
const extra = process.argv.slice(3);
const copy = await workspaceOfN(n, `suite-n${n}-`);
try {
  for (const entry of ['test', 'vitest.config.ts']) await cp(join(ROOT, entry), join(copy.dir, entry), { recursive: true });
  let start = performance.now();
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy.dir, encoding: 'utf8' });
  console.log(`${build.stdout}${build.stderr}build of N=${n}: exit ${build.status}, ${((performance.now() - start) / 1000).toFixed(1)} s`);
  start = performance.now();
  const test = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...extra], { cwd: copy.dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  const out = `${test.stdout}${test.stderr}`;
  const failures = out.split('\n').filter((line) => /FAIL|×|Error:|timed out/.test(line)).slice(0, 40);
  console.log(failures.join('\n'));
  console.log(out.split('\n').filter((line) => /Test Files|Tests |tests:|Duration/.test(line)).join('\n'));
  console.log(`npm test on N=${n}: exit ${test.status}, ${((performance.now() - start) / 1000).toFixed(1)} s wall`);
} finally {
  await copy.remove();
}
