// Starts `node scripts/mock.mjs --port 0` (exactly what `npm run mock` runs) for the
// contract project, waits for its ready line, hands its URL to the tests and stops it
// with SIGTERM afterwards. The teardown fails the run if the mock did not stop cleanly
// or reported a 5xx that no request asked for.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

const ROOT = join(import.meta.dirname, '../..');
const READY = /^mock {2}(http:\/\/\S+) {2}\d+ operations {2}ready in (\S+ s)/m;

export default async function setup(project: TestProject) {
  const child = spawn(process.execPath, ['scripts/mock.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail('not ready after 10 s'), 10_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`contract mock: ${why}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const ready = READY.exec(stdout);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    });
    child.once('exit', (code) => fail(`exited with ${code} before it was ready`));
  });
  child.removeAllListeners('exit');
  project.provide('mockUrl', url);

  return async () => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    if (code !== 0) throw new Error(`contract mock: exit code ${code} after SIGTERM\n${stderr}`);
    if (!stdout.includes('mock  stopped')) throw new Error(`contract mock: no "stopped" line after SIGTERM\n${stdout}`);
    if (/unasked/.test(stderr)) throw new Error(`contract mock: answered a 5xx nobody asked for\n${stderr}`);
  };
}
