// A second version of an existing API, added to a workspace copy exactly as
// specs/README.md says (a folder and a redocly.yaml entry, nothing in src/): the build
// passes; the clients send the newest non-preview version by default and a pinned one on
// request, typed by that version's document; the docs list every version, newest first,
// with the default marked. (The mock's side is in test/contract/versions.test.ts.)
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProperty, addVersion } from '../helpers/add-version.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
let dir: string;
let remove: () => Promise<void>;
let build: { code: number; output: string };

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('versions-'));
  const sqlNew = await addVersion(dir, { api: 'sql', from: 'specs/resource-manager/Provider.Sql/2025-01-01', to: '2025-06-01' });
  await addProperty(join(dir, sqlNew, 'schemas/CheckNameAvailabilityResponse.yaml'), 'estimatedAvailableAt', 'type: string\nformat: date-time\ndescription: When a taken name is expected to be free again.');
  await addVersion(dir, { api: 'sql', from: 'specs/resource-manager/Provider.Sql/2025-01-01', to: '2025-09-01-preview' });
  const vendorsNew = await addVersion(dir, { api: 'vendors', from: 'specs/business-central/v2.0', to: 'v2.1' });
  await addProperty(join(dir, vendorsNew, 'schemas/Vendor.yaml'), 'rating', 'type: integer\ndescription: How the company rates the vendor.');
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/build.mjs'], { cwd: dir });
    build = { code: 0, output: stdout + stderr };
  } catch (error: any) {
    build = { code: error.code, output: String(error.stdout) + String(error.stderr) };
  }
}, 180_000);

afterAll(() => remove?.());

