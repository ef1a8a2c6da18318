// Starts `node mock/cli.mjs --port 0` (exactly what `npm run mock` runs) for the
// contract project, waits for its ready line, hands its URL to the tests and stops it
// with SIGTERM afterwards. The teardown fails the run if the mock did not stop cleanly
// or reported a 5xx that no request asked for.
//
// The URL handed out is a recording tee in front of the mock (contract/tee.mjs):
// it relays every byte unchanged and records the exchanges, from which the teardown
// prints which declared responses and named examples the suite exercised (coverage).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: plain ESM scripts without types
import { loadContract } from '../../contract/contract.mjs';
// @ts-expect-error: plain ESM scripts without types
import { computeCoverage, formatCoverage } from '../../contract/coverage.mjs';
// @ts-expect-error: plain ESM scripts without types
import { startTee } from '../../contract/tee.mjs';
import { spawnMock } from './spawn-mock.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

const ROOT = join(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  const mock = await spawnMock();
  const tee = await startTee({ target: mock.url });
  project.provide('mockUrl', tee.url);
  return async () => {
    await tee.close();
    const coverage = computeCoverage(tee.exchanges, loadContract(ROOT));
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(join(ROOT, 'test-results', 'contract-coverage.json'), `${JSON.stringify(coverage, null, 2)}\n`);
    for (const line of formatCoverage(coverage)) process.stdout.write(`${line}\n`);
    const code = await mock.stop();
    if (code !== 0) throw new Error(`contract mock: exit code ${code} after SIGTERM\n${mock.stderr()}`);
    if (!mock.stdout().includes('mock  stopped')) throw new Error(`contract mock: no "stopped" line after SIGTERM\n${mock.stdout()}`);
    if (/unasked/.test(mock.stderr())) throw new Error(`contract mock: answered a 5xx nobody asked for\n${mock.stderr()}`);
  };
}
