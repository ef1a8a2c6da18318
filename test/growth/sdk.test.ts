// An independent client of the resource-management family: the official SDK
// (@azure/arm-sql, a devDependency, with its own @azure/core-lro pollers) drives the
// recipe's resource type through the mock of the growth files' copy (test/growth/grown.ts:
// grown by the recipes, test/growth/edits.mjs among them), with the copy's server PUT marked
// `final-state-via: azure-async-operation` (as Azure's container-instance document marks
// its container groups): create and wait, read, list by resource group, update and wait,
// delete and wait, a failed create, each answer read by the SDK's own deserializers. The
// house client's beginAndWait on the same PUT resolves with the resource, as the SDK's does.
//
// What the SDK needs to reach the mock, and nothing more:
//   - `allowInsecureConnection: true` (core-client's option): the mock is plain http on
//     127.0.0.1, which the SDK's transport otherwise refuses;
//   - its bearer-token policy refuses any http URL whatever that option says, so it is
//     swapped for one that asks the same fake TokenCredential for the token and sets the
//     same `Authorization: Bearer` header;
//   - the SDK's paths name `Microsoft.Sql` and its api-version is a constant of each
//     operation (`isConstant: true`, 2022-08-01-preview for servers: no option sets it),
//     so a pipeline policy (the SDK's own extension point) sends the workspace's namespace,
//     `Provider.Sql`, at the document's api-version. The links the mock answers (monitor,
//     Location, nextLink) already carry both and are left as they are.
import { join } from 'node:path';
import { SqlManagementClient } from '@azure/arm-sql';
import { bearerTokenAuthenticationPolicyName, type PipelinePolicy } from '@azure/core-rest-pipeline';
import { beforeAll, describe, expect, it } from 'vitest';
import { readGeneratedConst } from '../helpers/generated.js';
import { runInProcess } from '../helpers/in-process.js';
// @ts-expect-error: plain ESM module without types
import { GROWTH } from './edits.mjs';
import { grownWorkspace } from './grown.js';

const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const TOKEN = 'sdk-token';
let dir: string;
let build: { code: number; output: string };
let applied: Record<string, boolean>;

beforeAll(async () => {
  ({ dir, build, applied } = await grownWorkspace());
}, 240_000);

/** The SDK pointed at `base` (the mock), as described at the top. */
function sdkClient(base: string, version: string) {
  const credential = { getToken: async () => ({ token: TOKEN, expiresOnTimestamp: Date.now() + 3_600_000 }) };
  const sdk = new SqlManagementClient(credential, SUBSCRIPTION, {
    endpoint: base,
    $host: base,
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });
  sdk.pipeline.removePolicy({ name: bearerTokenAuthenticationPolicyName });
  const bearer: PipelinePolicy = {
    name: 'fakeCredentialBearer',
    sendRequest: async (request, next) => {
      request.headers.set('Authorization', `Bearer ${(await credential.getToken())!.token}`);
      return next(request);
    },
  };
  const workspace: PipelinePolicy = {
    name: 'workspaceNamespaceAndVersion',
    sendRequest: (request, next) => {
      const url = new URL(request.url);
      if (url.pathname.includes('/providers/Microsoft.Sql/')) {
        url.pathname = url.pathname.replace('/providers/Microsoft.Sql/', '/providers/Provider.Sql/');
        url.searchParams.set('api-version', version);
        request.url = url.href;
      }
      return next(request);
    },
  };
  sdk.pipeline.addPolicy(bearer);
  sdk.pipeline.addPolicy(workspace);
  return sdk;
}

