// The job users do every week, done the way specs/README.md says and checked end to end on
// the growth files' one copy and build (test/growth/grown.ts, where the other recipes grow
// it too, as contributors do): an optional field, GET and DELETE of a vendor in v2.0,
// POST shipmentMethods in v2.0 next to v1.0's, a nextLink-paged list in a resource-
// management document, a new api-version of sql (test/growth/edits.mjs). After them, with
// no edit outside specs/ and redocly.yaml: the build is green; the change report names
// every change, each moved unpinned target included; the clients send and are typed for
// every new operation; the mock serves each by its family's conventions with state shared
// across operations; the docs show them. An edit the workspace already has (a contributor
// made it) is skipped by edits.mjs, and the change report is then not asked to name it; the
// URLs the clients send are read from the copy's generated client manifest.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatedConst, readGeneratedConst } from '../helpers/generated.js';
import { runInProcess } from '../helpers/in-process.js';
import { tsc7 } from '../helpers/tsc7.js';
// @ts-expect-error: plain ESM module without types
import { GROWTH } from './edits.mjs';
import { grownWorkspace, renamedComponents } from './grown.js';
// @ts-expect-error: plain ESM module without types
import { targetOf } from '../../pipeline/manifest.mjs';

const run = promisify(execFile);
let dir: string;
let build: { code: number; output: string };
let applied: Record<string, boolean>;
let sqlVersion: string;
let entitySet: { plural: string; keyParam: string; set: string; key: string; list: string; get: string };

/**
 * What an operation's documentation says it answers when done: the first example of its
 * 200 JSON body, read from the copy's bundle of `api@version` (its local $refs followed).
 */
async function documented200(api: string, version: string, path: string, method: string): Promise<unknown> {
  const bundle = parse(await readFile(join(dir, `generated/bundled/${api}-${version}.yaml`), 'utf8'));
  const at = (node: any): any =>
    typeof node?.$ref === 'string' && node.$ref.startsWith('#/')
      ? at(
          node.$ref
            .slice(2)
            .split('/')
            .reduce((parent: any, key: string) => parent?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], bundle),
        )
      : node;
  const media = at(at(at(bundle.paths[path])[method].responses['200']).content['application/json']);
  const [example] = Object.values<any>(media.examples ?? {});
  return at(example).value;
}

/**
 * The header parameters an operation of a bundled document requires (names as declared):
 * a workspace grown before these edits may hold the operation already, with its own shape
 * (a vendor DELETE that requires If-Match, as the vendor PATCH does), and the edits keep it.
 */
async function requiredHeaders(api: string, version: string, path: string, method: string): Promise<string[]> {
  const bundle = parse(await readFile(join(dir, `generated/bundled/${api}-${version}.yaml`), 'utf8'));
  const at = (node: any): any =>
    typeof node?.$ref === 'string' && node.$ref.startsWith('#/')
      ? at(
          node.$ref
            .slice(2)
            .split('/')
            .reduce((parent: any, key: string) => parent?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], bundle),
        )
      : node;
  const item = at(bundle.paths[path]);
  return [...(item.parameters ?? []), ...(item[method].parameters ?? [])]
    .map(at)
    .filter((p: any) => p.in === 'header' && p.required === true)
    .map((p: any) => p.name);
}

let renamedBefore: Record<string, string[]>;
beforeAll(async () => {
  ({ dir, build, renamedBefore, applied, sqlVersion, entitySet } = await grownWorkspace());
}, 240_000);

