#!/usr/bin/env node
// Bundles every root document into one file each, at the `output` redocly.yaml gives it
// (generated/bundled/<slug>.yaml). The mock, the docs and the types read these.
import { relative, resolve } from 'node:path';
import { createPipeline } from './engines.mjs';
import { runCommand } from '../lib/findings.mjs';
import { seconds } from '../lib/run.mjs';

if (import.meta.url === `file://${process.argv[1]}`)
  process.exitCode = await runCommand('bundle', async () => {
    const start = performance.now();
    const root = resolve(import.meta.dirname, '..');
    const pipeline = await createPipeline({ root, lint: false });
    await Promise.all(pipeline.apis.map((api) => pipeline.bundle(api)));
    console.log(`bundle  ${pipeline.apis.length} documents -> ${pipeline.apis.map((a) => relative(root, a.bundle)).join(', ')}  ${seconds(start)}`);
  });
