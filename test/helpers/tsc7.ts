// `tsc -p <dir>/<tsconfig>` of TypeScript 7 (the native compiler, which has no API), for
// type checks whose result is the errors and where they are: TypeScript 7 reports them at
// the same places as 5.9 (bench/README.md, "TypeScript 5.9 and 7"), in a third to a fifth
// of the time. One thread: the suite keeps both cores busy already, and its parallel
// checkers cost more CPU in all for projects this small. The compiler is found as the
// build finds it (pipeline/tsc7.mjs). Checks that need TypeScript 5.9 itself (a consumer
// on 5.9, node10 resolution, an emit to compare with) use test/helpers/typecheck.ts.
import { join } from 'node:path';
// @ts-expect-error: plain ESM module without types
import { runTsc7 } from '../../pipeline/tsc7.mjs';

/** tsc's report ('' when clean), as `tsc -p` prints it without colour; emits unless the config says noEmit. */
export async function tsc7(dir: string, tsconfig = 'tsconfig.json'): Promise<string> {
  const { code, signal, report } = (await runTsc7(['-p', join(dir, tsconfig), '--singleThreaded'], { cwd: dir })) as {
    code: number | null;
    signal: string | null;
    report: string;
  };
  // A failure that printed nothing (a signal) must not read as clean.
  return code !== 0 && !report ? `tsc stopped: ${signal ?? code}` : report;
}
