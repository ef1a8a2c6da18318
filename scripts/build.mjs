#!/usr/bin/env node
// `npm run build`: lint -> generate (bundles, types, manifest) -> compile the clients
// (dist/) -> render the docs. Stops at the first failing step with its problems.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from './generate.mjs';
import { loadApis, ROOT } from './lib/apis.mjs';
import { runTool, seconds } from './lib/run.mjs';
import { lint } from './lint.mjs';

const total = performance.now();
const apis = loadApis();
const fail = (step, output) => {
  console.error(`build  ${step} FAILED\n${output.replace(/^/gm, '  ')}`);
  process.exit(1);
};

let start = performance.now();
const results = await lint(apis);
for (const r of results) if (!r.ok) fail(`lint (${r.tool})`, r.output);
console.log(`build  lint      redocly + spectral ok, ${apis.length} documents  ${seconds(start)}`);

try {
  await generate(apis);
} catch (error) {
  fail('generate', error.message);
}

if (existsSync(join(ROOT, 'src'))) {
  start = performance.now();
  const tsc = await runTool('typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
  if (tsc.code !== 0) fail('compile', tsc.stdout + tsc.stderr);
  console.log(`build  compile   src/ -> dist/  ${seconds(start)}`);
}

if (existsSync(join(ROOT, 'scripts/docs.mjs'))) {
  start = performance.now();
  const docs = await runTool('../scripts/docs.mjs', []);
  if (docs.code !== 0) fail('docs', docs.stdout + docs.stderr);
  console.log(`build  docs      generated/docs/  ${seconds(start)}`);
}

console.log(`build  done in ${seconds(total)}`);
