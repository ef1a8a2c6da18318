#!/usr/bin/env node
// `npm run build:package` (and `prepare`, so that `npm install git+…` gets a built
// package): compiles src/ and generated/ into dist/ (ES modules) and dist/cjs/
// (CommonJS), swapped in whole. No lint, no generation: generated/ is committed.
import { resolve } from 'node:path';
import { CompileFailed, createCompiler } from './compile-dist.mjs';
import { seconds } from '../lib/run.mjs';

const start = performance.now();
try {
  const { files } = await createCompiler({ root: resolve(import.meta.dirname, '..') })();
  console.log(`compile  ${files} files -> dist/  ${seconds(start)}`);
} catch (error) {
  if (!(error instanceof CompileFailed)) throw error;
  console.error(`${error.message}\ncompile  FAILED`);
  process.exitCode = 1;
}
