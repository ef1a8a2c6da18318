#!/usr/bin/env node
// `npm run generate`: bundle every document, then write its types and the operations
// manifest. Everything in generated/ comes from here; nothing there is edited by hand.
import { bundle } from './bundle.mjs';
import { loadApis } from './lib/apis.mjs';
import { writeManifest } from './manifest.mjs';
import { seconds } from './lib/run.mjs';
import { generateTypes } from './types.mjs';

export async function generate(apis = loadApis()) {
  let start = performance.now();
  await bundle(apis);
  console.log(`generate  bundled   ${apis.length} documents  -> generated/bundled/  ${seconds(start)}`);
  start = performance.now();
  await Promise.all(apis.map(generateTypes));
  const operations = await writeManifest(apis);
  console.log(`generate  types     ${apis.length} files + ${operations.length} operations -> generated/types/, generated/operations.ts  ${seconds(start)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await generate();
  } catch (error) {
    console.error(`generate  FAIL  ${error.message}`);
    process.exitCode = 1;
  }
}
