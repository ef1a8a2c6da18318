// TypeScript 7's `tsc` (the `typescript-7` dev dependency, an alias of typescript@7): the
// native binary of its platform package, found the way the package's own launcher finds it
// (lib/getExePath.js: @typescript/typescript-<platform>-<arch>/lib/tsc). Run directly, not
// through that launcher: on Node 20 the launcher is a second process in between, which a
// kill of ours would not reach and whose crash would read as a compile error. Where the
// platform package is not found, the launcher (bin/tsc) is used.
// Used by the dist/ compile (lib/compile.mjs) and the tests' TypeScript 7 checks
// (test/helpers/tsc7.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './apis.mjs';

let found;

/** `{ file, args }` to start TypeScript 7's tsc with (append tsc's own arguments); throws when not installed. */
export function tsc7Command() {
  if (found) return found;
  let manifest;
  try {
    manifest = createRequire(join(ROOT, 'package.json')).resolve('typescript-7/package.json');
  } catch {
    throw new Error('TypeScript 7 (the `typescript-7` dev dependency) is not installed. Run `npm ci`.');
  }
  try {
    const platform = createRequire(manifest).resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`);
    const exe = join(dirname(platform), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
    if (existsSync(exe)) return (found = { file: exe, args: [] });
  } catch {
    // no platform package: the launcher says what is missing
  }
  return (found = { file: process.execPath, args: [join(dirname(manifest), 'bin/tsc')] });
}
