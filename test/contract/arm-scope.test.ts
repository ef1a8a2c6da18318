// ARM resources at any scope, long-running (mock/conventions/arm.mjs, long-running.mjs):
// a fixture document of this test's own declares a lock type at `{scope}` whose PUT and
// DELETE are long-running. At a management group (no subscription) the status URLs sit
// at the tenant's level, `/providers/{Namespace}/operationStatuses/{id}`; at a resource
// group they stay under the subscription. Either way the operation runs to its end and
// the resource follows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { call } from './arm-fixtures.js';
import { startMock } from './growth-fixtures.js';

const ref = (name: string) => ({ $ref: `#/components/${name}` });
const cloudError = { description: 'A CloudError.', content: { 'application/json': { schema: ref('schemas/CloudError') } } };
const scope = { name: 'scope', in: 'path', required: true, 'x-ms-skip-url-encoding': true, schema: { type: 'string' } };
const lockName = { name: 'lockName', in: 'path', required: true, schema: { type: 'string' } };
const version = { name: 'api-version', in: 'query', required: true, schema: { type: 'string', enum: ['2024-01-01'] } };
const lock = { description: 'The lock.', content: { 'application/json': { schema: ref('schemas/Lock') } } };
const monitor = { 'Azure-AsyncOperation': { schema: { type: 'string' } }, 'Retry-After': { schema: { type: 'integer' } } };
const document = {
  openapi: '3.1.0',
  info: { title: 'Locks at any scope', version: '2024-01-01' },
  servers: [{ url: 'http://127.0.0.1:4010' }],
  paths: {
    '/{scope}/providers/Provider.Locks/locks/{lockName}': {
      parameters: [scope, lockName, version],
      get: { operationId: 'Locks_Get', responses: { 200: lock, default: cloudError } },
      put: {
        operationId: 'Locks_CreateOrUpdate',
        'x-ms-long-running-operation': true,
        requestBody: { required: true, content: { 'application/json': { schema: ref('schemas/Lock') } } },
        responses: { 200: { ...lock, headers: monitor }, 201: { ...lock, headers: monitor }, default: cloudError },
      },
      delete: {
        operationId: 'Locks_Delete',
        'x-ms-long-running-operation': true,
        responses: {
          202: { description: 'Deleting.', headers: { Location: { schema: { type: 'string' } }, 'Retry-After': { schema: { type: 'integer' } } } },
          204: { description: 'None.' },
          default: cloudError,
        },
      },
    },
  },
  components: {
    schemas: {
      CloudError: {
        type: 'object',
        properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, target: { type: 'string' } } } },
      },
      Lock: {
        type: 'object',
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', readOnly: true },
          type: { type: 'string', readOnly: true },
          properties: {
            type: 'object',
            properties: {
              level: { type: 'string' },
              provisioningState: { type: 'string', readOnly: true, enum: ['Succeeded', 'Failed', 'Canceled', 'Creating', 'Deleting', 'Updating'] },
            },
          },
        },
      },
    },
  },
};

let mock: Mock;
beforeAll(async () => {
  mock = await startMock({ port: 0, documents: [{ api: 'fixture-locks', version: '2024-01-01', family: 'resource-manager', document }] });
}, 60_000);
afterAll(() => mock?.close());

const lockAt = (at: string) => `${mock.url}${at}/providers/Provider.Locks/locks/no-delete?api-version=2024-01-01`;

describe('a long-running extension resource', () => {
  it.each([
    ['a management group', '/providers/Microsoft.Management/managementGroups/finance', /\/providers\/Provider\.Locks\/operationStatuses\/[^/?]+\?/],
    ['a resource group', '/subscriptions/s1/resourceGroups/rg', /\/subscriptions\/s1\/providers\/Provider\.Locks\/operationStatuses\/[^/?]+\?/],
  ])('at %s: created and deleted through its status URLs', async (_, at, monitorPath) => {
    const put = await call(lockAt(at), { method: 'PUT', body: { properties: { level: 'CanNotDelete' } } });
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ id: `${at}/providers/Provider.Locks/locks/no-delete`, properties: { provisioningState: 'Creating' } });
    const status = String(put.headers.get('azure-asyncoperation'));
    expect(new URL(status).pathname + new URL(status).search).toMatch(new RegExp(`^${monitorPath.source}`));
    expect((await call(status)).body.status).toBe('Succeeded');
    expect((await call(lockAt(at))).body.properties.provisioningState).toBe('Succeeded');
    const deleted = await call(lockAt(at), { method: 'DELETE' });
    expect(deleted.status).toBe(202);
    expect((await call(String(deleted.headers.get('location')))).status).toBe(204);
    expect((await call(lockAt(at))).status).toBe(404);
  });
});
