// Types for walk.mjs (plain ESM), for the tests and benchmarks that import it.
import type { Dirent } from 'node:fs';

/** Every entry under `dir`, symlinked folders listed and never entered; `parentPath` always set. */
export function walk(dir: string): Array<Dirent & { parentPath: string }>;

/** The paths of the regular files under `dir` (symlinks not followed), sorted; [] when `dir` is absent. */
export function filesUnder(dir: string, keep?: (file: string) => boolean): string[];
