#!/usr/bin/env node
// `npm run build`: lint -> generate (bundles, types, manifest) -> compile the clients
// (dist/) -> render the docs, in one warm process. Stops at the first failing step.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/apis.mjs';
import { createPipeline, formatFinding } from './lib/pipeline.mjs';
import { runTool, seconds } from './lib/run.mjs';
import { generateAll } from './generate.mjs';
import { lintAll } from './lint.mjs';

// --no-compile / --no-docs: skip a step (the pipeline benchmark compares like with like).
const skip = new Set(process.argv.slice(2).filter((a) => a.startsWith('--no-')).map((a) => a.slice(5)));
const total = performance.now();
const step = (name, start, what) => console.log(`build  ${name.padEnd(9)} ${what}  ${seconds(start)}`);
const fail = (name, output) => {
  console.error(`build  ${name} FAILED\n${output.replace(/^/gm, '  ')}`);
  process.exit(1);
};

let start = performance.now();
const pipeline = await createPipeline();
const findings = await lintAll(pipeline);
if (findings.length) fail('lint', findings.map(formatFinding).join('\n'));
step('lint', start, `redocly + spectral clean, ${pipeline.apis.length} documents`);

start = performance.now();
try {
  const { operations } = await generateAll(pipeline);
  step('generate', start, `${pipeline.apis.length} bundles + types, ${operations.length} operations -> generated/`);
} catch (error) {
  fail('generate', error.message);
}

// The clients and the docs only read generated/, so they can be built side by side.
start = performance.now();
const compile = !skip.has('compile') && existsSync(join(ROOT, 'src/index.ts'))
  ? runTool('typescript/bin/tsc', ['-p', 'tsconfig.build.json']).then((r) => {
      if (r.code !== 0) fail('compile', r.stdout + r.stderr);
      step('compile', start, 'src/ -> dist/');
    })
  : Promise.resolve();
const docs = !skip.has('docs') && existsSync(join(ROOT, 'scripts/docs.mjs'))
  ? import('./docs.mjs').then(async ({ buildDocs }) => {
      const { pages } = await buildDocs(pipeline.apis);
      step('docs', start, `${pages.length} pages + index -> generated/docs/`);
    }).catch((error) => fail('docs', error.message))
  : Promise.resolve();
await Promise.all([compile, docs]);

console.log(`build  done in ${seconds(total)}`);
