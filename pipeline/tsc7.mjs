// TypeScript 7's `tsc` (the `typescript-7` dev dependency, an alias of typescript@7): the
// native binary of its platform package, found the way the package's own launcher finds it
// (lib/getExePath.js: @typescript/typescript-<platform>-<arch>/lib/tsc). Run directly, not
// through that launcher: on Node 20 the launcher is a second process in between, which a
// kill of ours would not reach and whose crash would read as a compile error. Where the
// platform package is not found, the launcher (bin/tsc) is used.
// Used by the dist/ compile (pipeline/compile-dist.mjs) and the tests' TypeScript 7 checks
// (test/helpers/tsc7.ts).
// PROVIDER_API_TSC7, when set, names the command run instead (a `.mjs`/`.js` file runs on
// this Node): a wrapper such as a compiler cache, or another build of TypeScript 7 to try.
// It is given tsc's arguments and must behave as tsc does (exit code, report, files). The
// test suite uses it to share native compiles between the Node lines of one CI run
// (test/helpers/shared-tsc.mjs).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let found;

/**
 * `{ file, args }` to start the installed TypeScript 7's tsc with (append tsc's own
 * arguments), resolved as this module's imports are; throws when not installed.
 * @returns {{ file: string, args: string[] }}
 */
export function installedTsc7() {
  if (found) return found;
  let manifest;
  try {
    manifest = createRequire(import.meta.url).resolve('typescript-7/package.json');
  } catch {
    throw new Error('TypeScript 7 (the `typescript-7` dev dependency) is not installed. Run `npm ci`.');
  }
  try {
    const platform = createRequire(manifest).resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`);
    const exe = join(dirname(platform), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
    if (existsSync(exe)) found = { file: exe, args: [] };
  } catch {
    // no platform package: the launcher says what is missing
  }
  found ??= { file: process.execPath, args: [join(dirname(manifest), 'bin/tsc')] };
  return found;
}

/**
 * The command to run: PROVIDER_API_TSC7's when set, else the installed compiler's.
 * @returns {{ file: string, args: string[] }}
 */
function tsc7Command() {
  const command = process.env.PROVIDER_API_TSC7;
  if (!command) return installedTsc7();
  return /\.[cm]?js$/.test(command) ? { file: process.execPath, args: [command] } : { file: command, args: [] };
}

/**
 * Runs TypeScript 7's tsc with `args` (plus `--pretty false`) in `cwd`, stopped (SIGTERM)
 * when `signal` aborts. Resolves to
 * `{ code, signal, report }`: the exit code (null when it did not exit on its own or could
 * not start), the signal that stopped it, and what it printed (stdout then stderr,
 * trimmed). Rejects only when TypeScript 7 is not installed.
 */
export function runTsc7(args, { cwd, signal }) {
  const { file, args: prefix } = tsc7Command();
  return new Promise((resolve) => {
    const child = execFile(file, [...prefix, ...args, '--pretty', 'false'], { cwd, signal, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const report = `${stdout}${stderr}`.trim();
      if (!error) return resolve({ code: 0, signal: null, report });
      const settle = () =>
        resolve({
          code: typeof error.code === 'number' ? error.code : null,
          signal: error.signal ?? child.signalCode ?? null,
          report: report || `tsc could not run (${error.code ?? error.message})`,
        });
      // Stopped by `signal`: Node calls back as soon as tsc is sent SIGTERM, while it may
      // still be writing; wait until it is gone, so nothing it writes lands after the
      // caller has removed its output folder (or the workspace).
      if (error.name === 'AbortError' && child.exitCode === null && child.signalCode === null) child.once('exit', settle);
      else settle();
    });
  });
}
