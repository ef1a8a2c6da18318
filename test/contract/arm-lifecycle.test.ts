// The mock plays ARM's resource lifecycle by convention (mock/conventions/arm.mjs),
// proven on a fixture document of this test's own (fixtures/arm/, two api-versions):
// create, replace, read, patch, list (by resource group, by subscription, children of a
// parent, page by page), delete, 404s, ParentResourceNotFound, read-only fields set by
// the server, one store for every api-version, the name check seeing what was created,
// and the test API's seed, snapshot and reset. Long-running operations:
// arm-long-running.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { armPaths, call, startArmMock, SUBSCRIPTION, VERSIONS } from './arm-fixtures.js';

let mock: Mock;
let at: ReturnType<typeof armPaths>;
beforeAll(async () => {
  mock = await startArmMock();
  at = armPaths(mock.url);
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const SERVER = { location: 'northeurope', tags: { team: 'data' }, properties: { administratorLogin: 'dbadmin', version: '12.0' } };
/** A PUT that runs to its end (the fixture's server PUT is long-running: one poll of its monitor). */
async function createServer(group: string, name: string, body: object = SERVER, version: string = VERSIONS[0]) {
  const put = await call(at.server(group, name, version), { method: 'PUT', body });
  const monitor = put.headers.get('azure-asyncoperation');
  if (monitor) expect((await call(monitor)).body.status).toBe('Succeeded');
  return put;
}

describe('which operations the lifecycle covers, read from the documents', () => {
  it('every operation on the path of a type whose document declares a PUT; the others keep theirs', () => {
    const by = Object.fromEntries(mock.routes.map((r) => [`${r.operationId} ${r.version}`, r.convention]));
    for (const version of VERSIONS) {
      expect(by).toMatchObject({
        [`Servers_CreateOrUpdate ${version}`]: 'arm-put',
        [`Servers_Get ${version}`]: 'arm-read',
        [`Servers_Update ${version}`]: 'arm-patch',
        [`Servers_Delete ${version}`]: 'arm-delete',
        [`Servers_ListByResourceGroup ${version}`]: 'arm-list',
        [`Servers_List ${version}`]: 'arm-list',
        [`Databases_ListByServer ${version}`]: 'arm-list',
        [`Quotas_CreateOrUpdate ${version}`]: 'arm-put',
        [`Servers_CheckNameAvailability ${version}`]: 'source-rule',
      });
    }
  });

  it("today's documents keep their conventions: no PUT, no lifecycle", async () => {
    const { startMock } = await import('./growth-fixtures.js');
    const workspace = await startMock({ port: 0 });
    try {
      const by = Object.fromEntries(workspace.routes.map((r) => [r.operationId, r.convention]));
      expect(by).toMatchObject({
        RoleEligibilityScheduleRequests_Get: 'example',
        Location_ListCachedImages: 'arm-paging',
        Servers_CheckNameAvailability: 'source-rule',
      });
    } finally {
      await workspace.close();
    }
  });
});

describe('PUT, GET, PATCH, DELETE', () => {
  it('PUT creates (201) answering the body sent, with id, name and type from the path and the read-only fields the server sets', async () => {
    const before = Date.now();
    const forged = {
      ...SERVER,
      id: '/forged',
      name: 'forged',
      type: 'Other/type',
      systemData: { createdBy: 'forger' },
      properties: { ...SERVER.properties, provisioningState: 'Failed', fullyQualifiedDomainName: 'forged.example' },
    };
    const put = await call(at.server('rg-a', 'alpha'), { method: 'PUT', body: forged });
    expect(put.status).toBe(201);
    const id = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-a/providers/Provider.Sql/servers/alpha`;
    expect(put.body).toMatchObject({
      id,
      name: 'alpha',
      type: 'Provider.Sql/servers',
      location: 'northeurope',
      tags: { team: 'data' },
      properties: { administratorLogin: 'dbadmin', version: '12.0' },
    });
    expect(put.body.properties.provisioningState).not.toBe('Failed');
    expect(put.body.properties).not.toHaveProperty('fullyQualifiedDomainName');
    expect(put.body.systemData).toMatchObject({ createdBy: expect.not.stringMatching(/forger/), createdByType: 'Application' });
    expect(Date.parse(put.body.systemData.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    await call(put.headers.get('azure-asyncoperation')!);
    const read = await call(at.server('rg-a', 'alpha'));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...put.body, properties: { ...put.body.properties, provisioningState: 'Succeeded' } });
  });

  it('PUT of an existing resource replaces it (200): what was not sent is gone, createdAt kept', async () => {
    const first = await createServer('rg-a', 'alpha');
    const replaced = await call(at.server('rg-a', 'alpha'), { method: 'PUT', body: { location: 'northeurope', properties: { version: '13.0' } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).not.toHaveProperty('tags');
    expect(replaced.body.properties).toMatchObject({ version: '13.0' });
    expect(replaced.body.properties).not.toHaveProperty('administratorLogin');
    expect(replaced.body.systemData.createdAt).toBe(first.body.systemData.createdAt);
  });

  it('GET of a resource never created: 404 CloudError ResourceNotFound', async () => {
    const read = await call(at.server('rg-a', 'nobody'));
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ error: { code: 'ResourceNotFound', message: expect.stringContaining('servers/nobody') } });
  });

  it("PATCH merges tags and properties (a JSON merge patch); read-only fields stay the server's; 404 when absent", async () => {
    const created = await createServer('rg-a', 'alpha');
    const patched = await call(at.server('rg-a', 'alpha'), { method: 'PATCH', body: { tags: { owner: 'me' }, properties: { version: '13.0' } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: created.body.id,
      location: 'northeurope',
      tags: { team: 'data', owner: 'me' },
      properties: { administratorLogin: 'dbadmin', version: '13.0', provisioningState: 'Succeeded' },
    });
    expect(patched.body.systemData.createdAt).toBe(created.body.systemData.createdAt);
    expect((await call(at.server('rg-a', 'alpha'))).body).toEqual(patched.body);
    expect((await call(at.server('rg-a', 'nobody'), { method: 'PATCH', body: { tags: {} } })).status).toBe(404);
  });

  it('DELETE (not long-running) answers 200, then GET is 404 and a second DELETE 204 (the document allows it)', async () => {
    await createServer('rg-a', 'alpha');
    const created = await call(at.database('rg-a', 'alpha', 'orders'), { method: 'PUT', body: { properties: { collation: 'SQL_Latin1_General_CP1_CI_AS' } } });
    expect(created.status).toBe(201);
    await call(created.headers.get('location')!);
    expect((await call(at.database('rg-a', 'alpha', 'orders'), { method: 'DELETE' })).status).toBe(200);
    expect((await call(at.database('rg-a', 'alpha', 'orders'))).status).toBe(404);
    expect((await call(at.database('rg-a', 'alpha', 'orders'), { method: 'DELETE' })).status).toBe(204);
  });

  it('DELETE of an absent resource whose document declares no 204: 404', async () => {
    const gone = await call(at.quota('never'), { method: 'DELETE' });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ResourceNotFound');
  });

  it('a subscription-level type: PUT creates (its only status, 200), GET reads, DELETE removes', async () => {
    const put = await call(at.quota('cores'), { method: 'PUT', body: { properties: { limit: 20 } } });
    expect(put).toMatchObject({
      status: 200,
      body: { id: `/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/quotas/cores`, name: 'cores', type: 'Provider.Sql/quotas', properties: { limit: 20 } },
    });
    expect((await call(at.quota('cores'))).body.properties.limit).toBe(20);
    expect((await call(at.quota('cores'), { method: 'DELETE' })).status).toBe(200);
    expect((await call(at.quota('cores'))).status).toBe(404);
  });
});

describe('a request the document refuses', () => {
  it("names the parameter as the document spells it (resourceGroupName, not Prism's resourcegroupname)", async () => {
    const refused = await call(at.server('x'.repeat(91), 'alpha'));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('path.resourceGroupName');
    expect(refused.body.error.message).not.toMatch(/resourcegroupname/);
  });
});

describe('child resources', () => {
  it('under a parent that does not exist: 404 ParentResourceNotFound for PUT, GET and the list', async () => {
    for (const [url, method] of [
      [at.database('rg-a', 'ghost', 'orders'), 'PUT'],
      [at.database('rg-a', 'ghost', 'orders'), 'GET'],
      [at.databases('rg-a', 'ghost'), 'GET'],
    ] as const) {
      const answer = await call(url, { method, ...(method === 'PUT' ? { body: { properties: {} } } : {}) });
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'ParentResourceNotFound', message: expect.stringContaining('ghost') });
    }
  });

  it('are listed under their parent only, and go with it when it is deleted', async () => {
    await createServer('rg-a', 'alpha');
    await createServer('rg-a', 'beta');
    for (const [server, name] of [
      ['alpha', 'one'],
      ['alpha', 'two'],
      ['beta', 'three'],
    ]) {
      const put = await call(at.database('rg-a', server!, name!), { method: 'PUT', body: { properties: {} } });
      await call(put.headers.get('location')!);
    }
    const names = async (server: string) => (await call(at.databases('rg-a', server))).body.value.map((d: { name: string }) => d.name);
    expect(await names('alpha')).toEqual(['one', 'two']);
    expect(await names('beta')).toEqual(['three']);
    const deleting = await call(at.server('rg-a', 'alpha'), { method: 'DELETE' });
    await call(deleting.headers.get('location')!);
    expect((await call(at.database('rg-a', 'alpha', 'one'))).body.error.code).toBe('ParentResourceNotFound');
    expect(await names('beta')).toEqual(['three']);
  });
});

describe('lists', () => {
  it('by resource group and by subscription: what the store holds, starting from the documented resources', async () => {
    const documented = await call(at.servers('rg-docs'));
    expect(documented.body.value.map((s: { name: string }) => s.name)).toEqual(['documented-server']);
    expect((await call(at.server('rg-docs', 'documented-server'))).body).toMatchObject({ location: 'westeurope', tags: { env: 'docs' } });
    await createServer('rg-a', 'alpha');
    await createServer('rg-b', 'beta');
    expect((await call(at.servers('rg-a'))).body).toEqual({ value: [expect.objectContaining({ name: 'alpha' })] });
    expect((await call(at.servers('rg-empty'))).body).toEqual({ value: [] });
    const all: string[] = [];
    for (let url: string | undefined = at.allServers(); url; ) {
      const page = await call(url);
      all.push(...page.body.value.map((s: { name: string }) => s.name));
      url = page.body.nextLink;
    }
    expect(all.sort()).toEqual(['alpha', 'beta', 'documented-server']);
  });

  it('pages by nextLink on the mock origin, at the page size the test API sets', async () => {
    for (const name of ['s1', 's2', 's3', 's4', 's5']) await createServer('rg-p', name);
    mock.seed({ resourcePageSize: 2 });
    const seen: string[] = [];
    let pages = 0;
    for (let url: string | undefined = at.servers('rg-p', VERSIONS[1]); url; pages++) {
      const page = await call(url);
      expect(page.status).toBe(200);
      expect(page.body.value.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.value.map((s: { name: string }) => s.name));
      url = page.body.nextLink;
      if (url) expect(new URL(url).origin).toBe(mock.url);
      if (url) expect(new URL(url).searchParams.get('api-version')).toBe(VERSIONS[1]);
      expect(pages).toBeLessThan(10);
    }
    expect(seen).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(pages).toBe(3);
    expect(mock.state.resourcePageSize).toBe(2);
  });
});

describe('one store for every api-version', () => {
  it('a server created through one version reads, lists, patches and deletes through the other', async () => {
    await createServer('rg-v', 'shared', SERVER, VERSIONS[1]);
    expect((await call(at.server('rg-v', 'shared', VERSIONS[0]))).body.name).toBe('shared');
    expect((await call(at.servers('rg-v', VERSIONS[0]))).body.value).toHaveLength(1);
    expect((await call(at.server('rg-v', 'shared', VERSIONS[0]), { method: 'PATCH', body: { tags: { v: '1' } } })).status).toBe(200);
    expect((await call(at.server('rg-v', 'shared', VERSIONS[1]))).body.tags).toMatchObject({ v: '1' });
  });
});

describe('the name check sees the store', () => {
  const check = (name: string) => call(at.nameCheck(), { method: 'POST', body: { name, type: 'Provider.Sql/servers' } });

  it('AlreadyExists for a created (or documented) server; available again once deleted; the naming rule stays', async () => {
    expect((await check('gamma')).body).toMatchObject({ name: 'gamma', available: true });
    expect((await check('documented-server')).body).toMatchObject({ available: false, reason: 'AlreadyExists' });
    await createServer('rg-a', 'gamma');
    expect((await check('gamma')).body).toMatchObject({ name: 'gamma', available: false, reason: 'AlreadyExists' });
    const deleting = await call(at.server('rg-a', 'gamma'), { method: 'DELETE' });
    await call(deleting.headers.get('location')!);
    expect((await check('gamma')).body).toMatchObject({ available: true });
    expect((await check('Bad_Name')).body).toMatchObject({ available: false, reason: 'Invalid' });
  });
});

describe('the test API', () => {
  it('seeds resources (all or nothing), shows them in the snapshot, and reset puts back the documented ones', async () => {
    const id = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-s/providers/Provider.Sql/servers/seeded`;
    // What the documents hold at start (the fixture's documented server, and whatever else
    // the workspace's documents document): seeding adds to it, reset goes back to it.
    const names = () => mock.state.resources.map((r) => r.resource.name as string).sort();
    const documented = names();
    expect(documented).toContain('documented-server');
    const seeded = mock.seed({ resources: [{ id, location: 'westus', properties: { provisioningState: 'Succeeded' } }] });
    expect(seeded.resources).toEqual([expect.objectContaining({ id, name: 'seeded', type: 'Provider.Sql/servers' })]);
    expect((await call(at.server('rg-s', 'seeded'))).body.location).toBe('westus');
    expect(names()).toEqual([...documented, 'seeded'].sort());
    expect(() => mock.seed({ resources: [{ id: `${id}x`, location: 'a' }, { id: '/subscriptions/s/providers/Provider.Sql/unknown/x' }] })).toThrow(
      /resources\[1\].*no.*PUT|not the id/,
    );
    expect(mock.state.resources.map((r) => r.resource.name)).not.toContain('seededx');
    mock.reset();
    expect(names()).toEqual(documented);
    expect((await call(at.server('rg-s', 'seeded'))).status).toBe(404);
  });

  it('over HTTP: POST /__mock/seed with resources, GET /__mock/state', async () => {
    const id = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-h/providers/Provider.Sql/servers/over-http`;
    const seeded = await fetch(`${mock.adminUrl}/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resources: [{ id, location: 'westus' }], resourcePageSize: 1 }),
    });
    expect(seeded.status).toBe(200);
    const state = await (await fetch(`${mock.adminUrl}/state`)).json();
    expect(state.resources).toContainEqual(expect.objectContaining({ id, type: 'Provider.Sql/servers' }));
    expect(state.resourcePageSize).toBe(1);
    const bad = await fetch(`${mock.adminUrl}/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resourcePageSize: 0 }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/resourcePageSize/);
  });
});