describe('a second version of an API', () => {
  it('builds with no edit outside specs/ and redocly.yaml', () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
  });

  it('is in the manifest, oldest first, with the newest non-preview version as the default', async () => {
    const { apis, operations } = await import(join(dir, 'dist/generated/operations.js'));
    expect(apis['resource-manager'].sql).toMatchObject({ versions: ['2025-01-01', '2025-06-01', '2025-09-01-preview'], default: '2025-06-01' });
    expect(apis['business-central'].vendors).toMatchObject({ versions: ['v2.0', 'v2.1'], default: 'v2.1', prefixes: ['/api/v2.0', '/api/v2.1'] });
    expect(apis['resource-manager'].sql.operations).toEqual({ 'POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability': 'all' });
    const checks = operations.filter((o: any) => o.operationId === 'Servers_CheckNameAvailability');
    expect(checks.map((o: any) => o.apiVersion).sort()).toEqual(['2025-01-01', '2025-06-01', '2025-09-01-preview']);
    expect(operations.filter((o: any) => o.operationId === 'updateVendor').map((o: any) => o.prefix).sort()).toEqual(['/api/v2.0', '/api/v2.1']);
  });

  it('is sent by default, and a pinned client sends the version it pins', async () => {
    // The copy's own compiled package, driven through an injected fetch.
    const script = `
      import { createBusinessCentralClient, createResourceManagerClient } from './dist/src/index.js';
      const sent = [];
      const fetch = async (request) => (sent.push(request.url), new Response('{}', { headers: { 'Content-Type': 'application/json' } }));
      const base = { token: 't', fetch, retry: false };
      const check = (arm) => arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
      await check(createResourceManagerClient({ ...base, baseUrl: 'https://m.example' }));
      await check(createResourceManagerClient({ ...base, baseUrl: 'https://m.example', apiVersions: { sql: '2025-01-01' } }));
      await check(createResourceManagerClient({ ...base, baseUrl: 'https://m.example', apiVersions: { sql: '2025-09-01-preview' } }));
      const vendor = (bc) => bc.updateVendor({ companyId: 'c', vendorId: '00000000-0000-0000-0000-000000000001', eTag: 'W/"1"', vendor: {} });
      await vendor(createBusinessCentralClient({ ...base, baseUrl: 'https://b.example' }));
      await vendor(createBusinessCentralClient({ ...base, baseUrl: 'https://b.example', apiVersions: { vendors: 'v2.0' } }));
      let refused;
      try { createResourceManagerClient({ ...base, baseUrl: 'https://m.example', apiVersions: { sql: '2024-01-01' } }); } catch (e) { refused = e.code + ' ' + e.message; }
      console.log(JSON.stringify({ sent, refused }));
    `;
    await writeFile(join(dir, 'versions-run.mjs'), script);
    const { stdout } = await run(process.execPath, ['versions-run.mjs'], { cwd: dir });
    const { sent, refused } = JSON.parse(stdout);
    expect(sent.slice(0, 3).map((url: string) => new URL(url).searchParams.get('api-version'))).toEqual(['2025-06-01', '2025-01-01', '2025-09-01-preview']);
    expect(sent.slice(3).map((url: string) => new URL(url).pathname.split('/companies')[0])).toEqual(['/api/v2.1', '/api/v2.0']);
    expect(refused).toMatch(/^invalid-argument .*apiVersions\.sql.*2025-01-01, 2025-06-01, 2025-09-01-preview/);
  });

  it('types each client by the version it sends (tsc over test/fixtures/two-versions)', async () => {
    const typecheck = async (where: string) => {
      await cp(join(import.meta.dirname, '../fixtures/two-versions'), join(where, 'fixture'), { recursive: true });
      await writeFile(
        join(where, 'tsconfig.fixture.json'),
        JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['src', 'generated/**/*.ts', 'fixture'], exclude: [] }),
      );
      return run(process.execPath, [join(where, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.fixture.json'], { cwd: where }).then(
        () => ({ code: 0, output: '' }),
        (error: any) => ({ code: error.code as number, output: String(error.stdout) + String(error.stderr) }),
      );
    };
    const result = await typecheck(dir);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    // The check has teeth: the same file against the committed workspace (one version per
    // API) fails, on the lines that need the second versions.
    const plain = await workspaceCopy('versions-plain-');
    try {
      const committed = await typecheck(plain.dir);
      expect(committed.code).not.toBe(0);
      expect(committed.output).toMatch(/fixture\/clients\.check\.ts\(\d+,\d+\): error TS\d+: .*estimatedAvailableAt|fixture\/clients\.check\.ts\(\d+,\d+\): error TS\d+: .*2025-06-01/);
    } finally {
      await plain.remove();
    }
  });

  it('is listed on the docs landing page, newest first, the default marked, each version with its page', async () => {
    const html = await readFile(join(dir, 'generated/docs/index.html'), 'utf8');
    const at = (name: string) => html.indexOf(`<article class="doc" id="${name}"`);
    expect(at('sql-2025-09-01-preview')).toBeGreaterThan(0);
    expect(at('sql-2025-09-01-preview')).toBeLessThan(at('sql-2025-06-01'));
    expect(at('sql-2025-06-01')).toBeLessThan(at('sql-2025-01-01'));
    expect(at('vendors-v2.1')).toBeLessThan(at('vendors-v2.0'));
    const card = (name: string) => html.slice(at(name), html.indexOf('</article>', at(name)));
    expect(card('sql-2025-06-01')).toContain('class="badge default"');
    expect(card('sql-2025-01-01')).not.toContain('class="badge default"');
    expect(card('sql-2025-09-01-preview')).toContain('class="badge preview"');
    expect(card('vendors-v2.1')).toContain('class="badge default"');
    // What changed between consecutive versions, per API (npm run changes, between versions).
    const changes = html.slice(html.indexOf('id="changes-sql"'), html.indexOf('</details>', html.indexOf('id="changes-sql"')));
    expect(changes).toMatch(/2025-01-01 → 2025-06-01<\/span> <code>[\w-]+<\/code> [^<]*estimatedAvailableAt/);
    expect(html.slice(html.indexOf('id="changes-vendors"'))).toMatch(/v2\.0 → v2\.1<\/span> <code>[\w-]+<\/code> [^<]*rating/);
    expect(html).not.toContain('id="changes-authorization"');
    for (const page of ['sql-2025-01-01', 'sql-2025-06-01', 'sql-2025-09-01-preview', 'vendors-v2.0', 'vendors-v2.1']) {
      expect(await readFile(join(dir, `generated/docs/${page}.html`), 'utf8')).toContain('<title>');
    }
  });
});
