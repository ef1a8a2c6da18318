#!/usr/bin/env node
// `npm pack` / `npm publish` (and a git install, which packs) run this first: dist/ is
// compiled from src/ and the committed generated/ types, so a tarball never ships without
// it. Without the dev toolchain (no `npm ci` yet) it stops with what to run, and npm makes
// no tarball.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The package being packed: the checkout this script belongs to.
const root = resolve(import.meta.dirname, '..');
if (!existsSync(join(root, 'node_modules/typescript-7'))) {
  console.error('prepack: the package is compiled before it is packed, and the toolchain is not installed here. Run `npm ci` (then `npm pack` again).');
  process.exit(1);
}
if (!existsSync(join(root, 'generated/client-manifest.ts'))) {
  console.error('prepack: generated/ is missing. Run `npm run build` (then `npm pack` again).');
  process.exit(1);
}
const { createCompiler } = await import('./compile-dist.mjs');
try {
  await createCompiler({ root })();
} catch (error) {
  console.error(`prepack: compiling dist/ failed, nothing packed:\n${error.message}`);
  process.exit(1);
}
console.log('prepack  dist/ compiled (ESM, CommonJS and types)');
