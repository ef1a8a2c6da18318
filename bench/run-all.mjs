#!/usr/bin/env node
// `npm run bench`: every benchmark in turn, each as its own process so none warms the
// next. Prints what each measured; bench/README.md holds the latest figures.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const BENCHES = [
  ['client bundle size', 'size.mjs'],
  ['client per-call overhead', 'overhead.mjs'],
  ['mock load', 'load.mjs'],
  ['pipeline: cold build, watch cycle, scaling', 'pipeline.mjs'],
  ['scale: N = 5, 25, 100, 250 documents (issue 15)', 'scale.mjs'],
];

let failed = 0;
for (const [title, file] of BENCHES) {
  console.log(`\n== ${title} (node bench/${file})`);
  const { status } = spawnSync(process.execPath, [join(import.meta.dirname, file)], { stdio: 'inherit' });
  if (status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
