#!/usr/bin/env node
// `npm run generate`: bundle every document, then write its types and the operations
// manifest. Everything in generated/ (but the docs) comes from here; nothing is edited by hand.
import { resolve } from 'node:path';
import { createPipeline } from './engines.mjs';
import { writeManifest } from './manifest.mjs';
import { writeGaps } from './gaps.mjs';
import { isMain, runCommand } from '../lib/findings.mjs';
import { seconds } from '../lib/run.mjs';

/** Bundles and types the given APIs, then rewrites the manifest from all bundles. */
export async function generateAll(pipeline, apis = pipeline.apis) {
  const results = await Promise.all(
    apis.map(async (api) => {
      const { document, files } = await pipeline.bundle(api);
      await pipeline.types(api, document);
      return { api, files };
    }),
  );
  const operations = await writeManifest(pipeline.root, pipeline.apis);
  await writeGaps(pipeline.root);
  return { results, operations };
}

/** The command: returns its exit code (0, or 1 with the findings printed). */
export const main = () =>
  runCommand('generate', async () => {
    const start = performance.now();
    const pipeline = await createPipeline({ root: resolve(import.meta.dirname, '..'), lint: false });
    const { operations } = await generateAll(pipeline);
    console.log(`generate  ${pipeline.apis.length} bundles + types, ${operations.length} operations -> generated/  ${seconds(start)}`);
  });

if (isMain(import.meta.url)) process.exitCode = await main();
