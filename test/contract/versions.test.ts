// Several versions of one API, served by one mock. In a throw-away copy of
// the workspace: a second Provider.Sql version (2025-06-01, one new optional response
// property) and business-central v2.1 (its own /api/v2.1 prefix, one new vendor
// property), both added to redocly.yaml and generated; then the copy's own mock
// (`node scripts/mock.mjs`) serves every version at once. specs/ here never gains a
// second version: the source shows one.
import { execFile } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { validatorFor } from '../helpers/bundles.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';
import { spawnMock, type MockProcess } from './spawn-mock.js';
import { send, TOKEN, type RawRequest } from './support.js';

const SUB = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const COMPANY = '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f';
const VENDOR = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';

let copy: Awaited<ReturnType<typeof workspaceCopy>>;
let mock: MockProcess;

async function edit(file: string, change: (text: string) => string) {
  const text = await readFile(file, 'utf8');
  const next = change(text);
  if (next === text) throw new Error(`${file}: the edit changed nothing (the spec moved?)`);
  await writeFile(file, next);
}

beforeAll(async () => {
  copy = await workspaceCopy('mock-versions-');
  const { dir } = copy;
  const sql = join(dir, 'specs/resource-manager/Provider.Sql');
  await cp(join(sql, '2025-01-01'), join(sql, '2025-06-01'), { recursive: true });
  await edit(join(sql, '2025-06-01/openapi.yaml'), (t) => t.replace('version: 2025-01-01', 'version: 2025-06-01'));
  await edit(join(sql, '2025-06-01/parameters/api-version.yaml'), (t) => t.replaceAll('2025-01-01', '2025-06-01'));
  await edit(join(sql, '2025-06-01/schemas/CheckNameAvailabilityResponse.yaml'), (t) =>
    t.replace('properties:\n', 'properties:\n  suggestedName:\n    type: string\n    description: A free name close to the one checked (new in 2025-06-01).\n'),
  );
  const bc = join(dir, 'specs/business-central');
  await cp(join(bc, 'v2.0'), join(bc, 'v2.1'), { recursive: true });
  await edit(join(bc, 'v2.1/openapi.yaml'), (t) => t.replace('version: v2.0', 'version: v2.1').replaceAll('/api/v2.0', '/api/v2.1'));
  await edit(join(bc, 'v2.1/schemas/Vendor.yaml'), (t) => t.replace('properties:\n', 'properties:\n  vendorCategory:\n    type: string\n    description: New in v2.1.\n'));
  await edit(join(dir, 'redocly.yaml'), (t) =>
    t.replace(
      'apis:\n',
      'apis:\n' +
        '  sql@2025-06-01:\n    root: specs/resource-manager/Provider.Sql/2025-06-01/openapi.yaml\n    output: generated/bundled/sql-2025-06-01.yaml\n' +
        '  businesscentral@v2.1:\n    root: specs/business-central/v2.1/openapi.yaml\n    output: generated/bundled/businesscentral-v2.1.yaml\n',
    ),
  );
  await promisify(execFile)(process.execPath, ['scripts/generate.mjs'], { cwd: dir, timeout: 60_000 });
  mock = await spawnMock([], dir);
}, 90_000);

afterAll(async () => {
  await mock?.stop();
  await copy?.remove();
});

