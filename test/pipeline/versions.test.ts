// A second version of an existing API, added to a workspace copy exactly as
// specs/README.md says (a folder and a redocly.yaml entry, nothing in src/): the build
// passes; the clients send the newest non-preview version by default and a pinned one on
// request, typed by that version's document, and their run-time manifest (and so an app's
// bundle) stays the size it was with one version; the docs list every version, newest
// first, with the default marked. (The mock's side is in test/contract/versions.test.ts.)
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build as esbuild } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProperty, addVersion } from '../helpers/add-version.mjs';
import { generatedConst } from '../helpers/generated.js';
import { runInProcess } from '../helpers/in-process.js';
import { tsc7 } from '../helpers/tsc7.js';
import { SOURCE_ROOTS, workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const CHECK = 'POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability';
const VENDOR = 'PATCH /companies({company_id})/vendors({vendor_id})';
let dir: string;
let remove: () => Promise<void>;
let build: { code: number; output: string };
/** The copy's client manifest before any version was added (one version per API). */
let oneVersion: any;

/** The `apis` object of a generated client-manifest.ts. */
const manifestApis = (source: string) => generatedConst(source, 'apis');

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('versions-', { built: true }));
  oneVersion = manifestApis(await readFile(join(dir, 'generated/client-manifest.ts'), 'utf8'));
  const sqlNew = await addVersion(dir, { api: 'sql', from: 'specs/resource-manager/Provider.Sql/2025-01-01', to: '2025-06-01' });
  await addProperty(
    join(dir, sqlNew, 'schemas/CheckNameAvailabilityResponse.yaml'),
    'estimatedAvailableAt',
    'type: string\nformat: date-time\ndescription: When a taken name is expected to be free again.',
  );
  await addVersion(dir, { api: 'sql', from: 'specs/resource-manager/Provider.Sql/2025-01-01', to: '2025-09-01-preview' });
  const vendorsNew = await addVersion(dir, { api: 'businesscentral', from: 'specs/business-central/v2.0', to: 'v2.1' });
  await addProperty(join(dir, vendorsNew, 'schemas/Vendor.yaml'), 'rating', 'type: integer\ndescription: How the company rates the vendor.');
  // In-process, as the other builds of this file (test/helpers/in-process.ts).
  build = await runInProcess(dir, 'pipeline/build.mjs');
}, 180_000);

afterAll(() => remove?.());

