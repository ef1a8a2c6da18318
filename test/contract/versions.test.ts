// Several versions of one API, served by one mock. In a throw-away copy of
// the workspace: a new Provider.Sql version (one new optional response property) and a
// new business-central version (its own /api/vX.Y prefix, one new vendor property), both
// added to redocly.yaml and generated; then the copy's own mock (`node mock/cli.mjs`)
// serves every version at once. The new versions are dated or numbered after every
// version the workspace holds (2025-06-01 and v2.1 while it holds the source's), and
// what is expected of the others is read from generated/operations.ts, so the test holds
// in a workspace that has grown versions of its own.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { operations } from '../../generated/operations.js';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { validatorFor } from '../helpers/bundles.js';
import { readGeneratedConst } from '../helpers/generated.js';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';
import { spawnMock, type MockProcess } from './spawn-mock.js';
import { send, TOKEN, type RawRequest } from './support.js';

const SUB = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const COMPANY = '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f';
const VENDOR = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';
const SQL_OP = 'Servers_CheckNameAvailability';

/** The versions the workspace holds of what the test grows (from generated/operations.ts). */
const held = (apiName: string) => [...new Set(operations.filter((o) => o.apiName === apiName).map((o) => o.version as string))].sort();
const HELD_SQL = held('sql');
const HELD_BC = held('businesscentral');
// After every held version: 2025-06-01 and v2.1 next to the source's alone.
const NEW_SQL = ['2025-06-01', ...Array.from({ length: 50 }, (_, i) => `${2026 + i}-06-01`)].find((v) => HELD_SQL.every((h) => h < v))!;
const minorAfter = (versions: string[]) => {
  const newest = versions
    .map((v) => v.slice(1).split('.').map(Number))
    .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)
    .at(-1)!;
  return (step: number) => `v${newest[0]}.${newest[1]! + step}`;
};
const NEW_BC = minorAfter(HELD_BC)(1);
const UNSERVED_BC = minorAfter(HELD_BC)(2);
const UNSERVED_SQL = '1999-01-01';
/** The copy's operations (a bounded copy holds fewer versions than the workspace), after generate. */
let served: Array<{ api: string; apiName: string; operationId: string; version: string }> = [];
const vendorPrefixes = () => served.filter((o) => o.operationId === 'updateVendor').map((o) => `/api/${o.version}`);
const sqlServed = () =>
  served
    .filter((o) => o.apiName === 'sql' && o.operationId === SQL_OP)
    .map((o) => o.version)
    .sort()
    .join(', ');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

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
  await cp(join(sql, '2025-01-01'), join(sql, NEW_SQL), { recursive: true });
  await edit(join(sql, `${NEW_SQL}/openapi.yaml`), (t) => t.replace('version: 2025-01-01', `version: ${NEW_SQL}`));
  await edit(join(sql, `${NEW_SQL}/parameters/api-version.yaml`), (t) => t.replaceAll('2025-01-01', NEW_SQL));
  await edit(join(sql, `${NEW_SQL}/schemas/CheckNameAvailabilityResponse.yaml`), (t) =>
    t.replace('properties:\n', `properties:\n  suggestedName:\n    type: string\n    description: A free name close to the one checked (new in ${NEW_SQL}).\n`),
  );
  const bc = join(dir, 'specs/business-central');
  await cp(join(bc, 'v2.0'), join(bc, NEW_BC), { recursive: true });
  await edit(join(bc, `${NEW_BC}/openapi.yaml`), (t) => t.replace('version: v2.0', `version: ${NEW_BC}`).replaceAll('/api/v2.0', `/api/${NEW_BC}`));
  await edit(join(bc, `${NEW_BC}/schemas/Vendor.yaml`), (t) =>
    t.replace('properties:\n', `properties:\n  vendorCategory:\n    type: string\n    description: New in ${NEW_BC}.\n`),
  );
  await edit(join(dir, 'redocly.yaml'), (t) =>
    t.replace(
      'apis:\n',
      'apis:\n' +
        `  sql@${NEW_SQL}:\n    root: specs/resource-manager/Provider.Sql/${NEW_SQL}/openapi.yaml\n    output: generated/bundled/sql-${NEW_SQL}.yaml\n` +
        `  businesscentral@${NEW_BC}:\n    root: specs/business-central/${NEW_BC}/openapi.yaml\n    output: generated/bundled/businesscentral-${NEW_BC}.yaml\n`,
    ),
  );
  // `npm run generate` of the copy, in this process (test/helpers/in-process.ts).
  const generated = await runInProcess(dir, 'pipeline/generate.mjs');
  if (generated.code !== 0) throw new Error(`generate failed in the copy:\n${generated.output}`);
  served = await readGeneratedConst(dir, 'operations.ts', 'operations');
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
  it('serves the operations of every document, the two new ones included', () => {
    expect(served.filter((o) => o.api === `sql@${NEW_SQL}` || o.api === `businesscentral@${NEW_BC}`).length).toBeGreaterThanOrEqual(2);
    expect(mock.stdout()).toMatch(new RegExp(` {2}${served.length} operations {2}ready in`));
  });

  it('resource management by api-version: each answer from, and valid against, its own version', async () => {
    const strict: Record<string, (body: unknown) => { ok: boolean }> = {
      '2025-01-01': await schemaCheck('sql-2025-01-01', 'CheckNameAvailabilityResponse'),
      [NEW_SQL]: await schemaCheck(`sql-${NEW_SQL}`, 'CheckNameAvailabilityResponse'),
    };
    for (const version of ['2025-01-01', NEW_SQL]) {
      const plain = await send(nameCheck(version), mock.url);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.json).toEqual({ name: 'sales-db-west-02', available: true });
      // Generated data fills the optional properties of that version's schema: almost
      // always (Prism's json-schema-faker leaves one out about once in 300 answers, measured),
      // so the new property is looked for in any of the samples, and never in the old version's.
      const seen: boolean[] = [];
      for (let i = 0; i < 5; i++) {
        const generated = await send(nameCheck(version, 'dynamic=true'), mock.url);
        expect(generated.status, generated.text).toBe(200);
        seen.push('suggestedName' in (generated.json as object));
        expect(strict[version]!(generated.json).ok, `${version}: valid against its own document`).toBe(true);
      }
      expect(seen.some(Boolean), `${version}: suggestedName in a generated answer`).toBe(version === NEW_SQL);
    }
  });

  it('business data by prefix: each answer from its own version', async () => {
    for (const version of ['v2.0', NEW_BC]) {
      const plain = await send(vendorUpdate(version), mock.url);
      expect(plain.status, plain.text).toBe(200);
      expect(plain.json).toMatchObject({ id: VENDOR, displayName: 'Fabrikam' });
      // Any of five generated answers (an optional property is left out now and then, above).
      const seen: boolean[] = [];
      for (let i = 0; i < 5; i++) {
        const generated = await send(vendorUpdate(version, 'dynamic=true'), mock.url);
        expect(generated.status, generated.text).toBe(200);
        seen.push('vendorCategory' in (generated.json as object));
      }
      expect(seen.some(Boolean), `${version}: vendorCategory in a generated answer`).toBe(version === NEW_BC);
    }
    const unserved = await send(vendorUpdate(UNSERVED_BC), mock.url);
    expect(unserved.status).toBe(404);
    // The answer names the versions that do serve this operation.
    expect((unserved.json as any).error).toMatchObject({ code: 'NotFound', message: expect.stringMatching(/served under \/api\/v/) });
    const servedUnder = /served under (.*) \(the API versions served\)/.exec((unserved.json as any).error.message)![1]!.split(', ');
    expect(servedUnder.sort()).toEqual(vendorPrefixes().sort());
    const nowhere = await send({ ...vendorUpdate(UNSERVED_BC), path: `/api/${UNSERVED_BC}/companies(${COMPANY})/nothingHere` }, mock.url);
    expect(nowhere.status).toBe(404);
    expect((nowhere.json as any).error.message).not.toMatch(/served under/);
  });

  it('an api-version no document declares: 400 in the family model, listing the versions served', async () => {
    const response = await send(nameCheck(UNSERVED_SQL), mock.url);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'InvalidApiVersionParameter' } });
    expect((response.json as any).error.message).toMatch(new RegExp(`'${UNSERVED_SQL}'.*${escapeRegExp(sqlServed())}`));
  });

  it('no api-version: the family error', async () => {
    const response = await send({ ...nameCheck('x'), path: nameCheck('x').path.replace(/\?.*/, '') }, mock.url);
    expect(response.status).toBe(400);
    expect((response.json as any).error).toMatchObject({ code: 'MissingApiVersionParameter' });
    expect((response.json as any).error.message).toMatch(new RegExp(`query parameter api-version is required.*${escapeRegExp(sqlServed())}`));
  });

  // The clients check a pin by its shape only (their types check it against the versions
  // the package holds): a well-formed version is sent as is, and the server answers.
  it("a client pinned to a version the package does not hold: sent as is, the server's answer returned", async () => {
    const base = { baseUrl: mock.url, token: 'any-token', retry: false as const };
    const check = (apiVersion: string) =>
      createResourceManagerClient({ ...base, apiVersions: { sql: apiVersion as '2025-01-01' } }).POST(
        '/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability',
        {
          params: { path: { subscriptionId: SUB } },
          body: { name: 'sales-db-west-02', type: 'Provider.Sql/servers' },
        },
      );
    // Served by the mock (this copy holds it), not by the package.
    const served = await check(NEW_SQL);
    expect(served.ok).toBe(true);
    expect(new URL(served.response.url).searchParams.get('api-version')).toBe(NEW_SQL);
    // Served by nobody: 400 in the family model, naming the versions served.
    const unserved = await check(UNSERVED_SQL);
    expect(unserved.ok).toBe(false);
    expect(unserved.response.status).toBe(400);
    expect(unserved.error).toMatchObject({
      error: { code: 'InvalidApiVersionParameter', message: expect.stringMatching(new RegExp(`'${UNSERVED_SQL}'.*${escapeRegExp(sqlServed())}`)) },
    });

    // Business data: the version is the path prefix, so an unserved one is a path nobody serves.
    const vendor = (version: string) =>
      createBusinessCentralClient({ ...base, apiVersions: { businesscentral: version as 'v2.0' } }).updateVendor({
        companyId: COMPANY,
        vendorId: VENDOR,
        eTag: 'W/"stale"',
        vendor: { displayName: 'Fabrikam' },
      });
    const v21 = await vendor(NEW_BC);
    expect(new URL(v21.response.url).pathname).toBe(`/api/${NEW_BC}/companies(${COMPANY})/vendors(${VENDOR})`);
    expect(v21.response.status).toBe(412); // routed to the new version's vendor behaviour: a stale eTag
    const v22 = await vendor(UNSERVED_BC);
    expect(new URL(v22.response.url).pathname).toBe(`/api/${UNSERVED_BC}/companies(${COMPANY})/vendors(${VENDOR})`);
    expect(v22.ok).toBe(false);
    expect(v22.response.status).toBe(404);
    expect(v22.error).toMatchObject({ error: { code: 'NotFound' } });
  });
});
