// Starts `node mock/cli.mjs --port 0` (what `npm run mock` runs) as a child process
// and waits for its ready line: for the global setup and for tests that must watch the
// process itself (the fuzz test checks it is still alive).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const READY = /^mock {2}(http:\/\/\S+) {2}\d+ operations {2}ready in (\S+ s)/m;

export interface MockProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM, then the exit code. */
  stop: () => Promise<number | null>;
}

export async function spawnMock(args: string[] = [], cwd = ROOT, timeoutMs = 45_000): Promise<MockProcess> {
  const child = spawn(process.execPath, ['mock/cli.mjs', '--port', '0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs / 1000} s`), timeoutMs);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`mock: ${why}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
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
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}
