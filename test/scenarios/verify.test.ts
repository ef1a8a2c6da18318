// `npm run verify` as a user runs it: against the contract mock (another process, another
// port) every step passes; against the fake upstream the known breaks are reported per
// step and the correct answers pass. The token comes from the variable --token-env names
// and never shows in the output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.js';
// @ts-expect-error: plain ESM script without types
import { entryWorkflows, scenarioFiles } from '../../contract/scenarios.mjs';

/** The scenarios the fake upstream plays (its breaks and its correct answers): the source's five. */
const FAKED = ['name-check', 'vendor-etag', 'shipment-method', 'role-eligibility', 'cached-images-paging'].map((name) => `/${name}.arazzo.yaml`);

const ROOT = join(import.meta.dirname, '../..');
const TOKEN = 'verify-test-token-5d1e0b';

function verify(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['contract/verify.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
}

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
beforeAll(async () => (upstream = await startFakeUpstream()));
afterAll(async () => upstream?.close());

describe('npm run verify', () => {
  it('against the mock: every step passes, one line per step', async () => {
    const { code, out } = await verify(['--server', inject('mockUrl'), '--token-env', 'VERIFY_TEST_TOKEN'], { VERIFY_TEST_TOKEN: TOKEN });
    // Every entry workflow of specs/scenarios/, however many the recipe has added.
    expect(out).toMatch(new RegExp(`^verify {2}passed: \\d+ steps passed, 0 failed, 0 not run, ${entryWorkflows(scenarioFiles(ROOT)).length} workflows`, 'm'));
    expect(code).toBe(0);
    for (const step of [
      'freeName',
      'takenName',
      'invalidName',
      'unknownNameType',
      'invalidRequest',
      'staleUpdate',
      'currentUpdate',
      'changePersisted',
      'create',
      'getRequest',
      'page01',
      'page02',
    ]) {
      expect(out).toMatch(new RegExp(`^ {2}pass {2}${step} {2}`, 'm'));
    }
    expect(out).toContain('token: from $VERIFY_TEST_TOKEN');
    expect(out).not.toContain(TOKEN);
  }, 120_000);

  it('against the fake upstream: its breaks are reported with what differed, its correct answers pass', async () => {
    const { code, out } = await verify(['--server', upstream.url, '--token-env', 'VERIFY_TEST_TOKEN', ...FAKED.flatMap((name) => ['--only', name])], {
      VERIFY_TEST_TOKEN: TOKEN,
    });
    expect(code).toBe(1);
    // Correct in the fake: the name check, the role request, two pages of images.
    for (const step of ['freeName', 'takenName', 'invalidName', 'unknownNameType', 'invalidRequest', 'getRequest', 'page01', 'page02']) {
      expect(out).toMatch(new RegExp(`^ {2}pass {2}${step} {2}`, 'm'));
    }
    // Broken in the fake: the vendor ignores If-Match; shipment methods come back as text/plain.
    expect(out).toMatch(/^ {2}FAIL {2}staleUpdate {2}PATCH \S+ -> 200\n {10}success criteria check: \$statusCode == 412 {2}\(got status 200\)/m);
    expect(out).toMatch(/^ {2}skip {2}currentUpdate {2}not run: an earlier step failed/m);
    expect(out).toMatch(/^ {2}FAIL {2}create {2}POST \S+ -> 201\n(.*\n)*? {10}content-type check/m);
    expect(out).toMatch(/^verify {2}FAILED: 8 steps passed, 2 failed, 2 not run, 5 workflows/m);
    expect(out).not.toContain(TOKEN);
    // The token reached the upstream (and only as a bearer header).
    expect(upstream.received.some((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  }, 120_000);

  it('refuses a token given as a value instead of a variable name, and a bad server', async () => {
    const asValue = await verify(['--server', upstream.url, '--token-env', 'eyJhbGciOi.J9-x']);
    expect(asValue.code).toBe(2);
    expect(asValue.out).toMatch(/--token-env takes the name of an environment variable/);
    expect(asValue.out).not.toContain('eyJhbGciOi.J9-x');
    const noServer = await verify(['--server', 'ftp://x']);
    expect(noServer.code).toBe(2);
  });
});
