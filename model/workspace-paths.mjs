// Where the build may read and write: specs/ in, generated/ out, judged on the real
// path (symlinks resolved) as well as the written one. No dependencies: the packaged mock
// loads it (through lib/apis.mjs).
import { realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const SPECS = join(ROOT, 'specs');
/** The folders of hand-written workspace code besides src/ (docs/architecture.md): what a copy of the workspace needs to build. */
export const CODE_ROOMS = ['lib', 'model', 'rules', 'mock', 'changes', 'contract', 'site', 'pipeline'];
export const GENERATED_DIR = join(ROOT, 'generated');

/** True when `path` is `dir` or inside it. */
export const isInside = (path, dir) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

let specsReal;
export const realSpecs = () =>
  (specsReal ??= (() => {
    try {
      return realpathSync(SPECS);
    } catch {
      return SPECS;
    }
  })());

/** Where `path` really is (symlinks resolved), or undefined if it does not exist. */
export function realOf(path) {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why reading `path` would leave specs/ (lexically or through a symlink), or undefined.
 * A path that does not exist is left to the linters to report as unresolved.
 */
export function outsideSpecs(path) {
  if (!isInside(path, SPECS)) return `resolves to ${shown(path)}, outside specs/`;
  const real = realOf(path);
  if (real !== undefined && !isInside(real, realSpecs())) return `resolves through a symlink to ${shown(real)}, outside specs/`;
  return undefined;
}

export const shown = (path) => {
  const r = relative(ROOT, path);
  return r.startsWith('..') ? path : r;
};

/** Where the build may write: `path` inside generated/ (lexically and through symlinks). */
export function outsideGenerated(path) {
  if (!isInside(path, GENERATED_DIR)) return `resolves to ${shown(path)}, outside generated/`;
  // The nearest existing folder decides where a write really lands.
  let existing = path;
  while (!realOf(existing) && existing !== dirname(existing)) existing = dirname(existing);
  const real = realOf(existing);
  const generatedReal = realOf(GENERATED_DIR) ?? join(realOf(ROOT) ?? ROOT, 'generated');
  // (A symlink as the output file itself is harmless: outputs are renamed over, not written through.)
  if (real && !isInside(real, generatedReal) && !isInside(generatedReal, real)) return `resolves through a symlink to ${shown(real)}, outside generated/`;
  return undefined;
}
