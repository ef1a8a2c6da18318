// The walk that lists specs/ (and every other folder the scripts and tests list) never
// enters a symlinked folder, on every Node line: Node's recursive readdirSync follows them
// on Node 22+ and not on 20, and the promise form follows them everywhere, so a folder
// that links to its ancestor was walked ~40 levels deep (lib/walk.mjs).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, walk } from '../../lib/walk.mjs';

const base = mkdtempSync(join(tmpdir(), 'symlink-walk-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** d/a/file.txt, d/a/loop -> d (absolute), d/a/up -> .. (relative), d/out -> a folder outside d. */
function tree(): string {
  const d = join(base, `d-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(d, 'a'), { recursive: true });
  writeFileSync(join(d, 'a', 'file.txt'), 'x');
  symlinkSync(d, join(d, 'a', 'loop'));
  symlinkSync('..', join(d, 'a', 'up'));
  const outside = join(base, `outside-${Math.random().toString(36).slice(2)}`);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'never listed');
  symlinkSync(outside, join(d, 'out'));
  return d;
}

describe('walk', () => {
  it('lists a symlinked folder as a link and never enters it (a loop is met once)', () => {
    const d = tree();
    const start = performance.now();
    const entries = walk(d);
    expect(performance.now() - start).toBeLessThan(1000);
    const listed = entries.map((e) => `${relative(d, join(e.parentPath, e.name))} ${e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'dir' : 'file'}`).sort();
    expect(listed).toEqual(['a dir', 'a/file.txt file', 'a/loop link', 'a/up link', 'out link']);
  });

  it('filesUnder gives the real files only, none through a link', () => {
    const d = tree();
    expect(filesUnder(d).map((f: string) => relative(d, f))).toEqual(['a/file.txt']);
  });

  it('filesUnder of an absent folder is empty; walk of one throws', () => {
    expect(filesUnder(join(base, 'absent'))).toEqual([]);
    expect(() => walk(join(base, 'absent'))).toThrow(/ENOENT/);
  });
});