describe('an official Azure SDK against the mock of a grown workspace', () => {
  it('builds green with the server PUT marked final-state-via: azure-async-operation, and the client manifest carries it', async () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
    const apis = await readGeneratedConst(dir, 'client-manifest.ts', 'apis');
    expect(apis['resource-manager'].sql.finalStateVia?.[`PUT ${GROWTH.servers.server}`]).toBe('azure-async-operation');
    // npm run lint says what the clients do instead, as a note that does not fail it.
    const lint = await runInProcess(dir, 'pipeline/lint.mjs');
    expect(lint.code).toBe(0);
    expect(lint.output).toMatch(/paths\/server\.yaml:\d+:\d+ {2}note {2}house-arm-final-state-via {2}PUT .*original URI/);
  });

  it('@azure/arm-sql creates, reads, lists, updates and deletes a server with its own pollers', async () => {
    if (!applied.resourceType) return;
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      mock.longRunning({ polls: 2, retryAfter: 0 });
      const version: string = GROWTH.servers.version;
      const sdk = sdkClient(mock.url, version);
      const poll = { updateIntervalInMs: 0 };
      const rg = 'rg-sdk';

      const created = await sdk.servers.beginCreateOrUpdateAndWait(
        rg,
        'sdk-server',
        { location: 'northeurope', tags: { team: 'sdk' }, administratorLogin: 'admin' },
        poll,
      );
      // The resource, read from its own URL after the monitor (core-lro, whatever final-state-via says).
      expect(created).toMatchObject({
        name: 'sdk-server',
        location: 'northeurope',
        tags: { team: 'sdk' },
        administratorLogin: 'admin',
        type: 'Provider.Sql/servers',
      });
      expect(created.id).toMatch(new RegExp(`/subscriptions/${SUBSCRIPTION}/resourceGroups/${rg}/providers/Provider\\.Sql/servers/sdk-server$`, 'i'));
      expect(created).not.toHaveProperty('status');
      const wait = mock.requests.slice(mock.requests.findIndex((r: any) => r.method === 'PUT'));
      expect(wait.map((r: any) => `${r.method} ${r.path.split('/').at(-2)} ${r.status}`)).toEqual([
        'PUT servers 201',
        'GET operationStatuses 200',
        'GET operationStatuses 200',
        'GET servers 200',
      ]);
      // Every request the SDK sent for the resource type went at the document's version.
      expect(mock.requests.filter((r: any) => /\/servers\//.test(r.path)).map((r: any) => `${r.version} ${r.query['api-version']}`)).toEqual(
        Array(2).fill(`${version} ${version}`),
      );

      const read = await sdk.servers.get(rg, 'sdk-server');
      expect(read).toMatchObject({ name: 'sdk-server', tags: { team: 'sdk' }, administratorLogin: 'admin' });

      await sdk.servers.beginCreateOrUpdateAndWait(rg, 'sdk-other', { location: 'westeurope' }, poll);
      const listed: string[] = [];
      for await (const server of sdk.servers.listByResourceGroup(rg)) listed.push(server.name!);
      expect(listed.sort()).toEqual(['sdk-other', 'sdk-server']);

      // The document's PATCH is not long-running: its 200 is the result at once, for the SDK's poller too.
      const patchedAt = mock.requests.length;
      const updated = await sdk.servers.beginUpdateAndWait(rg, 'sdk-server', { tags: { owner: 'me' } }, poll);
      expect(updated).toMatchObject({ name: 'sdk-server', tags: { team: 'sdk', owner: 'me' }, administratorLogin: 'admin' });
      expect(mock.requests.slice(patchedAt).map((r: any) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);

      // Typed void; at run time core-lro hands back core-client's flattened empty answer.
      const deletedAt = mock.requests.length;
      const deleted = await sdk.servers.beginDeleteAndWait(rg, 'sdk-server', poll);
      expect(deleted).toEqual({ body: undefined });
      expect(mock.requests.slice(deletedAt).map((r: any) => `${r.method} ${r.path.split('/').at(-2)} ${r.status}`)).toEqual([
        'DELETE servers 202',
        'GET operationResults 202',
        'GET operationResults 204',
      ]);
      await expect(sdk.servers.get(rg, 'sdk-server')).rejects.toMatchObject({ statusCode: 404, code: 'ResourceNotFound' });
      const remaining: string[] = [];
      for await (const server of sdk.servers.listByResourceGroup(rg)) remaining.push(server.name!);
      expect(remaining).toEqual(['sdk-other']);

      // An operation that fails (the test API's rule): the SDK's poller reads the monitor's error.
      mock.longRunning({ outcome: 'Failed', times: 1 });
      await expect(sdk.servers.beginCreateOrUpdateAndWait(rg, 'sdk-doomed', { location: 'westeurope' }, poll)).rejects.toThrow(
        /long-running operation has failed\. OperationFailed\./,
      );
    } finally {
      await mock.close();
    }
  }, 120_000);

  it("the house client's beginAndWait on the same PUT resolves with the resource, as the SDK's does, not the monitor's body", async () => {
    if (!applied.resourceType) return;
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      mock.longRunning({ polls: 1, retryAfter: 0 });
      const { createResourceManagerClient } = await import(join(dir, 'dist/src/index.js'));
      const arm = createResourceManagerClient({ baseUrl: mock.url, token: TOKEN, retry: false });
      const path = { subscriptionId: SUBSCRIPTION, resourceGroupName: 'rg-house', serverName: 'house-server' };
      const created = await arm.beginAndWait('PUT', GROWTH.servers.server, { params: { path }, body: { location: 'northeurope' }, pollIntervalMs: 0 });
      expect(created).toMatchObject({ name: 'house-server', location: 'northeurope', properties: { provisioningState: 'Succeeded' } });
      expect(created).not.toHaveProperty('status');
      expect(mock.requests.map((r: any) => `${r.method} ${r.path.split('/').at(-2)}`)).toEqual(['PUT servers', 'GET operationStatuses', 'GET servers']);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
