#!/usr/bin/env node
// `npm run build`: lint -> generate (bundles, types, manifest) -> compile the clients
// (dist/) -> render the docs, in one warm process. Stops at the first failing step.
// dist/ is compiled into a fresh folder and swapped in, so it holds only what the current
// sources produce (nothing of a removed document) and is never half-written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/apis.mjs';
import { createCompiler } from './lib/compile.mjs';
import { runCommand } from './lib/findings.mjs';
import { createPipeline, formatFinding } from './lib/pipeline.mjs';
import { seconds } from './lib/run.mjs';
import { generateAll } from './generate.mjs';
import { lintAll } from './lint.mjs';

/** A failed step: its output, indented under one headline, and exit code 1. */
class StepFailed extends Error {}
const fail = (name, output) => {
  throw new StepFailed(`${output.trim()}\nbuild  ${name} FAILED`);
};
const step = (name, start, what) => console.log(`build  ${name.padEnd(9)} ${what}  ${seconds(start)}`);


async function build(skip) {
  const total = performance.now();
  let start = performance.now();
  const pipeline = await createPipeline();
  const findings = await lintAll(pipeline);
  if (findings.length) fail('lint', findings.map(formatFinding).join('\n'));
  step('lint', start, `redocly + spectral clean, ${pipeline.apis.length} documents`);

  start = performance.now();
  const { operations } = await generateAll(pipeline).catch((error) => fail('generate', error.message));
  step('generate', start, `${pipeline.apis.length} bundles + types, ${operations.length} operations -> generated/`);

  // The clients and the docs only read generated/, so they are built side by side.
  start = performance.now();
  const compile = !skip.has('compile') && existsSync(join(ROOT, 'src/index.ts'))
    ? createCompiler()()
        .catch((error) => fail('compile', error.message))
        .then(() => step('compile', start, 'src/ -> dist/'))
    : Promise.resolve();
  const docs = !skip.has('docs')
    ? import('./docs.mjs').then(async ({ buildDocs }) => {
        const { pages } = await buildDocs(pipeline.apis).catch((error) => fail('docs', error.message));
        step('docs', start, `${pages.length} pages + index -> generated/docs/`);
      })
    : Promise.resolve();
  const results = await Promise.allSettled([compile, docs]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  console.log(`build  done in ${seconds(total)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --no-compile / --no-docs: skip a step (the pipeline benchmark compares like with like).
  const skip = new Set(process.argv.slice(2).filter((a) => a.startsWith('--no-')).map((a) => a.slice(5)));
  await runCommand('build', async () => {
    try {
      await build(skip);
    } catch (error) {
      if (!(error instanceof StepFailed)) throw error;
      console.error(error.message);
      process.exitCode = 1;
    }
  });
}
