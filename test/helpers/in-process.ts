// Runs a command of a workspace copy (`scripts/lint.mjs`, `generate.mjs`, `build.mjs`: the
// ones that export `main`) in this test process instead of a new Node process, with what
// it prints captured. The copy's own scripts are imported, so the command reads and
// writes the copy (their ROOT is where they live); node_modules is linked into the copy,
// so Redocly, Spectral, openapi-typescript and TypeScript resolve to the same files and
// are loaded once per test file, not once per run. That start-up was most of what these
// tests cost (docs/testing.md).
//
// What stays per run, as in a CLI: a new pipeline (config, Spectral worker), a new build
// plan and cache read. What a process would reset and this does not: module-level memos,
// e.g. the workspace key of lib/cache.mjs (the tool versions), computed once per process.
// A test of what happens in a new process (a new tool version, a resumed compile, a kill,
// the exit code the shell sees) starts one.
//
// Runs are queued: the output is captured by swapping the console and the process's
// stdout/stderr writers, which two runs at once would mix.
import { join } from 'node:path';
import { format } from 'node:util';
import { pathToFileURL } from 'node:url';

export interface CommandResult {
  code: number;
  output: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** `node <script> <args…>` in `dir`, in this process: the exit code and stdout + stderr. */
export function runInProcess(dir: string, script: string, ...args: string[]): Promise<CommandResult> {
  const result = queue.then(() => captured(async () => {
    const module = await import(pathToFileURL(join(dir, script)).href);
    if (typeof module.main !== 'function') throw new Error(`${script} exports no main(args)`);
    return module.main(args);
  }));
  queue = result.catch(() => undefined);
  return result;
}

async function captured(run: () => Promise<number | undefined>): Promise<CommandResult> {
  const chunks: string[] = [];
  const methods = ['log', 'error', 'warn', 'info', 'debug'] as const;
  const saved = { console: methods.map((m) => console[m]), stdout: process.stdout.write, stderr: process.stderr.write };
  for (const m of methods) console[m] = (...values: unknown[]) => void chunks.push(`${format(...values)}\n`);
  const write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  try {
    const code = await run();
    return { code: code ?? 0, output: chunks.join('') };
  } catch (error) {
    // What Node does with an uncaught error: its stack on stderr, exit code 1.
    return { code: 1, output: `${chunks.join('')}${(error as Error)?.stack ?? String(error)}\n` };
  } finally {
    methods.forEach((m, i) => (console[m] = saved.console[i]!));
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}
