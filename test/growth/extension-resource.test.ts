// An extension resource type at `{scope}`, grown by the recipe (specs/README.md, "an
// extension resource type"): specs/templates/extension-resource/ copied beside the
// source's own RoleEligibilityScheduleRequests_Get in the growth files' copy
// (test/growth/grown.ts), its three paths added to the document, built (lint clean), and
// served by the copy's mock. The type
// gets the ARM lifecycle by convention at every scope (subscription, resource group, resource, management group):
// PUT creates and replaces, GET reads, separate bodies at two scopes, a list for a scope
// holds what is at and below it (`$filter=atScope()`: at it only, kept in nextLink), an
// action on a missing request is 404, DELETE removes; a scope that is no ARM scope is a
// 400 CloudError naming it; read-only fields sent at any depth are ignored. The source's
// GET, with no PUT in its document, keeps its documented example.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { grownWorkspace } from './grown.js';

const TYPE = 'providers/Provider.Authorization/roleAssignmentScheduleRequests';
const SUB = '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const GROUP = `${SUB}/resourceGroups/rg-scope`;
const SERVER = `${GROUP}/providers/Provider.Sql/servers/alpha`;
const MANAGEMENT_GROUP = '/providers/Microsoft.Management/managementGroups/finance';
const HEADERS = { authorization: 'Bearer fixture-token', 'content-type': 'application/json' };
const REQUEST = {
  properties: {
    roleDefinitionId: `${SUB}/providers/Provider.Authorization/roleDefinitions/c8d4ff99-41c3-41a8-9f60-21dfdad59608`,
    principalId: 'a3bb8764-cb92-4276-9d2a-ca1e895e55ea',
    requestType: 'AdminAssign',
  },
};
const names = ['0b3d6a1e-7f2c-4e58-9a41-2f6c1d8e9b01', '1c4e7b2f-8a3d-4f69-8b52-3a7d2e9fac02', '2d5f8c3a-9b4e-4a7a-9c63-4b8e3fab0d03'] as const;

