// `npm run build` killed (SIGKILL, no chance to clean up) at random points while it turns
// one version of the outputs into the next, a bounded number of times. After each kill,
// every output and cache entry on disk must be whole: byte for byte the old version or
// the new one, never a torn mix; the next build must then finish with exactly the new
// version (a half-done cache is never trusted). Scratch files (`*.tmp-*`, which a kill can
// leave behind, gitignored) are not outputs.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const ROUNDS = Number(process.env.KILL_ROUNDS ?? 4);
const OUTPUTS = ['generated', 'dist', '.cache'];
let dir: string;
let remove: (() => Promise<void>) | undefined;
let before: Map<string, string>;
let after: Map<string, string>;
let fullBuildMs = 0;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every output file (relative path -> SHA-256), scratch files left out. */
async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const top of OUTPUTS) {
    const base = join(dir, top);
    if (!existsSync(base)) continue;
    for (const entry of await readdir(base, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const rel = relative(dir, path);
      if (rel.includes('.tmp-')) continue;
      files.set(rel, sha(await readFile(path)));
    }
  }
  return files;
}

async function build() {
  await run(process.execPath, ['scripts/build.mjs'], { cwd: dir, maxBuffer: 1 << 24 });
}

/** Puts the saved old outputs back in place of whatever is there. */
async function restoreOld() {
  for (const top of OUTPUTS) {
    await rm(join(dir, top), { recursive: true, force: true });
    if (existsSync(join(dir, 'old', top))) await cp(join(dir, 'old', top), join(dir, top), { recursive: true });
  }
}

/** Starts a build and SIGKILLs it after `delayMs` (or lets it end first). */
function buildKilledAfter(delayMs: number): Promise<'killed' | 'finished'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal === 'SIGKILL' ? 'killed' : 'finished');
    });
  });
}

const COMMON = 'specs/common/business-central/parameters/company_id.yaml';
const SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('interrupt-test-', { built: true }));
  // The old version: built in this process (test/helpers/in-process.ts); what is killed,
  // and the build whose time sets the range of kill points, are processes.
  const first = await runInProcess(dir, 'scripts/build.mjs');
  if (first.code !== 0) throw new Error(`the first build of the copy failed:\n${first.output}`);
  before = await snapshot();
  for (const top of OUTPUTS) await cp(join(dir, top), join(dir, 'old', top), { recursive: true });
  // The edit: a shared parameter (both business-data documents) and one schema.
  await writeFile(join(dir, COMMON), (await readFile(join(dir, COMMON), 'utf8')).replace('Key of the company', 'Key (id) of the company'));
  await writeFile(join(dir, SCHEMA), (await readFile(join(dir, SCHEMA), 'utf8')).replace('description: Short code.', 'description: Short code, interrupted.'));
  const start = performance.now();
  await build();
  fullBuildMs = performance.now() - start;
  after = await snapshot();
}, 240_000);

afterAll(async () => {
  await remove?.();
});

describe('npm run build, killed at random points', () => {
  it('has an old and a new version that differ (the test has teeth)', () => {
    const changed = [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file);
    expect(changed).toEqual(expect.arrayContaining(['generated/types/businesscentral-v1.0.ts', 'generated/types/businesscentral-v2.0.ts', 'generated/docs/businesscentral-v2.0.html']));
    expect(changed.some((file) => file.startsWith('dist/'))).toBe(true);
    expect(changed.some((file) => file.startsWith('.cache/'))).toBe(true);
  });

  it(`leaves only whole old or new files after each of ${ROUNDS} kills, then finishes with the new version`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await restoreOld();
      // One kill point in each of ROUNDS equal spans of the build, at random within it:
      // early, middle and late are all hit, whatever the draw (the last span ends short of
      // the measured time, so that a kill, not the end of the build, closes each round).
      const delay = Math.round(50 + ((round + Math.random()) / ROUNDS) * fullBuildMs * 0.9);
      outcomes.push(`${await buildKilledAfter(delay)} after ${delay} ms`);
      const now = await snapshot();
      const torn = [...now].filter(([file, hash]) => hash !== before.get(file) && hash !== after.get(file)).map(([file]) => file);
      expect(torn, `round ${round}: killed after ${delay} ms`).toEqual([]);
      // Cache entries that are present also hold their own hash.
      for (const [file] of now) {
        if (!file.startsWith('.cache/')) continue;
        const { sha: own, body } = JSON.parse(await readFile(join(dir, file), 'utf8'));
        expect(createHash('sha256').update(body).digest('hex'), file).toBe(own);
      }
    }
    // From the last interrupted state, one build brings exactly the new version (in this
    // process: what it finds on disk is what a new process would find).
    const recovery = await runInProcess(dir, 'scripts/build.mjs');
    expect(recovery.code, recovery.output).toBe(0);
    expect(Object.fromEntries(await snapshot())).toEqual(Object.fromEntries(after));
    console.log(`interrupt test: full build ${Math.round(fullBuildMs)} ms; ${outcomes.join('; ')}`);
  }, 600_000);
});
