// Another project's view of the mock: the package as `npm pack` ships it, installed
// under node_modules/ of a throw-away project (its dependencies and the optional Prism
// peers linked from this workspace: no registry, no network). That project starts the
// mock through the documented entry, `import { startMock } from 'provider-api-clients/mock'`,
// and through the installed command (`bin`), without knowing this repository's scripts.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
let project: string;
let installed: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'mock-consumer-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project, '--loglevel=error'], { cwd: ROOT, timeout: 60_000 });
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  installed = join(project, 'node_modules/provider-api-clients');
  await mkdir(installed, { recursive: true });
  await run('tar', ['-xzf', join(project, filename), '-C', installed, '--strip-components=1']);
  for (const entry of await readdir(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'provider-api-clients') continue;
    await symlink(join(ROOT, 'node_modules', entry), join(project, 'node_modules', entry));
  }
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 90_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the mock from the installed package', () => {
  it('startMock({ port, takenNames }) -> { url, reset, close }, imported as provider-api-clients/mock', async () => {
    await writeFile(
      join(project, 'consumer.mjs'),
      `import { startMock } from 'provider-api-clients/mock';
const mock = await startMock({ port: 0, takenNames: ['orders-db'] });
const check = (name) => fetch(mock.url + '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, type: 'Provider.Sql/servers' }),
}).then((r) => r.json());
const taken = await check('orders-db');
mock.reset({ takenNames: [] });
const free = await check('orders-db');
await mock.close();
console.log(JSON.stringify({ url: mock.url, taken, free }));
`,
    );
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project, timeout: 30_000 });
    const { url, taken, free } = JSON.parse(stdout);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(taken).toMatchObject({ name: 'orders-db', available: false, reason: 'AlreadyExists' });
    expect(free).toEqual({ name: 'orders-db', available: true });
  });

  it('the installed command (bin) starts, prints its URL, stops on SIGTERM', async () => {
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    const bin = join(installed, pkg.bin['provider-api-mock']);
    const child = spawn(process.execPath, [bin, '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 20_000);
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const ready = /^mock {2}(http:\/\/\S+) /m.exec(out);
        if (ready) (clearTimeout(timer), resolve(ready[1]!));
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    child.removeAllListeners('exit');
    const answer = await fetch(`${url}/api/v1.0/companies(x)/shipmentMethods`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'EXW', displayName: 'Ex Works' }),
    });
    expect(answer.status).toBe(201);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });

  it('a project without the optional Prism peers gets a message naming them', async () => {
    // Not under the first project: module resolution walks up to its node_modules.
    const bare = await mkdtemp(join(tmpdir(), 'mock-bare-consumer-'));
    onTestFinished(() => rm(bare, { recursive: true, force: true }));
    await mkdir(join(bare, 'node_modules'), { recursive: true });
    await cp(installed, join(bare, 'node_modules/provider-api-clients'), { recursive: true });
    await writeFile(join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
    await writeFile(join(bare, 'try.mjs'), `import { startMock } from 'provider-api-clients/mock';\nconst mock = await startMock({ port: 0 }).catch((e) => console.log(e.message));\nawait mock?.close();\n`);
    const { stdout } = await run(process.execPath, ['try.mjs'], { cwd: bare, timeout: 20_000 });
    expect(stdout).toMatch(/optional peer dependency: npm install --save-dev @stoplight\/prism-http@5\.12\.0 .*js-yaml@4\.3\.2/);
  });
});