describe('growing the workspace by the recipe', () => {
  it('builds green with no edit outside specs/ and redocly.yaml', async () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
    // The recipe's files share the document's components: the edits bundle no name twice
    // (`subscriptionId-2`) where the workspace had none before them.
    expect(await renamedComponents(dir)).toEqual(renamedBefore);
  });

  it('the change report names every change, and every operation whose unpinned target moved', async () => {
    const { stdout } = await runInProcess(dir, 'changes/cli.mjs', '--json');
    const changes: Array<Record<string, string>> = JSON.parse(stdout);
    const has = (match: Record<string, string>) => expect(changes).toContainEqual(expect.objectContaining(match));
    if (applied.field) {
      has({ api: 'businesscentral', version: 'v2.0', rule: 'optional-request-property-added', operation: 'updateVendor' });
      has({ api: 'businesscentral', version: 'v2.0', rule: 'response-property-added', operation: 'updateVendor' });
    }
    for (const op of [GROWTH.getVendor, GROWTH.deleteVendor])
      if (applied[op.operationId]) has({ api: 'businesscentral', version: 'v2.0', rule: 'operation-added', operation: op.operationId });
    if (applied.shipmentMethods) has({ api: 'businesscentral', version: 'v2.0', rule: 'operation-added', operation: 'createShipmentMethod' });
    if (applied.listUsage) has({ api: 'containerinstance', rule: 'operation-added', operation: GROWTH.listUsage.operationId });
    for (const operation of [entitySet.list, entitySet.get]) has({ api: 'businesscentral', version: 'v2.0', rule: 'operation-added', operation });
    if (applied.resourceType)
      for (const operation of GROWTH.servers.operations) has({ api: 'sql', version: GROWTH.servers.version, rule: 'operation-added', operation });
    // The moves: shipment methods to v2.0, the name check to the new api-version; compatible, so warnings.
    const moved = changes.filter((c) => c.rule === 'unpinned-target-moved');
    if (applied.shipmentMethods)
      expect(moved).toContainEqual(expect.objectContaining({ api: 'businesscentral', version: 'v2.0', operation: 'createShipmentMethod', level: 'warning' }));
    expect(moved).toContainEqual(expect.objectContaining({ api: 'sql', version: sqlVersion, operation: GROWTH.sqlVersion.operationId, level: 'warning' }));
    for (const c of moved) expect(c.message).toMatch(/^unpinned clients now send \S+ to .+ instead of .+/);
    // And the text form says the same.
    const text = (await runInProcess(dir, 'changes/cli.mjs')).stdout;
    expect(text).toMatch(new RegExp(`unpinned-target-moved +${GROWTH.sqlVersion.operationId} .*${sqlVersion}`));
    if (applied.shipmentMethods) {
      // From where the base commit's catalogue sent it: v1.0 here, the newest v1.x of a workspace that has grown some.
      const base = generatedConst((await run('git', ['show', 'HEAD:generated/operations.ts'], { cwd: dir })).stdout, 'catalogue');
      const from = targetOf(base['business-central'].businesscentral.operations[`POST ${GROWTH.createShipmentMethod.path}`]);
      expect(text).toMatch(new RegExp(`unpinned-target-moved +createShipmentMethod .*to /api/v2\\.0 instead of /api/${from.replaceAll('.', '\\.')}[;\\s]`));
    }
  });

  it('the clients send every new operation where the documents say, and are typed for it', async () => {
    // The vendor DELETE with the headers its document requires (none, as the edits write it).
    const deleteHeaders = await requiredHeaders('businesscentral', 'v2.0', GROWTH.deleteVendor.path, 'delete');
    const deleteParams = deleteHeaders.length ? `{ path, header: { ${deleteHeaders.map((name) => `'${name}': 'W/"1"'`).join(', ')} } }` : '{ path }';
    const check = `
      import { createBusinessCentralClient, createResourceManagerClient } from './src/index.js';
      const sent: string[] = [];
      const fetch = async (request: Request) => (sent.push(request.method + ' ' + request.url), new Response('{"value":[]}', { status: 200, headers: { 'Content-Type': 'application/json' } }));
      const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', fetch, retry: false });
      const arm = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', fetch, retry: false });
      // The new field is v2.0's: a client pinned to it is typed with it (the default client
      // is typed by the newest version of each operation, which in a workspace with a newer
      // business-data version than v2.0 has no such field).
      const grown = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', fetch, retry: false, apiVersions: { businesscentral: 'v2.0' } });
      const path = { company_id: 'c', vendor_id: '00000000-0000-0000-0000-000000000001' };
      const read = await bc.GET('${GROWTH.getVendor.path}', { params: { path } });
      if (read.ok) { const name: string | undefined = read.data.remitToName; void name; }
      await bc.DELETE('${GROWTH.deleteVendor.path}', { params: ${deleteParams} });
      const created = await bc.POST('${GROWTH.createShipmentMethod.path}', { params: { path: { company_id: 'c' } }, body: { code: 'EXW' } });
      if (created.ok) { const code: string | undefined = created.data.code; void code; }
      await grown.patchWithETag('${GROWTH.getVendor.path}', { params: { path }, eTag: 'W/"1"', body: { remitToName: 'Fabrikam' } });
      // @ts-expect-error a field no version of Vendor has
      await bc.patchWithETag('${GROWTH.getVendor.path}', { params: { path }, eTag: 'W/"1"', body: { nope: 1 } });
      const customer = await bc.GET('${entitySet.key}', { params: { path: { company_id: 'c', ${entitySet.keyParam}: '5d115c9c-44e3-ea11-bb43-000d3a2feca1' } } });
      if (customer.ok) { const shown: string | undefined = customer.data.displayName; void shown; }
      for await (const listed of bc.listAll('${entitySet.set}', { params: { path: { company_id: 'c' }, query: { $filter: "startswith(displayName,'A')", $orderby: 'displayName desc', $top: 5 } } })) {
        const shown: string | undefined = listed.displayName; void shown;
      }
      // @ts-expect-error $top is an integer, as the shared parameter declares it (never iterated: nothing sent)
      bc.listAll('${entitySet.set}', { params: { path: { company_id: 'c' }, query: { $top: '5' } } });
      for await (const usage of arm.listAll('${GROWTH.listUsage.path}', { params: { path: { subscriptionId: 's', location: 'westeurope' } } })) {
        const used: number | undefined = usage.currentValue; void used;
      }
      await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
      console.log(JSON.stringify(sent));
    `;
    await writeFile(join(dir, 'growth-check.ts'), check);
    await writeFile(
      join(dir, 'tsconfig.growth.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['src', 'generated/**/*.ts', 'growth-check.ts'], exclude: [] }),
    );
    expect(await tsc7(dir, 'tsconfig.growth.json')).toBe('');
    // The same calls at run time, through the copy's compiled package.
    const js = check.replace(/'\.\/src\/index\.js'/, "'./dist/src/index.js'").replace(/: (string\[\]|Request|string \| undefined|number \| undefined)/g, '');
    await writeFile(join(dir, 'growth-run.mjs'), js);
    const sent: string[] = JSON.parse((await run(process.execPath, ['growth-run.mjs'], { cwd: dir })).stdout);
    // Where each goes: the version the copy's generated manifest names for it (v2.0 and
    // 2025-09-01 unless the workspace has grown newer ones), the new sql api-version.
    // (the catalogue's versions of each operation, newest non-preview: what the manifest derives or lists).
    const catalogue = await readGeneratedConst(dir, 'operations.ts', 'catalogue');
    const target = (family: string, api: string, key: string): string => targetOf(catalogue[family][api].operations[key]);
    const bc = (method: string, path: string) => target('business-central', 'businesscentral', `${method} ${path}`);
    const aci = target('resource-manager', 'containerinstance', `GET ${GROWTH.listUsage.path}`);
    expect(target('resource-manager', 'sql', `POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability`)).toBe(sqlVersion);
    const vendor = '/companies(c)/vendors(00000000-0000-0000-0000-000000000001)';
    expect(sent).toEqual([
      `GET https://b.example/api/${bc('GET', GROWTH.getVendor.path)}${vendor}`,
      `DELETE https://b.example/api/${bc('DELETE', GROWTH.deleteVendor.path)}${vendor}`,
      `POST https://b.example/api/${bc('POST', GROWTH.createShipmentMethod.path)}/companies(c)/shipmentMethods`,
      `PATCH https://b.example/api/v2.0${vendor}`,
      `PATCH https://b.example/api/${bc('PATCH', GROWTH.getVendor.path)}${vendor}`,
      `GET https://b.example/api/${bc('GET', entitySet.key)}/companies(c)/${entitySet.plural}(5d115c9c-44e3-ea11-bb43-000d3a2feca1)`,
      `GET https://b.example/api/${bc('GET', entitySet.set)}/companies(c)/${entitySet.plural}?$filter=startswith(displayName%2C%27A%27)&$orderby=displayName%20desc&$top=5`,
      `GET https://m.example/subscriptions/s/providers/Provider.ContainerInstance/locations/westeurope/usages?api-version=${aci}`,
      `POST https://m.example/subscriptions/s/providers/Provider.Sql/checkNameAvailability?api-version=${sqlVersion}`,
    ]);
    // The edits' own versions, where nothing newer declares them.
    if (applied.shipmentMethods) expect(bc('POST', GROWTH.createShipmentMethod.path)).not.toBe('v1.0');
  }, 120_000);

  it('the mock serves every new operation, with state shared across operations', async () => {
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      const auth = { Authorization: 'Bearer t', 'Content-Type': 'application/json' };
      const vendor = `${mock.url}/api/v2.0/companies(c1)/vendors(6e2a0b1c-8d4f-4a5e-9b3c-2f1d0e9a8b7c)`;
      const first = await fetch(vendor, { headers: auth });
      expect(first.status).toBe(200);
      const tag = first.headers.get('etag')!;
      expect(tag).toBeTruthy();
      const patched = await fetch(vendor, { method: 'PATCH', headers: { ...auth, 'If-Match': tag }, body: JSON.stringify({ remitToName: 'Fabrikam Ltd' }) });
      expect(patched.status).toBe(200);
      const newTag = patched.headers.get('etag');
      expect(newTag).not.toBe(tag);
      const reread = await fetch(vendor, { headers: auth });
      expect(reread.status).toBe(200);
      expect(reread.headers.get('etag')).toBe(newTag);
      expect(await reread.json()).toMatchObject({ id: '6e2a0b1c-8d4f-4a5e-9b3c-2f1d0e9a8b7c', remitToName: 'Fabrikam Ltd' });
      // With the current tag: a DELETE that requires If-Match (a grown workspace's own) takes it too.
      expect((await fetch(vendor, { method: 'DELETE', headers: { ...auth, 'If-Match': newTag! } })).status).toBe(204);
      expect((await fetch(vendor, { headers: auth })).status).toBe(404);
      const shipment = await fetch(`${mock.url}/api/v2.0/companies(c1)/shipmentMethods`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ code: 'EXW', displayName: 'Ex Works' }),
      });
      expect(shipment.status).toBe(201);
      expect(await shipment.json()).toMatchObject({ code: 'EXW', displayName: 'Ex Works', id: expect.any(String) });
      const usages = await fetch(
        `${mock.url}${GROWTH.listUsage.path.replace('{subscriptionId}', '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11').replace('{location}', 'westeurope')}?api-version=${GROWTH.listUsage.version}`,
        { headers: auth },
      );
      expect(usages.status).toBe(200);
      expect(await usages.json()).toMatchObject({ value: expect.any(Array) });
      const check = await fetch(
        `${mock.url}/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=${sqlVersion}`,
        {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: 'growth-server', type: 'Provider.Sql/servers' }),
        },
      );
      expect(check.status).toBe(200);
      expect(await check.json()).toMatchObject({ name: 'growth-server', available: true });
      // The new entity: a key never seen reads as its example; the set lists what the store holds.
      const customer = await fetch(`${mock.url}/api/v2.0/companies(c1)/${entitySet.plural}(5d115c9c-44e3-ea11-bb43-000d3a2feca1)`, { headers: auth });
      expect(customer.status).toBe(200);
      expect(customer.headers.get('etag')).toBeTruthy();
      expect(await customer.json()).toMatchObject({ id: '5d115c9c-44e3-ea11-bb43-000d3a2feca1' });
      const customers = await fetch(`${mock.url}/api/v2.0/companies(c1)/${entitySet.plural}`, { headers: auth });
      expect(customers.status).toBe(200);
      expect(await customers.json()).toMatchObject({ value: [expect.objectContaining({ id: '5d115c9c-44e3-ea11-bb43-000d3a2feca1' })] });
      // Its list answers the query options it declares, a page at a time, and refuses one it does not.
      mock.seed({
        entities: ['Alpine', 'Adatum', 'Bravo', 'Acme'].map((displayName, i) => ({
          company: 'c1',
          set: entitySet.plural,
          entity: { id: `00000000-0000-4000-8000-00000000000${i}`, displayName },
        })),
        pageSizes: { [entitySet.plural]: 2 },
      });
      const names: string[] = [];
      let next: string | undefined =
        `${mock.url}/api/v2.0/companies(c1)/${entitySet.plural}?$filter=${encodeURIComponent("startswith(displayName,'A')")}&$orderby=displayName%20desc&$count=true`;
      while (next) {
        const page: Response = await fetch(next, { headers: auth });
        expect(page.status).toBe(200);
        const body = await page.json();
        expect(body['@odata.count']).toBe(4);
        names.push(...body.value.map((c: { displayName: string }) => c.displayName));
        next = body['@odata.nextLink'];
      }
      expect(names).toEqual(['Alpine', 'Adatum Corporation', 'Adatum', 'Acme']);
      expect((await fetch(`${mock.url}/api/v2.0/companies(c1)/${entitySet.plural}?$expand=lines`, { headers: auth })).status).toBe(400);
      // The copy's client walks the same query with listAll: filtered, ordered, every page (one entity a page here).
      const { createBusinessCentralClient } = await import(join(dir, 'dist/src/index.js'));
      const client = createBusinessCentralClient({ baseUrl: mock.url, token: 't' });
      const before = mock.requests.length;
      const walked: string[] = [];
      const query = { $filter: "startswith(displayName,'A') and displayName ne 'Acme'", $orderby: 'displayName' };
      for await (const listed of client.listAll(entitySet.set, { params: { path: { company_id: 'c1' }, query }, headers: { Prefer: 'odata.maxpagesize=1' } }))
        walked.push(listed.displayName);
      expect(walked).toEqual(['Adatum', 'Adatum Corporation', 'Alpine']);
      expect(mock.requests.length - before, 'one request a page').toBe(3);
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('the mock plays the new resource type: create and wait, read, list, patch, its action, children, delete and wait, across api-versions', async () => {
    if (!applied.resourceType) return;
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      const auth = { Authorization: 'Bearer t', 'Content-Type': 'application/json' };
      const call = async (url: string, method = 'GET', body?: unknown) => {
        const response = await fetch(url, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
      };
      const { server, byResourceGroup, bySubscription, failover, database, databases, version } = GROWTH.servers;
      const fill = (template: string, v: string, values: Record<string, string> = {}) =>
        `${mock.url}${template.replace(/\{(\w+)\}/g, (_, name: string) => (({ subscriptionId: '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11', resourceGroupName: 'rg-growth', serverName: 'growth-server', databaseName: 'orders', ...values }) as Record<string, string>)[name]!)}?api-version=${v}`;
      const routes = Object.fromEntries(mock.routes.filter((r: any) => r.version === version).map((r: any) => [r.operationId, r.convention]));
      expect(routes).toMatchObject({
        Servers_CreateOrUpdate: 'arm-put',
        Servers_Get: 'arm-read',
        Servers_Update: 'arm-patch',
        Servers_Delete: 'arm-delete',
        Servers_List: 'arm-list',
        Servers_Failover: 'arm-action',
        Databases_ListByServer: 'arm-list',
      });

      // Create (long-running) through the newest api-version, and wait on the monitor.
      const created = await call(fill(server, sqlVersion), 'PUT', {
        location: 'northeurope',
        tags: { team: 'growth' },
        properties: { administratorLogin: 'admin' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'growth-server',
        type: 'Provider.Sql/servers',
        location: 'northeurope',
        properties: { provisioningState: 'Creating' },
      });
      const monitor = created.headers.get('azure-asyncoperation')!;
      expect(new URL(monitor).origin).toBe(mock.url);
      expect((await call(monitor)).body.status).toBe('Succeeded');
      // Read back what was sent, through the other api-version (one store).
      expect((await call(fill(server, version))).body).toMatchObject({
        location: 'northeurope',
        tags: { team: 'growth' },
        properties: { administratorLogin: 'admin', provisioningState: 'Succeeded' },
      });
      const listed = async (url: string) => (await call(url)).body.value.map((s: { name: string }) => s.name);
      expect(await listed(fill(byResourceGroup, version))).toEqual(['growth-server']);
      // Every page of the subscription's list (it holds whatever the documents document too).
      const everyPage = async (url: string) => {
        const names: string[] = [];
        for (let next: string | undefined = url; next; ) {
          const page: { value: Array<{ name: string }>; nextLink?: string } = (await call(next)).body;
          names.push(...page.value.map((s: { name: string }) => s.name));
          next = page.nextLink;
        }
        return names;
      };
      expect(await everyPage(fill(bySubscription, version))).toContain('growth-server');
      expect((await call(fill(server, version), 'PATCH', { tags: { owner: 'me' } })).body.tags).toEqual({ team: 'growth', owner: 'me' });
      // The name check sees it.
      const check = await call(
        `${mock.url}/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=${version}`,
        'POST',
        { name: 'growth-server', type: 'Provider.Sql/servers' },
      );
      expect(check.body).toMatchObject({ available: false, reason: 'AlreadyExists' });
      // The action (a POST one segment below the server), long-running: 404 for a server not
      // stored; on the one created, 202 with the Location (and Retry-After) its 202 declares,
      // on the mock's origin, which answers the documented 200 once the operation is done.
      // An action is not a write: the server's provisioningState stays.
      const documentedFailover = await documented200('sql', version, failover, 'post');
      expect(documentedFailover).toEqual(expect.any(Object));
      const ghost = await call(fill(failover, version, { serverName: 'no-such-server' }), 'POST');
      expect(ghost.status).toBe(404);
      expect(ghost.body.error.code).toBe('ResourceNotFound');
      const failingOver = await call(fill(failover, version), 'POST');
      expect(failingOver.status).toBe(202);
      expect(failingOver.body).toBeUndefined();
      expect(failingOver.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(failingOver.headers.get('azure-asyncoperation'), 'its 202 declares no status monitor').toBeNull();
      const resultUrl = failingOver.headers.get('location')!;
      expect(new URL(resultUrl).origin).toBe(mock.url);
      const failedOver = await call(resultUrl);
      expect(failedOver.status).toBe(200);
      expect(failedOver.body).toEqual(documentedFailover);
      expect((await call(fill(server, version))).body.properties.provisioningState).toBe('Succeeded');
      // A child resource: under a missing parent 404, under the server created.
      expect((await call(fill(database, version, { serverName: 'no-such-server' }), 'PUT', { properties: {} })).body.error.code).toBe('ParentResourceNotFound');
      expect((await call(fill(database, version), 'PUT', { properties: { collation: 'x' } })).status).toBe(201);
      expect(await listed(fill(databases, version))).toEqual(['orders']);
      // A failed operation, from the test API.
      mock.longRunning({ outcome: 'Failed', times: 1 });
      const failing = await call(fill(server, version, { serverName: 'doomed-server' }), 'PUT', { location: 'westeurope' });
      expect((await call(failing.headers.get('azure-asyncoperation')!)).body).toMatchObject({ status: 'Failed', error: { code: 'OperationFailed' } });
      // Delete (long-running) and wait on Location, then 404.
      const deleting = await call(fill(server, version), 'DELETE');
      expect(deleting.status).toBe(202);
      expect((await call(deleting.headers.get('location')!)).status).toBe(204);
      expect((await call(fill(server, version))).body.error.code).toBe('ResourceNotFound');
      // The recipe's scenario, copied with the type, runs against the mock; each
      // operation takes two polls, so both waits poll (retry) once before the end.
      mock.reset();
      mock.longRunning({ polls: 2 });
      const { runScenarios } = await import(join(dir, 'contract/scenarios.mjs'));
      const [result] = await runScenarios({ root: dir, server: mock.url, token: 'growth-token', files: [join(dir, GROWTH.servers.scenario)] });
      const ran = result.steps.filter((s: any) => s.ran).map((s: any) => `${s.stepId} ${s.status}`);
      expect(ran).toEqual([
        'createServer 201',
        'waitCreated 200',
        'waitCreated 200',
        'readServer 200',
        'listServers 200',
        'deleteServer 202',
        'waitDeleted 200',
        'waitDeleted 404',
      ]);
      expect(result.passed).toBe(true);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('the clients create and wait, act and wait, read, list every page, patch, delete and wait on the new resource type, typed, against the mock', async () => {
    if (!applied.resourceType) return;
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      const { server, byResourceGroup, failover } = GROWTH.servers;
      // Three servers a page apart (page size 1), each operation two polls long.
      mock.seed({ resourcePageSize: 1 });
      mock.longRunning({ polls: 2, retryAfter: 0 });
      const program = `
        import { ClientError, createResourceManagerClient } from './src/index.js';
        const arm = createResourceManagerClient({ baseUrl: process.argv[2]!, token: 'growth-token', retry: false });
        const path = { subscriptionId: '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11', resourceGroupName: 'rg-client', serverName: 'client-server' };
        const out: unknown[] = [];
        const created = await arm.beginAndWait('PUT', '${server}', { params: { path }, body: { location: 'northeurope', tags: { team: 'client' } }, pollIntervalMs: 0 });
        const state: string | undefined = created.properties?.provisioningState;
        const id: string | undefined = created.id;
        out.push(['created', created.name, created.location, state, id]);
        for (const name of ['client-b', 'client-c']) await arm.beginAndWait('PUT', '${server}', { params: { path: { ...path, serverName: name } }, body: { location: 'westeurope' }, pollIntervalMs: 0 });
        // Read-only where the referenced schema says so (ProvisioningState.yaml): no request body takes it (never called).
        // @ts-expect-error provisioningState is read-only
        void (() => arm.beginAndWait('PUT', '${server}', { params: { path }, body: { location: 'westeurope', properties: { provisioningState: 'Succeeded' } } }));
        // The action: started, waited on (Location), resolved with its result, typed as its 200.
        const failedOver = await arm.beginAndWait('POST', '${failover}', { params: { path }, pollIntervalMs: 0 });
        const region: string | undefined = failedOver.primaryRegion;
        // @ts-expect-error a failover's result is not the server: it has no location
        void failedOver.location;
        out.push(['failedOver', failedOver, region]);
        const read = await arm.GET('${server}', { params: { path } });
        if (read.ok) out.push(['read', read.data.tags]);
        const names: string[] = [];
        for await (const item of arm.listAll('${byResourceGroup}', { params: { path: { subscriptionId: path.subscriptionId, resourceGroupName: 'rg-client' } } })) {
          const name: string | undefined = item.name;
          names.push(name ?? '');
        }
        out.push(['listed', names.sort()]);
        const patched = await arm.PATCH('${server}', { params: { path }, body: { tags: { owner: 'me' } } });
        if (patched.ok) out.push(['patched', patched.data.tags]);
        const gone: undefined = await arm.beginAndWait('DELETE', '${server}', { params: { path }, pollIntervalMs: 0 });
        out.push(['deleted', gone]);
        const after = await arm.GET('${server}', { params: { path } });
        out.push(['after', after.response.status]);
        console.log(JSON.stringify(out));
      `;
      await writeFile(join(dir, 'growth-lro.ts'), program);
      await writeFile(
        join(dir, 'tsconfig.growth-lro.json'),
        JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['src', 'generated/**/*.ts', 'growth-lro.ts'], exclude: [] }),
      );
      expect(await tsc7(dir, 'tsconfig.growth-lro.json')).toBe('');
      const js = program
        .replace("'./src/index.js'", "'./dist/src/index.js'")
        .replace(/process\.argv\[2\]!/, 'process.argv[2]')
        .replace(/: (unknown\[\]|string\[\]|string \| undefined|undefined) =/g, ' =');
      await writeFile(join(dir, 'growth-lro.mjs'), js);
      const out = JSON.parse((await run(process.execPath, ['growth-lro.mjs', mock.url], { cwd: dir })).stdout);
      // Unpinned, the client sends the action to the newest sql version: its documented result.
      const documentedFailover: any = await documented200('sql', sqlVersion, failover, 'post');
      expect(documentedFailover).toEqual(expect.any(Object));
      expect(out).toEqual([
        [
          'created',
          'client-server',
          'northeurope',
          'Succeeded',
          expect.stringMatching(/\/resourceGroups\/rg-client\/providers\/Provider\.Sql\/servers\/client-server$/i),
        ],
        ['failedOver', documentedFailover, documentedFailover.primaryRegion],
        ['read', { team: 'client' }],
        ['listed', ['client-b', 'client-c', 'client-server']],
        ['patched', { team: 'client', owner: 'me' }],
        ['deleted', null],
        ['after', 404],
      ]);
      // Each wait polled: two polls per long-running operation, on the mock's own origin.
      const isPoll = (r: any) => /\/operation(Statuses|Results)\//.test(r.path);
      const polls = mock.requests.filter(isPoll);
      // 5 long-running operations (3 PUTs, the failover, 1 DELETE), each polled until its second poll.
      expect(polls.length).toBeGreaterThanOrEqual(10);
      // The failover was waited on through its Location (operationResults), the only monitor its 202 declares.
      const started = mock.requests.findIndex((r: any) => r.method === 'POST' && r.operationId === 'Servers_Failover');
      expect(mock.requests[started]?.status).toBe(202);
      const end = mock.requests.findIndex((r: any, i: number) => i > started && !isPoll(r));
      const waited = mock.requests.slice(started + 1, end);
      expect(waited.map((r: any) => `${r.method} ${r.path.split('/').at(-2)} ${r.status}`)).toEqual(['GET operationResults 202', 'GET operationResults 200']);
    } finally {
      await mock.close();
    }
  }, 120_000);

  it('the docs show every new operation and version', async () => {
    const page = await readFile(join(dir, 'generated/docs/businesscentral-v2.0.html'), 'utf8');
    const added = [GROWTH.getVendor.operationId, GROWTH.deleteVendor.operationId].filter((id) => applied[id]);
    for (const id of [...added, ...(applied.shipmentMethods ? ['createShipmentMethod'] : []), entitySet.list, entitySet.get, 'updateVendor'])
      expect(page, id).toContain(id);
    if (applied.listUsage)
      expect(await readFile(join(dir, 'generated/docs/containerinstance-2025-09-01.html'), 'utf8')).toContain(GROWTH.listUsage.operationId);
    if (applied.resourceType) {
      const sql = await readFile(join(dir, `generated/docs/sql-${GROWTH.servers.version}.html`), 'utf8');
      for (const id of GROWTH.servers.operations) expect(sql, id).toContain(id);
      // The long-running operations' samples start and wait (beginAndWait), and type-check
      // against the copy's clients as a consumer writes them.
      const definition = JSON.parse(/<script type="application\/json" id="redoc-definition">([\s\S]*?)<\/script>/.exec(sql)![1]!);
      const sample = (path: string, method: string) =>
        definition.paths[path][method]['x-codeSamples'].find((x: any) => x.lang === 'typescript').source as string;
      const samples = [sample(GROWTH.servers.server, 'put'), sample(GROWTH.servers.server, 'delete'), sample(GROWTH.servers.failover, 'post')];
      expect(samples[0]).toContain(`arm.beginAndWait("PUT", "${GROWTH.servers.server}"`);
      expect(samples[1]).toContain(`await arm.beginAndWait("DELETE", "${GROWTH.servers.server}"`);
      expect(samples[2]).toContain(`arm.beginAndWait("POST", "${GROWTH.servers.failover}"`);
      for (const [i, source] of samples.entries())
        await writeFile(join(dir, `growth-sample-${i}.ts`), source.replace("'provider-api-clients'", "'./src/index.js'"));
      await writeFile(
        join(dir, 'tsconfig.growth-samples.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { noEmit: true },
          include: ['src', 'generated/**/*.ts', 'growth-sample-*.ts'],
          exclude: [],
        }),
      );
      expect(await tsc7(dir, 'tsconfig.growth-samples.json')).toBe('');
    }
    const landing = await readFile(join(dir, 'generated/docs/index.html'), 'utf8');
    expect(landing).toContain(`id="sql-${sqlVersion}"`);
  });
});
