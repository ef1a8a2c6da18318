// `npm run build` on the build server (pipeline/build-server/), on a throw-away copy: the
// first build starts the copy's server and runs there; the next one, after an edit, runs
// on the same server and writes what a build in its own process writes; a failing build
// fails the same way; a server running other code (a pull, `npm ci`) stops and a new one
// builds; `--stop-server` stops it; an unsafe socket folder means no server (the build
// runs in its own process); the server goes when its workspace goes. The rest of the
// suite builds without a server (vitest.config.ts); these builds turn it on. The steps
// that do not touch the server (compile, docs) are skipped: other tests check them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { SOURCE_ROOTS, workspaceCopy } from '../helpers/workspace-copy.js';
// A zombie (ended, not yet reaped by init) is not alive: pipeline/process-alive.mjs.
import { processAlive as alive } from '../../lib/process-alive.mjs';
import { filesUnder } from '../../lib/walk.mjs';
// @ts-expect-error: plain ESM module without types
import { serverWanted } from '../../pipeline/build-server/address.mjs';

const SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';
const TYPES = 'generated/types/businesscentral-v1.0.ts';
const STEPS = ['--no-compile', '--no-docs'];
let dir: string;
let remove: (() => Promise<void>) | undefined;
let temp: string; // this test's TMPDIR: its own socket folder
const servers = new Set<number>();

const file = (path: string) => join(dir, path);

/** `node pipeline/build.mjs <args>` in the copy, as a new process, with the server on. */
function build(args: string[] = STEPS, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['pipeline/build.mjs', ...args],
      { cwd: dir, env: { ...process.env, PROVIDER_API_BUILD_SERVER: 'on', TMPDIR: temp, ...env } },
      (error, stdout, stderr) => {
        const output = stdout + stderr;
        for (const [, pid] of output.matchAll(/build server \(pid (\d+)/g)) servers.add(Number(pid));
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output });
      },
    );
  });
}
const pidOf = (output: string) => Number(/build server \(pid (\d+), build (\d+)\)/.exec(output)?.[1]);
const buildNumberOf = (output: string) => Number(/build server \(pid \d+, build (\d+)\)/.exec(output)?.[1]);

