// Type-check verdicts shared between the Node lines of one CI run.
//
// `.ci/run` runs every test but the browser's on Node 20, 22, 24 and 26. A type check's
// verdict is a function of the compiler and the files it reads, not of the Node line the
// test runs on: TypeScript 7 is a native binary that Node only starts, and TypeScript 5.9's
// diagnostics do not change with the runtime that executes it. So when `.ci/run` sets
// CHECK_VERDICTS (a fresh folder, removed when the run ends), a clean verdict of a check
// whose only result is its report (noEmit) is recorded under a key made of the compiler's
// version, the options and the content of every input; the same check on the next line,
// with the same inputs byte for byte, takes the verdict instead of checking again. The
// test itself runs on every line: the package is packed, installed and run, and its
// programs and the mock are exercised there; only the compiler's answer is reused.
// A failing verdict is never recorded (it is computed again on every line), and outside
// `.ci/run` (no CHECK_VERDICTS) nothing is shared. Figures in docs/testing.md.
// The same holds for a compiler's emit that a test uses as its reference (the compile
// test's TypeScript 5.9 emit of the sources, `sharedResult`): a function of the compiler,
// its options and its inputs. The compile under test still runs on every line, and its
// output is compared there with the reference.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from '../../lib/walk.mjs';

const FOLDER = process.env.CHECK_VERDICTS;

/** A content hash of every regular file under `dir` (relative path and bytes; symlinks not followed). */
export function treeHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(dir)) hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/**
 * `check()`'s report ('' when clean), or the clean verdict recorded for the same `inputs`
 * (strings naming the compiler, its options and hashes of everything it reads, `dir`'s
 * files included) earlier in this CI run.
 */
export async function sharedVerdict(inputs: string[], dir: string, check: () => Promise<string> | string): Promise<string> {
  return sharedResult([...inputs, treeHash(dir)], check, (output) => output === '');
}

/**
 * `compute()`'s result (JSON-serialisable), or the one recorded for the same `inputs`
 * (strings naming the compiler, its options and hashes of everything it reads) earlier in
 * this CI run. Only a result `keep` accepts (a clean one) is recorded.
 */
export async function sharedResult<T>(inputs: string[], compute: () => Promise<T> | T, keep: (result: T) => boolean): Promise<T> {
  if (!FOLDER) return compute();
  const key = createHash('sha256').update(inputs.join('\0')).digest('hex');
  const record = join(FOLDER, `${key}.json`);
  if (existsSync(record)) return (JSON.parse(readFileSync(record, 'utf8')) as { result: T }).result;
  const result = await compute();
  if (keep(result)) {
    mkdirSync(FOLDER, { recursive: true });
    writeFileSync(record, JSON.stringify({ result, inputs }));
  }
  return result;
}
