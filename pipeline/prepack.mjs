#!/usr/bin/env node
// `npm pack` / `npm publish` (and a git install, which packs) run this first: dist/ is
// compiled from src/ and the committed generated/ types, so a tarball never ships without
// it. Without the dev toolchain (no `npm ci` yet) it stops with what to run, and npm makes
// no tarball.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../model/apis.mjs';

if (!existsSync(join(ROOT, 'node_modules/typescript-7'))) {
  console.error('prepack: the package is compiled before it is packed, and the toolchain is not installed here. Run `npm ci` (then `npm pack` again).');
  process.exit(1);
}
if (!existsSync(join(ROOT, 'generated/client-manifest.ts'))) {
  console.error('prepack: generated/ is missing. Run `npm run build` (then `npm pack` again).');
  process.exit(1);
}
const { createCompiler } = await import('./compile-dist.mjs');
try {
  await createCompiler()();
} catch (error) {
  console.error(`prepack: compiling dist/ failed, nothing packed:\n${error.message}`);
  process.exit(1);
}
console.log('prepack  dist/ compiled (ESM, CommonJS and types)');
