// `tsc -p <dir>/<tsconfig>` of TypeScript 7 (the native compiler, which has no API), for
// type checks whose result is the errors and where they are: TypeScript 7 reports them at
// the same places as 5.9 (bench/README.md, "TypeScript 5.9 and 7"), in a third to a fifth
// of the time. One thread: the suite keeps both cores busy already, and its parallel
// checkers cost more CPU in all for projects this small. The compiler is found as the
// build finds it (scripts/lib/tsc7.mjs). Checks that need TypeScript 5.9 itself (a consumer
// on 5.9, node10 resolution, an emit to compare with) use test/helpers/typecheck.ts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error: plain ESM module without types
import { tsc7Command } from '../../scripts/lib/tsc7.mjs';

/** tsc's report ('' when clean), as `tsc -p` prints it without colour; emits unless the config says noEmit. */
export function tsc7(dir: string, tsconfig = 'tsconfig.json'): Promise<string> {
  const { file, args } = tsc7Command() as { file: string; args: string[] };
  return new Promise((resolve) => {
    execFile(file, [...args, '-p', join(dir, tsconfig), '--pretty', 'false', '--singleThreaded'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const report = `${stdout}${stderr}`.trim();
      // A failure that printed nothing (killed, not installed) must not read as clean.
      resolve(error && !report ? `tsc could not run: ${error.signal ?? error.message}` : report);
    });
  });
}
