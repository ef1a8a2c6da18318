// `npm run build` killed (SIGKILL, no chance to clean up) in each of its steps while it
// turns one version of the outputs into the next, a bounded number of times. After each
// kill, every output and cache entry on disk must be whole: byte for byte the old version
// or the new one, never a torn mix; the next build must then finish with exactly the new
// version (a half-done cache is never trusted). Scratch files (`*.tmp-*`, which a kill can
// leave behind, gitignored) are not outputs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { filesUnder } from '../../lib/walk.mjs';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const ROUNDS = Number(process.env.KILL_ROUNDS ?? 4);
const OUTPUTS = ['generated', 'dist', '.cache'];
let dir: string;
let remove: (() => Promise<void>) | undefined;
let before: Map<string, string>;
let after: Map<string, string>;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every output file (relative path -> SHA-256), scratch files left out. */
async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const top of OUTPUTS) {
    const base = join(dir, top);
    if (!existsSync(base)) continue;
    // Not readdir's `recursive`: it follows symlinked folders on every Node line (lib/walk.mjs).
    for (const path of filesUnder(base)) {
      const rel = relative(dir, path);
      if (rel.includes('.tmp-')) continue;
      files.set(rel, sha(await readFile(path)));
    }
  }
  return files;
}

/** Puts the saved old outputs back in place of whatever is there. */
async function restoreOld() {
  for (const top of OUTPUTS) {
    await rm(join(dir, top), { recursive: true, force: true });
    if (existsSync(join(dir, 'old', top))) await cp(join(dir, 'old', top), join(dir, top), { recursive: true });
  }
}

// The build prints a line as each step ends ("build  lint …", "build  generate …", …).
// Killing a random moment after one of them lands early in the next step; null: a random
// moment before the first line (start-up and lint). Round r kills in STEPS[r % 4]. The
// null rounds and the "build  lint" ones start from the old version; the rounds after a
// "build  lint" one resume from what the kill before them left, as a user runs the build
// again after a Ctrl-C: killed in generate, then in docs (generate's rest done first), then
// in the compile, without redoing the steps an earlier build finished. The last of four
// rounds is a resumed one, so the recovery below starts from a resumed state.
const STEPS: Array<string | null> = [null, 'build  lint', 'build  generate', 'build  docs'];
const fromOld = (round: number) => STEPS[round % STEPS.length] === null || STEPS[round % STEPS.length] === 'build  lint';
// The one cache entry whose content depends on the builds before it, by design: the trust
// checks of the files of the documents the last build linted (pipeline/check-cache.mjs). A
// build resumed after a kill lints fewer documents, so its entry is whole (checked below
// with the others) but neither the old nor the new one. It decides no output: a file it
// does not hold is checked again.
const HISTORY = new Set(['.cache/provider-api/trust-checks.json']);
const withoutHistory = (files: Map<string, string>) => Object.fromEntries([...files].filter(([file]) => !HISTORY.has(file)));
const AFTER_LINE_MS = 250;
let firstLineMs = 1000; // until a round from the old version has seen the first line (round 0 kills in its first second: start-up)

/**
 * Starts a build and SIGKILLs it at a random moment after `line` (or lets it end first).
 * `old`: it starts from the old version, so its first line times a whole lint.
 */
function buildKilledAfter(line: string | null, old: boolean): Promise<string> {
  return new Promise((resolve) => {
    const start = performance.now();
    // A process group of its own, killed whole, as a terminal's Ctrl-C or a CI timeout kills
    // a command: the build's TypeScript 7 processes go with it, not on writing afterwards.
    // The installed compiler, never the suite's shared one (test/helpers/shared-tsc.mjs): a
    // compile replayed on a later Node line could end before the kill lands in it.
    const { PROVIDER_API_TSC7: _shared, ...env } = process.env;
    const child = spawn(process.execPath, ['pipeline/build.mjs'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    let at = '';
    const killIn = (ms: number) => {
      at = `${Math.round(performance.now() - start + ms)} ms`;
      timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, ms);
    };
    if (line === null) killIn(Math.round(Math.random() * firstLineMs));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (old && !out.includes('\n')) firstLineMs = Math.min(firstLineMs, performance.now() - start);
      out += chunk;
      if (line !== null && !timer && out.includes(line)) killIn(Math.round(Math.random() * AFTER_LINE_MS));
    });
    child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(`${signal === 'SIGKILL' ? 'killed' : 'finished'} at ${at || 'end'} (${line ?? 'before the first step line'})`);
    });
  });
}