describe('a second version of an API', () => {
  it('builds with no edit outside specs/ and redocly.yaml', () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
  });

  it('is in the catalogue, oldest first, with the newest non-preview version as the default', async () => {
    const { catalogue, operations } = await import(join(dir, 'dist/generated/operations.js'));
    const sql = catalogue['resource-manager'].sql;
    expect(sql.default).toBe('2025-06-01');
    expect(sql.versions.slice(-3)).toEqual(['2025-01-01', '2025-06-01', '2025-09-01-preview']);
    expect(sql.operations[CHECK]).toEqual(expect.arrayContaining(['2025-01-01', '2025-06-01', '2025-09-01-preview']));
    const bc = catalogue['business-central'].businesscentral;
    expect(bc.default).toBe('v2.1');
    expect(bc.versions.slice(-2)).toEqual(['v2.0', 'v2.1']);
    expect(bc.operations[VENDOR].slice(-2)).toEqual(['v2.0', 'v2.1']);
    const checks = operations.filter((o: any) => o.apiName === 'sql' && o.operationId === 'Servers_CheckNameAvailability');
    expect(checks.map((o: any) => o.apiVersion).sort()).toEqual(['2025-01-01', '2025-06-01', '2025-09-01-preview']);
    // The business-data prefix the client derives, /api/<version>, is the document's own.
    expect(operations.filter((o: any) => o.operationId === 'updateVendor').map((o: any) => [o.version, o.prefix])).toEqual(
      expect.arrayContaining([
        ['v2.0', '/api/v2.0'],
        ['v2.1', '/api/v2.1'],
      ]),
    );
  });

  it("the clients' run-time manifest does not grow with versions: only the defaults and the moved targets differ", async () => {
    const { apis } = await import(join(dir, 'dist/generated/client-manifest.js'));
    const { catalogue } = await import(join(dir, 'dist/generated/operations.js'));
    // Every sql operation was in the copied 2025-01-01, so each now goes to the new default,
    // derived from its namespace: none is listed. Business-data operations v2.1 declares go
    // to the new default (derived); the others (v1.0's shipment methods) stay listed.
    const expected = structuredClone(oneVersion);
    expected['resource-manager'].sql.default = '2025-06-01';
    const bc = expected['business-central'].businesscentral;
    bc.default = 'v2.1';
    for (const key of Object.keys(bc.operations)) if (catalogue['business-central'].businesscentral.operations[key].includes('v2.1')) delete bc.operations[key];
    expect(apis).toEqual(expected);
    expect(apis['resource-manager'].sql.operations[CHECK]).toBeUndefined();
  });

  it('an app bundle of the clients holds the default versions only, not the versions it does not send', async () => {
    // As `npm run size` bundles (esbuild, minified, browser), from the copy's sources.
    const bundle = await esbuild({
      stdin: { contents: "export { createResourceManagerClient, createBusinessCentralClient } from './src/index.ts';", resolveDir: dir, loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      nodePaths: [join(dir, 'node_modules')],
      absWorkingDir: dir,
    });
    const code = bundle.outputFiles[0]!.text;
    expect(code).toContain('"2025-06-01"');
    expect(code).toContain('"v2.1"');
    for (const unsent of ['2025-01-01', '2025-09-01-preview']) expect(code, unsent).not.toContain(unsent);
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
      // Not held, but shaped like a version: sent as is (the types refuse it; the server answers).
      await check(createResourceManagerClient({ ...base, baseUrl: 'https://m.example', apiVersions: { sql: '2024-01-01' } }));
      const vendor = (bc) => bc.updateVendor({ companyId: 'c', vendorId: '00000000-0000-0000-0000-000000000001', eTag: 'W/"1"', vendor: {} });
      await vendor(createBusinessCentralClient({ ...base, baseUrl: 'https://b.example' }));
      await vendor(createBusinessCentralClient({ ...base, baseUrl: 'https://b.example', apiVersions: { businesscentral: 'v2.0' } }));
      let refused;
      try { createResourceManagerClient({ ...base, baseUrl: 'https://m.example', apiVersions: { sql: '2024-1-1' } }); } catch (e) { refused = e.code + ' ' + e.message; }
      console.log(JSON.stringify({ sent, refused }));
    `;
    await writeFile(join(dir, 'versions-run.mjs'), script);
    const { stdout } = await run(process.execPath, ['versions-run.mjs'], { cwd: dir });
    const { sent, refused } = JSON.parse(stdout);
    expect(sent.slice(0, 4).map((url: string) => new URL(url).searchParams.get('api-version'))).toEqual([
      '2025-06-01',
      '2025-01-01',
      '2025-09-01-preview',
      '2024-01-01',
    ]);
    expect(sent.slice(4).map((url: string) => new URL(url).pathname.split('/companies')[0])).toEqual(['/api/v2.1', '/api/v2.0']);
    expect(refused).toMatch(/^invalid-argument .*apiVersions\.sql.*YYYY-MM-DD or YYYY-MM-DD-preview/);
  });

  it('types each client by the version it sends (tsc over test/fixtures/two-versions)', async () => {
    const check = async (where: string) => {
      await cp(join(import.meta.dirname, '../fixtures/two-versions'), join(where, 'fixture'), { recursive: true });
      await writeFile(
        join(where, 'tsconfig.fixture.json'),
        JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['src', 'generated/**/*.ts', 'fixture'], exclude: [] }),
      );
      return tsc7(where, 'tsconfig.fixture.json');
    };
    expect(await check(dir)).toBe('');
    // The check has teeth: the same file against the committed workspace (one version per
    // API) fails, on the lines that need the second versions.
    const plain = await workspaceCopy('versions-plain-');
    try {
      const committed = await check(plain.dir);
      expect(committed).toMatch(
        /fixture\/clients\.check\.ts\(\d+,\d+\): error TS\d+: .*estimatedAvailableAt|fixture\/clients\.check\.ts\(\d+,\d+\): error TS\d+: .*2025-06-01/,
      );
    } finally {
      await plain.remove();
    }
  }, 180_000);

  it('is listed on the docs landing page, newest first, the default marked, each version with its page', async () => {
    const html = await readFile(join(dir, 'generated/docs/index.html'), 'utf8');
    const at = (name: string) => html.indexOf(`<article class="doc" id="${name}"`);
    expect(at('sql-2025-09-01-preview')).toBeGreaterThan(0);
    expect(at('sql-2025-09-01-preview')).toBeLessThan(at('sql-2025-06-01'));
    expect(at('sql-2025-06-01')).toBeLessThan(at('sql-2025-01-01'));
    expect(at('businesscentral-v2.1')).toBeLessThan(at('businesscentral-v2.0'));
    const card = (name: string) => html.slice(at(name), html.indexOf('</article>', at(name)));
    expect(card('sql-2025-06-01')).toContain('class="badge default"');
    expect(card('sql-2025-01-01')).not.toContain('class="badge default"');
    expect(card('sql-2025-09-01-preview')).toContain('class="badge preview"');
    expect(card('businesscentral-v2.1')).toContain('class="badge default"');
    // What changed between consecutive versions, per API (npm run changes, between versions).
    const changes = html.slice(html.indexOf('id="changes-sql"'), html.indexOf('</details>', html.indexOf('id="changes-sql"')));
    expect(changes).toMatch(/2025-01-01 → 2025-06-01<\/span> <code>[\w-]+<\/code> [^<]*estimatedAvailableAt/);
    // Each later version named with its operations (issue 33).
    expect(changes).toMatch(/2025-01-01 → 2025-06-01<\/span> <code>version-added<\/code> version 2025-06-01 of [^<]*sql[^<]* was added with operation /);
    expect(html.slice(html.indexOf('id="changes-businesscentral"'))).toMatch(/v2\.0 → v2\.1<\/span> <code>[\w-]+<\/code> [^<]*rating/);
    expect(html).not.toContain('id="changes-authorization"');
    for (const page of ['sql-2025-01-01', 'sql-2025-06-01', 'sql-2025-09-01-preview', 'businesscentral-v2.0', 'businesscentral-v2.1']) {
      expect(await readFile(join(dir, `generated/docs/${page}.html`), 'utf8')).toContain('<title>');
    }
  });

  it("keeps the landing page's changes current after an edit: the edited API's report is redone, the others are reused", async () => {
    const entry = (apiName: string) => join(dir, `.cache/provider-api/docs-changes-${apiName}.json`);
    const vendorsBefore = await stat(entry('businesscentral'));
    const sqlBefore = await readFile(entry('sql'), 'utf8');
    await addProperty(
      join(dir, 'specs/resource-manager/Provider.Sql/2025-06-01/schemas/CheckNameAvailabilityResponse.yaml'),
      'renewalHint',
      'type: string\ndescription: When to ask again.',
    );
    const rebuilt = await runInProcess(dir, 'pipeline/build.mjs', '--no-compile');
    expect(rebuilt.code, rebuilt.output).toBe(0);
    const html = await readFile(join(dir, 'generated/docs/index.html'), 'utf8');
    const changes = html.slice(html.indexOf('id="changes-sql"'), html.indexOf('</details>', html.indexOf('id="changes-sql"')));
    expect(changes).toMatch(/2025-01-01 → 2025-06-01<\/span> <code>[\w-]+<\/code> [^<]*renewalHint/);
    expect(await readFile(entry('sql'), 'utf8')).not.toBe(sqlBefore);
    expect((await stat(entry('businesscentral'))).mtimeMs).toBe(vendorsBefore.mtimeMs);
    // The reused report says what the fresh one says: the same page as a build that
    // computes every report and page info again (none of the docs step's entries kept).
    const cache = join(dir, '.cache/provider-api');
    for (const file of await readdir(cache)) if (/^docs-(changes|info|landing)/.test(file)) await rm(join(cache, file));
    const cold = await runInProcess(dir, 'pipeline/build.mjs', '--no-compile');
    expect(cold.code, cold.output).toBe(0);
    expect(html).toBe(await readFile(join(dir, 'generated/docs/index.html'), 'utf8'));
  }, 120_000);
});

describe('a version the clients could not derive from', () => {
  // The clients check an untyped pin by its family's shape and send business data under
  // /api/<version>: a version of another shape would be refused at run time though the
  // package holds it, so generating refuses it, naming the redocly.yaml entry.
  it("is refused by generate when not shaped like its family's versions", async () => {
    // The one document the case versions (generate reads them all, whatever their width).
    const copy = await workspaceCopy('versions-shape-', { documents: [SOURCE_ROOTS.sql] });
    try {
      const before = await readFile(join(copy.dir, 'generated/client-manifest.ts'), 'utf8');
      await addVersion(copy.dir, { api: 'sql', from: 'specs/resource-manager/Provider.Sql/2025-01-01', to: '2025-06-01-beta' });
      const result = await runInProcess(copy.dir, 'pipeline/generate.mjs');
      expect(result.code).not.toBe(0);
      expect(result.output).toMatch(
        /redocly\.yaml:\d+:\d+ +error +api-version-shape +"sql@2025-06-01-beta": a resource-manager version is YYYY-MM-DD or YYYY-MM-DD-preview/,
      );
      // Nothing half-done: the manifest is as it was before.
      expect(await readFile(join(copy.dir, 'generated/client-manifest.ts'), 'utf8')).toBe(before);
    } finally {
      await copy.remove();
    }
  }, 120_000);
});
