// Outputs are never half-written: a file is written beside its target and renamed over
// it (rename is atomic on one file system), and a folder is built beside its target and
// swapped in. A reader (the mock, a test, an app through `file:`) sees the old version
// or the new one, nothing in between, even if the writer is killed mid-way.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const scratchName = (target) => `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Writes `content` to `file` through a temporary file in the same folder. */
export async function writeFileAtomic(file, content) {
  await mkdir(dirname(file), { recursive: true });
  const scratch = scratchName(file);
  try {
    await writeFile(scratch, content);
    await rename(scratch, file);
  } catch (error) {
    await rm(scratch, { force: true });
    throw error;
  }
}

/** A fresh folder beside `target`, for `swapInDir` to put in its place. */
export async function scratchDirFor(target) {
  const scratch = scratchName(target);
  await mkdir(scratch, { recursive: true });
  return scratch;
}

/**
 * Puts `scratch` where `target` is, dropping what `target` held before (files of a
 * removed document included). Between the two renames `target` is briefly absent,
 * never partial.
 */
export async function swapInDir(scratch, target) {
  const old = scratchName(`${target}.old`);
  await rename(target, old).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(scratch, target);
  await rm(old, { recursive: true, force: true });
}