async function gone(pid: number, withinMs: number) {
  for (let waited = 0; waited < withinMs && alive(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
}

/**
 * A build that ran as the first build of a new server, which says `says`, and `previous`
 * gone: the new server's pid.
 */
async function replacedBy(previous: number, code: number, output: string, says: string): Promise<number> {
  expect(code, output).toBe(0);
  expect(output).toContain(says);
  const pid = pidOf(output);
  expect(pid).not.toBe(previous);
  expect(buildNumberOf(output)).toBe(1);
  expect(await gone(previous, 10_000)).toBe(true);
  return pid;
}

/** SHA-256 of each file under generated/ but the docs (what lint + generate write). */
async function generated(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const path of filesUnder(file('generated'), (f) => !f.includes('/docs/')))
    files.set(
      relative(dir, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    );
  return files;
}

async function editSchema(description: string) {
  const text = await readFile(file(SCHEMA), 'utf8');
  const next = text.replace(/(  code:\n    type: string\n    description: )[^\n]*/, `$1${description}`);
  expect(next).not.toBe(text);
  await writeFile(file(SCHEMA), next);
}

beforeAll(async () => {
  // Two documents: the one the cases edit and another (what the server does with a
  // workspace does not depend on how many operations its widest version holds; the case
  // that starts from nothing builds every document).
  ({ dir, remove } = await workspaceCopy('build-server-test-', {
    built: true,
    documents: [SOURCE_ROOTS.businessDataV1, SOURCE_ROOTS.sql],
  }));
  temp = await mkdtemp(join(tmpdir(), 'build-server-tmp-'));
}, 60_000);

afterAll(async () => {
  for (const pid of servers) if (alive(pid)) process.kill(pid, 'SIGTERM');
  await remove?.();
  await rm(temp, { recursive: true, force: true });
});

describe.sequential('npm run build on the build server', () => {
  let first: number;

  it('starts a server for the first build and builds there', { timeout: 120_000 }, async () => {
    const { code, output } = await build();
    expect(output).toContain('started a build server for this workspace');
    expect(code, output).toBe(0);
    first = pidOf(output);
    expect(buildNumberOf(output)).toBe(1);
    expect(alive(first)).toBe(true);
    expect(output).toMatch(/build {2}done in/);
  });

  it('builds an edit on the same server, and writes what a build in its own process writes', { timeout: 120_000 }, async () => {
    await editSchema('Short code (on the server).');
    const { code, output } = await build();
    expect(code, output).toBe(0);
    expect(pidOf(output)).toBe(first);
    expect(buildNumberOf(output)).toBe(2);
    expect(output).toMatch(/1 of \d+ documents \(1 changed/);
    expect(await readFile(file(TYPES), 'utf8')).toContain('Short code (on the server).');
    const served = await generated();
    // The same edit built in this test's process (no server), from the same starting point:
    // the edit undone and built, then made again and built.
    const edited = await readFile(file(SCHEMA), 'utf8');
    await editSchema('Short code (undone).');
    const undone = await runInProcess(dir, 'pipeline/build.mjs', ...STEPS);
    expect(undone.code, undone.output).toBe(0);
    expect(await generated()).not.toEqual(served);
    await writeFile(file(SCHEMA), edited);
    const here = await runInProcess(dir, 'pipeline/build.mjs', ...STEPS);
    expect(here.code, here.output).toBe(0);
    expect(here.output).not.toContain('build server');
    expect(here.output).toMatch(/1 of \d+ documents \(1 changed/);
    expect(await generated()).toEqual(served);
  });

  it('fails a broken edit as a process does: file and line, exit code 1, outputs kept', { timeout: 120_000 }, async () => {
    const before = await generated();
    const text = await readFile(file(SCHEMA), 'utf8');
    await writeFile(file(SCHEMA), text.replace(/(  code:\n    type: )string/, '$1strin'));
    try {
      const { code, output } = await build();
      expect(pidOf(output)).toBe(first);
      expect(output).toMatch(new RegExp(`${SCHEMA.replace(/\./g, '\\.')}:\\d+:\\d+ +error`));
      expect(output).toContain('build  lint FAILED');
      expect(code).toBe(1);
      expect(await generated()).toEqual(before);
    } finally {
      await writeFile(file(SCHEMA), text);
    }
  });

  it('reads the lint configs afresh for every build, as a new process does', { timeout: 120_000 }, async () => {
    const ruleset = file('.spectral.yaml');
    const text = await readFile(ruleset, 'utf8');
    expect(text).toMatch(/^rules:\n/m);
    // A rule every document breaks: a title must be absent.
    await writeFile(
      ruleset,
      text.replace(/^rules:\n/m, 'rules:\n  test-no-title:\n    severity: error\n    given: $.info\n    then:\n      field: title\n      function: falsy\n'),
    );
    try {
      const { code, output } = await build();
      expect(pidOf(output)).toBe(first);
      expect(output).toMatch(/openapi\.yaml:\d+:\d+ +error +test-no-title/);
      expect(code).toBe(1);
    } finally {
      await writeFile(ruleset, text);
    }
    const { code, output } = await build();
    expect(pidOf(output)).toBe(first);
    expect(code, output).toBe(0);
  });

  it('starts from nothing after a clean: the build cache folder removed, a new server builds every document', { timeout: 120_000 }, async () => {
    await rm(file('.cache'), { recursive: true, force: true });
    const { code, output } = await build();
    expect(output).toMatch(/redocly \+ spectral clean, \d+ documents  /);
    first = await replacedBy(first, code, output, 'started a build server for this workspace');
  });

  it('refuses an unknown option, naming it, before any server is asked', { timeout: 60_000 }, async () => {
    const { code, output } = await build(['--no-lint']);
    expect(output).toContain('build  unknown option --no-lint');
    expect(output).not.toContain('build server (pid');
    expect(code).toBe(2);
  });

  it('stops a server that runs other code (a pull, npm ci) and builds on a new one', { timeout: 120_000 }, async () => {
    // A file of the mock: part of the code a server runs, not of what the build cache keys
    // on (pipeline/cache.mjs), so the new server's build finds every document current.
    const pulled = file('mock/index.mjs');
    await writeFile(pulled, `${await readFile(pulled, 'utf8')}// pulled\n`);
    const { code, output } = await build();
    expect(output).toMatch(/\d+ documents unchanged since the last build/);
    first = await replacedBy(first, code, output, 'the build server ran other code');
  });

  it('starts a new server when the last one was killed (its socket file left behind)', { timeout: 120_000 }, async () => {
    // The server the last case left running (or one started here, should that case have failed).
    let killed = first;
    if (!alive(killed)) {
      const started = await build();
      expect(started.code, started.output).toBe(0);
      killed = pidOf(started.output);
    }
    process.kill(killed, 'SIGKILL');
    expect(await gone(killed, 10_000)).toBe(true);
    const { code, output } = await build();
    expect(code, output).toBe(0);
    expect(output).toContain('started a build server for this workspace');
    expect(pidOf(output)).not.toBe(killed);
    first = pidOf(output);
  });

  it('stops on --stop-server, and says when none runs', { timeout: 60_000 }, async () => {
    const stopped = await build(['--stop-server']);
    expect(stopped.output).toContain('build  the build server stopped');
    expect(stopped.code).toBe(0);
    expect(await gone(first, 10_000)).toBe(true);
    const again = await build(['--stop-server']);
    expect(again.output).toContain('build  no build server runs for this workspace');
  });

  it('starts no server under CI (CI set), unless PROVIDER_API_BUILD_SERVER=on asks for one', { timeout: 120_000 }, async () => {
    // No server runs now (the case above stopped it): a build under CI builds in its own process.
    const ci = await build(STEPS, { CI: 'true', PROVIDER_API_BUILD_SERVER: '' });
    expect(ci.code, ci.output).toBe(0);
    expect(ci.output).not.toContain('build server');
    expect((await build(['--stop-server'], { CI: 'true' })).output).toContain('build  no build server runs for this workspace');
    // Asked for by name, it starts even under CI.
    const asked = await build(STEPS, { CI: 'true', PROVIDER_API_BUILD_SERVER: 'on' });
    expect(asked.code, asked.output).toBe(0);
    expect(asked.output).toContain('started a build server for this workspace');
    expect((await build(['--stop-server'])).output).toContain('build  the build server stopped');
    expect(await gone(pidOf(asked.output), 10_000)).toBe(true);
  });

  it('reads CI as CI services set it: any value but empty, false and 0 means CI', () => {
    const on = { PROVIDER_API_BUILD_SERVER: 'on' };
    for (const CI of ['true', '1', 'yes', 'woodpecker']) {
      expect(serverWanted([], { CI }), CI).toBe(false);
      expect(serverWanted([], { CI, ...on }), CI).toBe(true);
      expect(serverWanted(['--no-server'], { CI, ...on }), CI).toBe(false);
    }
    for (const CI of [undefined, '', 'false', 'FALSE', '0']) expect(serverWanted([], { CI }), String(CI)).toBe(true);
    expect(serverWanted([], { PROVIDER_API_BUILD_SERVER: 'off' })).toBe(false);
  });

  it('starts no server when its socket folder can be entered by other users, and builds in its own process', { timeout: 120_000 }, async () => {
    const open = await mkdtemp(join(tmpdir(), 'build-server-open-'));
    try {
      const folder = join(open, `provider-api-build-${process.getuid?.() ?? 0}`);
      await mkdir(folder);
      await chmod(folder, 0o777);
      const { code, output } = await build(STEPS, { TMPDIR: open });
      expect(output).toMatch(/no build server started \(.*can be read or entered by other users/);
      expect(output).not.toContain('build server (pid');
      expect(code, output).toBe(0);
    } finally {
      await rm(open, { recursive: true, force: true });
    }
  });

  it('goes when its workspace goes', { timeout: 120_000 }, async () => {
    const { code, output } = await build();
    expect(code, output).toBe(0);
    const pid = pidOf(output);
    expect(alive(pid)).toBe(true);
    await remove!();
    remove = undefined;
    expect(existsSync(dir)).toBe(false);
    expect(await gone(pid, 15_000)).toBe(true);
  });
});
