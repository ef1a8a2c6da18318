// Runs a command of a workspace copy (`pipeline/lint.mjs`, `generate.mjs`, `build.mjs`,
// `changes.mjs`: the ones that export `main`) in this test process instead of a new Node
// process, with what it prints captured. The copy's own scripts are imported, so the
// command reads and writes the copy (a main takes the checkout it lives in); node_modules is linked
// into the copy, so Redocly, Spectral, openapi-typescript and TypeScript resolve to the
// same files and are loaded once per test file, not once per run. That start-up was most of
// what these tests cost (docs/testing.md).
//
// What stays per run, as in a CLI: a new pipeline (config, Spectral worker), a new build
// plan and cache read, and a new workspace key (lib/cache.mjs: tool versions, configs,
// the pipeline's source), which a CLI computes once per process: the copy's memo of it is
// dropped before each run. What a process would reset and this does not: the other
// module-level memos (the docs renderer's key, the change report's code hash), which hash
// code that a test does not edit. A test of what happens in a new process (a kill, the
// exit code the shell sees) starts one.
//
// Runs are queued: the output is captured by swapping the console and the process's
// stdout/stderr writers, which two runs at once would mix.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { pathToFileURL } from 'node:url';

export interface CommandResult {
  code: number;
  /** stdout and stderr as they interleaved. */
  output: string;
  stdout: string;
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/** `node <script> <args…>` in `dir`, in this process: the exit code and stdout + stderr. */
export function runInProcess(dir: string, script: string, ...args: string[]): Promise<CommandResult> {
  const result = queue.then(() =>
    captured(async () => {
      const cache = join(dir, 'pipeline/cache.mjs');
      if (existsSync(cache)) (await import(pathToFileURL(cache).href)).forgetWorkspaceKey();
      const module = await import(pathToFileURL(join(dir, script)).href);
      if (typeof module.main !== 'function') throw new Error(`${script} exports no main(args)`);
      return module.main(args);
    }),
  );
  queue = result.catch(() => undefined);
  return result;
}

async function captured(run: () => Promise<number | undefined>): Promise<CommandResult> {
  const chunks: Array<{ to: 'stdout' | 'stderr'; text: string }> = [];
  const methods = { log: 'stdout', info: 'stdout', debug: 'stdout', error: 'stderr', warn: 'stderr' } as const;
  const names = Object.keys(methods) as Array<keyof typeof methods>;
  const saved = { console: names.map((m) => console[m]), stdout: process.stdout.write, stderr: process.stderr.write };
  for (const m of names) console[m] = (...values: unknown[]) => void chunks.push({ to: methods[m], text: `${format(...values)}\n` });
  const writer =
    (to: 'stdout' | 'stderr') =>
    (chunk: string | Uint8Array, ...rest: unknown[]) => {
      chunks.push({ to, text: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8') });
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  process.stdout.write = writer('stdout') as typeof process.stdout.write;
  process.stderr.write = writer('stderr') as typeof process.stderr.write;
  const result = (code: number): CommandResult => ({
    code,
    output: chunks.map((c) => c.text).join(''),
    stdout: chunks
      .filter((c) => c.to === 'stdout')
      .map((c) => c.text)
      .join(''),
    stderr: chunks
      .filter((c) => c.to === 'stderr')
      .map((c) => c.text)
      .join(''),
  });
  try {
    return result((await run()) ?? 0);
  } catch (error) {
    // What Node does with an uncaught error: its stack on stderr, exit code 1.
    chunks.push({ to: 'stderr', text: `${(error as Error)?.stack ?? String(error)}\n` });
    return result(1);
  } finally {
    for (const [i, m] of names.entries()) console[m] = saved.console[i]!;
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}
