#!/usr/bin/env node
// Generates TypeScript types (openapi-typescript, programmatic API) from each bundled
// document in generated/bundled/. `npm run generate` runs this after bundling.
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { createPipeline } from './engines.mjs';
import { runCommand } from '../lib/findings.mjs';
import { seconds } from '../lib/run.mjs';

if (import.meta.url === `file://${process.argv[1]}`)
  process.exitCode = await runCommand('types', async () => {
    const start = performance.now();
    const root = resolve(import.meta.dirname, '..');
    const pipeline = await createPipeline({ root, lint: false });
    const files = await Promise.all(pipeline.apis.map(async (api) => pipeline.types(api, parse(await readFile(api.bundle, 'utf8')))));
    console.log(`types  ${files.length} files -> ${files.map((file) => relative(root, file)).join(', ')}  ${seconds(start)}`);
  });
