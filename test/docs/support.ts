// Shared by the docs tests: where the pages are, building them when missing, and starting
// `node pipeline/docs-serve.mjs --port 0` (exactly what `npm run docs:serve` runs).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { apis, ROOT } from '../helpers/bundles.js';

export const DOCS = join(ROOT, 'generated/docs');
export const pageOf = (slug: string) => `${slug}.html`;

/** Builds generated/docs/ with `node pipeline/docs.mjs` when a page is missing. */
export function ensureDocs(): void {
  const wanted = ['index.html', ...apis().map((api) => pageOf(api.slug))];
  if (wanted.every((file) => existsSync(join(DOCS, file)))) return;
  const run = spawnSync(process.execPath, ['pipeline/docs.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`generated/docs/ is missing and \`node pipeline/docs.mjs\` failed; run \`npm run build\`.\n${run.stdout}${run.stderr}`);
  }
}

export interface DocsServer {
  url: string;
  child: ChildProcess;
  /** Sends SIGTERM and resolves to the exit code and what the server printed. */
  stop(): Promise<{ code: number | null; output: string }>;
}

export async function startDocsServer(): Promise<DocsServer> {
  const child = spawn(process.execPath, ['pipeline/docs-serve.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail('no URL printed after 30 s'), 30_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`docs:serve ${why}\n${output}`));
    }
    child.stdout.on('data', () => {
      const match = /^docs:serve {2}(http:\/\/127\.0\.0\.1:\d+\/)/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => fail(`exited with ${code} before printing its URL`));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return { code: child.exitCode, output };
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return { code, output };
    },
  };
}
