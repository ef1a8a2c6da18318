// Starts `node scripts/mock.mjs --port 0` (exactly what `npm run mock` runs) for the
// contract project, waits for its ready line, hands its URL to the tests and stops it
// with SIGTERM afterwards. The teardown fails the run if the mock did not stop cleanly
// or reported a 5xx that no request asked for.
import type { TestProject } from 'vitest/node';
import { spawnMock } from './spawn-mock.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = await spawnMock();
  project.provide('mockUrl', mock.url);
  return async () => {
    const code = await mock.stop();
    if (code !== 0) throw new Error(`contract mock: exit code ${code} after SIGTERM\n${mock.stderr()}`);
    if (!mock.stdout().includes('mock  stopped')) throw new Error(`contract mock: no "stopped" line after SIGTERM\n${mock.stdout()}`);
    if (/unasked/.test(mock.stderr())) throw new Error(`contract mock: answered a 5xx nobody asked for\n${mock.stderr()}`);
  };
}
