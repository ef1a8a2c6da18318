// Where the build may read and write: specs/ in, generated/ out, judged on the real
// path (symlinks resolved) as well as the written one. No dependencies: the packaged mock
// loads it (through lib/apis.mjs).
import { realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The folders of hand-written workspace code besides src/ (docs/architecture.md): what a copy of the workspace needs to build. */
export const CODE_ROOMS = ['lib', 'model', 'rules', 'mock', 'changes', 'contract', 'site', 'pipeline'];
/** What a copy of the workspace needs to build (the tests' and benchmarks' copies; node_modules is linked). */
export const BUILD_ENTRIES = [
  'specs',
  ...CODE_ROOMS,
  'generated',
  'src',
  'redocly.yaml',
  '.spectral.yaml',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** True when `path` is `dir` or inside it. */
export const isInside = (path, dir) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** The real path of the specs/ of the workspace at `root`, by root (it is asked once per $ref). */
const specsReal = new Map();
export const realSpecs = (root) => {
  if (!specsReal.has(root)) specsReal.set(root, realOf(join(root, 'specs')) ?? join(root, 'specs'));
  return specsReal.get(root);
};

/** Where `path` really is (symlinks resolved), or undefined if it does not exist. */
export function realOf(path) {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why reading `path` would leave the specs/ of the workspace at `root` (lexically or
 * through a symlink), or undefined. A path that does not exist is left to the linters to
 * report as unresolved.
 */
export function outsideSpecs(root, path) {
  if (!isInside(path, join(root, 'specs'))) return `resolves to ${shown(root, path)}, outside specs/`;
  const real = realOf(path);
  if (real !== undefined && !isInside(real, realSpecs(root))) return `resolves through a symlink to ${shown(root, real)}, outside specs/`;
  return undefined;
}

/** `path` relative to `root` when inside it, else as it is. */
export const shown = (root, path) => {
  const r = relative(root, path);
  return r.startsWith('..') ? path : r;
};

/** Where the build may write: `path` inside the generated/ of the workspace at `root` (lexically and through symlinks). */
export function outsideGenerated(root, path) {
  const generated = join(root, 'generated');
  if (!isInside(path, generated)) return `resolves to ${shown(root, path)}, outside generated/`;
  // The nearest existing folder decides where a write really lands.
  let existing = path;
  while (!realOf(existing) && existing !== dirname(existing)) existing = dirname(existing);
  const real = realOf(existing);
  const generatedReal = realOf(generated) ?? join(realOf(root) ?? root, 'generated');
  // (A symlink as the output file itself is harmless: outputs are renamed over, not written through.)
  if (real && !isInside(real, generatedReal) && !isInside(generatedReal, real)) return `resolves through a symlink to ${shown(root, real)}, outside generated/`;
  return undefined;
}
