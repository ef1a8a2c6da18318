// Every entry under a folder, never through a symlinked folder, the same on every Node line.
//
// Node's own recursive listing differs between lines (checked on 20.20, 22.23, 24.21, 26.10):
//   - fs.readdirSync(dir, { recursive: true }) does NOT follow symlinked folders on Node 20
//     but DOES on Node 22, 24 and 26;
//   - fs.promises.readdir(dir, { recursive: true }) follows them on every line.
// A folder that links to its own ancestor is then walked about 40 levels deep (until the
// path is too long), and a link out of the folder lists files that are not in it. So the
// workspace never asks Node to recurse: this reads one level at a time with `withFileTypes`
// (whose Dirents come from the directory entry itself, lstat-like: a symlink is reported as
// a symlink on every line) and descends only into real folders. Symlinks are returned as
// entries, so a caller can judge them (pipeline/trust.mjs), but never entered: without
// entering a link there is no loop, and the walk reads each real folder once.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every entry under `dir` (files, folders, symlinks; not `dir` itself), as fs.Dirent with
 * `parentPath` set, folder before its contents. Symlinked folders are listed, not entered.
 * A folder that cannot be read (vanished, no permission) is skipped; `dir` itself unreadable
 * throws, as readdirSync does.
 */
export function walk(dir) {
  const found = [];
  const pending = [dir];
  let first = true;
  while (pending.length) {
    const folder = pending.pop();
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if (first) throw error;
      continue;
    }
    first = false;
    // Reversed onto the stack so folders are read in the order readdir gave them.
    const folders = [];
    for (const entry of entries) {
      // Node 20.12+ sets parentPath; older 20.x only `path` (engines is >=20.19: kept for safety).
      entry.parentPath ??= folder;
      found.push(entry);
      if (entry.isDirectory()) folders.push(join(folder, entry.name));
    }
    for (let i = folders.length - 1; i >= 0; i--) pending.push(folders[i]);
  }
  return found;
}

/** The paths of the regular files under `dir` (symlinks not followed), sorted. [] when `dir` is absent. */
export function filesUnder(dir, keep = () => true) {
  let entries;
  try {
    entries = walk(dir);
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(keep)
    .sort();
}