let build: { code: number; output: string };
let mock: Mock;
const url = (scope: string, name?: string, query = '') => `${mock.url}${scope}/${TYPE}${name ? `/${name}` : ''}?api-version=2020-10-01${query}`;
async function call(target: string, method = 'GET', body?: unknown) {
  const response = await fetch(target, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  const grown = await grownWorkspace();
  build = grown.build;
  const { startMock } = await import(join(grown.dir, 'mock/index.mjs'));
  mock = await startMock({ port: 0 });
}, 240_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

describe('an extension resource type at {scope}, grown by the recipe', () => {
  it('builds green: lint, bundle, types and docs take it as it is', () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
  });

  it('is covered by the lifecycle conventions; the source GET without a PUT keeps its example', () => {
    const by = Object.fromEntries(mock.routes.map((r) => [r.operationId, r.convention]));
    expect(by).toMatchObject({
      RoleAssignmentScheduleRequests_Create: 'arm-put',
      RoleAssignmentScheduleRequests_Get: 'arm-read',
      RoleAssignmentScheduleRequests_Delete: 'arm-delete',
      RoleAssignmentScheduleRequests_ListForScope: 'arm-list',
      RoleAssignmentScheduleRequests_Cancel: 'arm-action',
      RoleEligibilityScheduleRequests_Get: 'example',
    });
  });

  it('PUT creates then replaces at each scope, GET reads it back; two scopes keep separate bodies; a name never put is 404', async () => {
    for (const scope of [SUB, GROUP, SERVER, MANAGEMENT_GROUP]) {
      expect((await call(url(scope, names[0]))).status).toBe(404);
      const created = await call(url(scope, names[0]), 'PUT', { ...REQUEST, properties: { ...REQUEST.properties, justification: `at ${scope}` } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ id: `${scope}/${TYPE}/${names[0]}`, name: names[0], type: 'Provider.Authorization/roleAssignmentScheduleRequests' });
      expect((await call(url(scope, names[0]), 'PUT', REQUEST)).status).toBe(200);
    }
    await call(url(GROUP, names[0]), 'PUT', { ...REQUEST, properties: { ...REQUEST.properties, justification: 'the group' } });
    const [atSub, atGroup] = await Promise.all([call(url(SUB, names[0])), call(url(GROUP, names[0]))]);
    expect([atSub.status, atGroup.status]).toEqual([200, 200]);
    expect(atSub.body.id).toBe(`${SUB}/${TYPE}/${names[0]}`);
    expect(atSub.body.properties.justification).toBeUndefined();
    expect(atGroup.body).toMatchObject({ id: `${GROUP}/${TYPE}/${names[0]}`, properties: { justification: 'the group' } });
  });

  it('ignores read-only values sent at any depth (a $ref-ed provisioningState, a field two levels below properties)', async () => {
    const sent = {
      ...REQUEST,
      properties: {
        ...REQUEST.properties,
        status: 'Granted',
        provisioningState: 'Failed',
        expandedProperties: { principal: { id: 'p-1', displayName: 'Sent by the client' } },
      },
    };
    const created = await call(url(GROUP, names[1]), 'PUT', sent);
    expect(created.status).toBe(201);
    const read = await call(url(GROUP, names[1]));
    for (const body of [created.body, read.body]) {
      expect(body.properties.expandedProperties).toEqual({ principal: { id: 'p-1' } });
      expect(body.properties.status).toBeUndefined();
      expect(body.properties.provisioningState).toBe('Succeeded');
    }
  });

  it('a list for a scope holds what is at and below it; $filter=atScope() only what is at it, and its nextLink keeps the filter', async () => {
    for (const [scope, name] of [
      [SUB, names[0]],
      [SUB, names[1]],
      [SUB, names[2]],
      [GROUP, names[0]],
      [SERVER, names[0]],
    ] as const) {
      expect((await call(url(scope, name), 'PUT', REQUEST)).status).toBe(201);
    }
    await call(url(MANAGEMENT_GROUP, names[0]), 'PUT', REQUEST);
    const walk = async (first: string) => {
      const ids: string[] = [];
      const links: string[] = [];
      for (let next: string | undefined = first; next; ) {
        const page = await call(next);
        expect(page.status).toBe(200);
        ids.push(...page.body.value.map((r: any) => r.id));
        next = page.body.nextLink;
        if (next) links.push(next);
      }
      return { ids, links };
    };
    const idsAt = (scope: string, list: readonly string[]) => list.map((name) => `${scope}/${TYPE}/${name}`);
    const documented = `${SUB}/${TYPE}/fea7a502-9a96-4806-a26f-eee560e52045`;
    expect((await walk(url(SUB))).ids.sort()).toEqual([...idsAt(SUB, names), documented, ...idsAt(GROUP, [names[0]]), ...idsAt(SERVER, [names[0]])].sort());
    expect((await walk(url(GROUP))).ids.sort()).toEqual([...idsAt(GROUP, [names[0]]), ...idsAt(SERVER, [names[0]])].sort());
    expect((await walk(url(MANAGEMENT_GROUP))).ids).toEqual(idsAt(MANAGEMENT_GROUP, [names[0]]));
    const atScope = await walk(url(SUB, undefined, '&$filter=atScope()'));
    expect(atScope.ids.sort()).toEqual([...idsAt(SUB, names), documented].sort());
    expect(atScope.links.length).toBeGreaterThan(0);
    for (const link of atScope.links) expect(new URL(link).searchParams.get('$filter')).toBe('atScope()');
    const other = 'b7e3c1d2-0000-4000-8000-00000000000f';
    await call(url(GROUP, names[1]), 'PUT', { properties: { ...REQUEST.properties, principalId: other } });
    const byPrincipal = await walk(url(SUB, undefined, `&$filter=${encodeURIComponent(`principalId eq '${other.toUpperCase()}'`)}`));
    expect(byPrincipal.ids).toEqual(idsAt(GROUP, [names[1]]));
    expect((await walk(url(GROUP, undefined, `&$filter=${encodeURIComponent(`atScope() and principalId eq '${other}'`)}`))).ids).toEqual(
      idsAt(GROUP, [names[1]]),
    );
    const refused = await call(url(SUB, undefined, '&$filter=startswith(name,%27a%27)'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'InvalidFilter', target: '$filter' });
    expect(refused.body.error.message).toContain('startswith');
  });

  it('an action on a stored request answers; on a missing one 404 ResourceNotFound; DELETE removes it', async () => {
    const cancel = (scope: string, name: string) => `${mock.url}${scope}/${TYPE}/${name}/cancel?api-version=2020-10-01`;
    const missing = await call(cancel(GROUP, names[2]), 'POST');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ResourceNotFound');
    await call(url(GROUP, names[2]), 'PUT', REQUEST);
    expect((await call(cancel(GROUP, names[2]), 'POST')).status).toBe(200);
    expect((await call(cancel(SUB, names[2]), 'POST')).status).toBe(404);
    expect((await call(url(GROUP, names[2]), 'DELETE')).status).toBe(200);
    expect((await call(url(GROUP, names[2]))).status).toBe(404);
    expect((await call(url(GROUP, names[2]), 'DELETE')).status).toBe(204);
  });

  it('a scope that is no ARM scope is a 400 CloudError naming it, for every operation', async () => {
    for (const scope of ['/foo/bar', `${SUB}/foo`, `${GROUP}/providers/Provider.Sql/servers`]) {
      for (const [target, method, body] of [
        [url(scope, names[0]), 'PUT', REQUEST],
        [url(scope, names[0]), 'GET'],
        [url(scope), 'GET'],
        [`${mock.url}${scope}/${TYPE}/${names[0]}/cancel?api-version=2020-10-01`, 'POST'],
      ] as const) {
        const answer = await call(target, method, body);
        expect(answer.status, `${method} ${target}`).toBe(400);
        expect(answer.body.error.code).toBe('MissingSubscription');
        expect(answer.body.error.message).toContain(`'${scope}'`);
      }
    }
  });

  it('the source GET, whose document declares no PUT, still answers its documented example, at an ARM scope only', async () => {
    const tail = `/providers/Provider.Authorization/roleEligibilityScheduleRequests/${names[0]}?api-version=2020-10-01`;
    const read = await call(`${mock.url}${SUB}${tail}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('64caffb6-55c0-4deb-a585-68e948ea1ad6');
    const elsewhere = await call(`${mock.url}/foo/bar${tail}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toMatchObject({ code: 'MissingSubscription', target: 'scope' });
  });
});