// The edit: a shared schema that two resource-management documents read, and a schema of
// one business-data document, so that several documents, their docs pages and dist/
// change. Not a file that every document of the workspace reads: what a kill can tear
// does not depend on how many operations a document holds, and this test's time should
// not grow with them (a business-data version of 300 operations reads company_id.yaml).
const COMMON = 'specs/common/resource-manager/schemas/CloudErrorBody.yaml';
const SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('interrupt-test-', { built: true }));
  // The old and the new version are built in this process (test/helpers/in-process.ts);
  // what is killed is a process.
  const first = await runInProcess(dir, 'pipeline/build.mjs');
  if (first.code !== 0) throw new Error(`the first build of the copy failed:\n${first.output}`);
  before = await snapshot();
  for (const top of OUTPUTS) await cp(join(dir, top), join(dir, 'old', top), { recursive: true });
  await writeFile(
    join(dir, COMMON),
    (await readFile(join(dir, COMMON), 'utf8')).replace('description: The error itself.', 'description: The error itself, interrupted.'),
  );
  await writeFile(join(dir, SCHEMA), (await readFile(join(dir, SCHEMA), 'utf8')).replace('description: Short code.', 'description: Short code, interrupted.'));
  const second = await runInProcess(dir, 'pipeline/build.mjs');
  if (second.code !== 0) throw new Error(`the build of the edit failed:\n${second.output}`);
  after = await snapshot();
}, 240_000);

afterAll(async () => {
  await remove?.();
});

describe('npm run build, killed at random points', () => {
  it('has an old and a new version that differ (the test has teeth)', () => {
    const changed = [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file);
    // Every document that reads the shared schema (two or more), and the business-data one.
    const types = changed.filter((file) => file.startsWith('generated/types/'));
    expect(types).toContain('generated/types/businesscentral-v1.0.ts');
    expect(types.filter((file) => !file.includes('businesscentral')).length).toBeGreaterThanOrEqual(2);
    expect(changed.some((file) => file.startsWith('generated/docs/') && file.endsWith('.html'))).toBe(true);
    expect(changed.some((file) => file.startsWith('dist/'))).toBe(true);
    expect(changed.some((file) => file.startsWith('.cache/'))).toBe(true);
  });

  it(`leaves only whole old or new files after each of ${ROUNDS} kills, then finishes with the new version`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (fromOld(round)) await restoreOld();
      const outcome = await buildKilledAfter(STEPS[round % STEPS.length]!, fromOld(round));
      outcomes.push(outcome);
      const now = await snapshot();
      const torn = [...now].filter(([file, hash]) => !HISTORY.has(file) && hash !== before.get(file) && hash !== after.get(file)).map(([file]) => file);
      expect(torn, `round ${round}: ${outcome}`).toEqual([]);
      // Cache entries that are present also hold their own hash.
      for (const [file] of now) {
        if (!file.startsWith('.cache/provider-api/') || !file.endsWith('.json')) continue;
        const { sha: own, body } = JSON.parse(await readFile(join(dir, file), 'utf8'));
        expect(createHash('sha256').update(body).digest('hex'), file).toBe(own);
      }
    }
    // Every round was a kill, not a build that ended first (the step lines come in order,
    // and each step after a line takes longer than the delay).
    expect(
      outcomes.filter((outcome) => !outcome.startsWith('killed')),
      outcomes.join('; '),
    ).toEqual([]);
    // From the last interrupted state, one build brings exactly the new version (in this
    // process: what it finds on disk is what a new process would find).
    const recovery = await runInProcess(dir, 'pipeline/build.mjs');
    expect(recovery.code, recovery.output).toBe(0);
    const recovered = await snapshot();
    expect(withoutHistory(recovered)).toEqual(withoutHistory(after));
    expect([...HISTORY].filter((file) => !recovered.has(file))).toEqual([]);
    console.log(`interrupt test: ${outcomes.join('; ')}`);
  }, 600_000);
});