const nameCheck = (apiVersion: string, prefer?: string): RawRequest => ({
  method: 'POST',
  path: `/subscriptions/${SUB}/providers/Provider.Sql/checkNameAvailability?api-version=${apiVersion}`,
  headers: { 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
  body: JSON.stringify({ name: 'sales-db-west-02', type: 'Provider.Sql/servers' }),
});
const vendorUpdate = (version: string, prefer?: string): RawRequest => ({
  method: 'PATCH',
  path: `/api/${version}/companies(${COMPANY})/vendors(${VENDOR})`,
  headers: { authorization: TOKEN, 'content-type': 'application/json', 'if-match': '*', ...(prefer ? { prefer } : {}) },
  body: JSON.stringify({ displayName: 'Fabrikam' }),
});

/** The copy's bundle of one API and a check of a body against one of its schemas. */
async function schemaCheck(slug: string, schema: string) {
  const doc = parse(await readFile(join(copy.dir, 'generated/bundled', `${slug}.yaml`), 'utf8'));
  const validate = validatorFor(doc);
  return (body: unknown) => validate({ $ref: `#/components/schemas/${schema}` }, body);
}

describe('several versions of one API in one mock', () => {
  it('serves the operations of all seven documents', () => {
    expect(mock.stdout()).toMatch(/ {2}7 operations {2}ready in/);
  });

  it('resource management by api-version: each answer from, and valid against, its own version', async () => {
    const strict = { '2025-01-01': await schemaCheck('sql-2025-01-01', 'CheckNameAvailabilityResponse'), '2025-06-01': await schemaCheck('sql-2025-06-01', 'CheckNameAvailabilityResponse') };
    for (const version of ['2025-01-01', '2025-06-01'] as const) {
      const plain = await send(nameCheck(version), mock.url);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.json).toEqual({ name: 'sales-db-west-02', available: true });
      // Generated data fills every optional property of that version's schema.
      for (let i = 0; i < 5; i++) {
        const generated = await send(nameCheck(version, 'dynamic=true'), mock.url);
        expect(generated.status, generated.text).toBe(200);
        expect('suggestedName' in (generated.json as object), `${version}: suggestedName`).toBe(version === '2025-06-01');
        expect(strict[version](generated.json).ok, `${version}: valid against its own document`).toBe(true);
      }
    }
  });

  it('business data by prefix: each answer from its own version', async () => {
    for (const version of ['v2.0', 'v2.1']) {
      const plain = await send(vendorUpdate(version), mock.url);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.json).toMatchObject({ id: VENDOR, displayName: 'Fabrikam' });
      const generated = await send(vendorUpdate(version, 'dynamic=true'), mock.url);
      expect(generated.status, generated.text).toBe(200);
      expect('vendorCategory' in (generated.json as object), `${version}: vendorCategory`).toBe(version === 'v2.1');
    }
    const unserved = await send(vendorUpdate('v2.2'), mock.url);
    expect(unserved.status).toBe(404);
    // The answer names the versions that do serve this operation.
    expect((unserved.json as any).error).toMatchObject({ code: 'NotFound', message: expect.stringMatching(/served under \/api\/v2\.0, \/api\/v2\.1 /) });
    const nowhere = await send({ ...vendorUpdate('v2.2'), path: `/api/v2.2/companies(${COMPANY})/nothingHere` }, mock.url);
    expect(nowhere.status).toBe(404);
    expect((nowhere.json as any).error.message).not.toMatch(/served under/);
  });

  it('an api-version no document declares: 400 in the family model, listing the versions served', async () => {
    const response = await send(nameCheck('2024-01-01'), mock.url);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'InvalidApiVersionParameter' } });
    expect((response.json as any).error.message).toMatch(/'2024-01-01'.*2025-01-01, 2025-06-01/);
  });

  it('no api-version: the family error', async () => {
    const response = await send({ ...nameCheck('x'), path: nameCheck('x').path.replace(/\?.*/, '') }, mock.url);
    expect(response.status).toBe(400);
    expect((response.json as any).error).toMatchObject({ code: 'MissingApiVersionParameter' });
    expect((response.json as any).error.message).toMatch(/query parameter api-version is required.*2025-01-01, 2025-06-01/);
  });

  // The clients check a pin by its shape only (their types check it against the versions
  // the package holds): a well-formed version is sent as is, and the server answers.
  it('a client pinned to a version the package does not hold: sent as is, the server\'s answer returned', async () => {
    const base = { baseUrl: mock.url, token: 'any-token', retry: false as const };
    const check = (apiVersion: string) =>
      createResourceManagerClient({ ...base, apiVersions: { sql: apiVersion as '2025-01-01' } }).POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
        params: { path: { subscriptionId: SUB } },
        body: { name: 'sales-db-west-02', type: 'Provider.Sql/servers' },
      });
    // Served by the mock (this copy holds it), not by the package (one version of sql).
    const served = await check('2025-06-01');
    expect(served.ok).toBe(true);
    expect(new URL(served.response.url).searchParams.get('api-version')).toBe('2025-06-01');
    // Served by nobody: 400 in the family model, naming the versions served.
    const unserved = await check('2024-01-01');
    expect(unserved.ok).toBe(false);
    expect(unserved.response.status).toBe(400);
    expect(unserved.error).toMatchObject({ error: { code: 'InvalidApiVersionParameter', message: expect.stringMatching(/'2024-01-01'.*2025-01-01, 2025-06-01/) } });

    // Business data: the version is the path prefix, so an unserved one is a path nobody serves.
    const vendor = (version: string) =>
      createBusinessCentralClient({ ...base, apiVersions: { businesscentral: version as 'v2.0' } }).updateVendor({ companyId: COMPANY, vendorId: VENDOR, eTag: 'W/"stale"', vendor: { displayName: 'Fabrikam' } });
    const v21 = await vendor('v2.1');
    expect(new URL(v21.response.url).pathname).toBe(`/api/v2.1/companies(${COMPANY})/vendors(${VENDOR})`);
    expect(v21.response.status).toBe(412); // routed to v2.1's vendor behaviour: a stale eTag
    const v22 = await vendor('v2.2');
    expect(new URL(v22.response.url).pathname).toBe(`/api/v2.2/companies(${COMPANY})/vendors(${VENDOR})`);
    expect(v22.ok).toBe(false);
    expect(v22.response.status).toBe(404);
    expect(v22.error).toMatchObject({ error: { code: 'NotFound' } });
  });
});
