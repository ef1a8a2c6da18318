// The package's declarations as a strict Node service compiles them: no DOM library
// (`lib: ["ES2022"]`, `types: ["node"]`), `skipLibCheck: false`, for each module setting a
// consumer uses. The package is reached by its name (node_modules/provider-api-clients ->
// this workspace), so its `exports` map picks the files, as for an installed tarball.
// (test/consumer/ installs the packed tarball and checks the same with the DOM library.)
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
let dir: string;

const SOURCE = `
import { createBusinessCentralClient, createResourceManagerClient, isClientError } from 'provider-api-clients';
import { createNodeHttpFetch } from 'provider-api-clients/node-http';
const arm = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', fetch: createNodeHttpFetch() });
const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', credential: { getToken: async () => ({ token: 't', expiresOnTimestamp: 0 }) }, scopes: ['s'] });
export async function call(): Promise<unknown> {
  const r = await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
  if (r.ok) return r.data.available;
  try { return await bc.updateVendor({ companyId: 'c', vendorId: 'v', eTag: 'W/"1"', vendor: {} }); } catch (e) { return isClientError(e) ? e.code : e; }
}
`;

const SETTINGS: Array<[string, Record<string, unknown>, string]> = [
  ['nodenext (ESM)', { module: 'nodenext', moduleResolution: 'nodenext' }, 'module'],
  ['node16 (ESM)', { module: 'node16', moduleResolution: 'node16' }, 'module'],
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, 'module'],
  ['CommonJS (nodenext)', { module: 'nodenext', moduleResolution: 'nodenext' }, 'commonjs'],
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'declarations-'));
  await mkdir(join(dir, 'node_modules', '@types'), { recursive: true });
  await symlink(ROOT, join(dir, 'node_modules', 'provider-api-clients'));
  await symlink(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the declarations in a strict Node consumer without the DOM library', () => {
  it(`type-check with skipLibCheck: false under ${SETTINGS.map(([name]) => name).join(', ')}`, async () => {
    const projects: string[] = [];
    for (const [name, options, type] of SETTINGS) {
      const where = join(dir, name.replace(/\W+/g, '-'));
      await mkdir(where, { recursive: true });
      await writeFile(join(where, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }));
      await writeFile(join(where, 'app.ts'), SOURCE);
      await writeFile(
        join(where, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { strict: true, exactOptionalPropertyTypes: true, target: 'es2022', lib: ['ES2022'], types: ['node'], typeRoots: [join(dir, 'node_modules/@types')], skipLibCheck: false, noEmit: true, ...options },
          files: ['app.ts'],
        }),
      );
      await symlink(join(dir, 'node_modules'), join(where, 'node_modules'));
      projects.push(where);
    }
    // One compiler process for the four (build mode shares the parsed declarations).
    const output = await run(process.execPath, [TSC, '-b', ...projects], { cwd: dir }).then(
      () => '',
      (error: any) => String(error.stdout) + String(error.stderr),
    );
    expect(output).toBe('');
  }, 120_000);
});
