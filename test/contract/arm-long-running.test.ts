// Long-running operations the ARM way (mock/conventions/long-running.mjs), on the
// fixture document of arm-fixtures.ts: an operation marked x-ms-long-running-operation
// answers 201/200/202 with the polling headers its answer declares (Azure-AsyncOperation,
// Location, Retry-After) on the mock's own origin; the status monitor and the operation
// result move to their end after N polls; provisioningState follows (not for an action:
// a POST on …/{type}/{name}/{action}, whose result the operation result URL answers); the
// test API makes an operation take N polls, end Failed or Canceled, or answer another
// Retry-After.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { request } from 'node:http';
import { armPaths, call, HEADERS, startArmMock } from './arm-fixtures.js';

let mock: Mock;
let at: ReturnType<typeof armPaths>;
beforeAll(async () => {
  mock = await startArmMock();
  at = armPaths(mock.url);
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const SERVER = { location: 'northeurope', properties: { administratorLogin: 'dbadmin' } };
const putServer = (name: string) => call(at.server('rg-lro', name), { method: 'PUT', body: SERVER });

describe('a long-running PUT (Azure-AsyncOperation)', () => {
  it('201 with the monitor on the mock origin and Retry-After; InProgress until the N-th poll; then the resource is Succeeded', async () => {
    mock.longRunning({ polls: 3, times: 1 });
    const put = await putServer('alpha');
    expect(put.status).toBe(201);
    expect(put.body.properties.provisioningState).toBe('Creating');
    const monitor = put.headers.get('azure-asyncoperation')!;
    expect(new URL(monitor).origin).toBe(mock.url);
    expect(new URL(monitor).searchParams.get('api-version')).toBe('2025-01-01');
    expect(put.headers.get('retry-after')).toBe('1');
    expect(put.headers.get('location'), 'the 201 declares no Location').toBeNull();
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const polled = await call(monitor);
      expect(polled.status).toBe(200);
      expect(polled.body).toMatchObject({ name: expect.any(String), status: expect.any(String), startTime: expect.any(String) });
      statuses.push(polled.body.status);
      if (polled.body.status === 'InProgress') expect(polled.headers.get('retry-after')).toBe('1');
    }
    expect(statuses).toEqual(['InProgress', 'InProgress', 'Succeeded']);
    const done = await call(monitor);
    expect(done.body).toMatchObject({ status: 'Succeeded', endTime: expect.any(String) });
    expect(done.body).not.toHaveProperty('error');
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Succeeded');
  });

  it('a GET of the resource is a poll too (a client polling the original URI sees it end)', async () => {
    mock.longRunning({ polls: 2 });
    await putServer('alpha');
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Creating');
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Succeeded');
  });

  it('a replace answers 200 and goes through Updating; a write while one runs: 409 AnotherOperationInProgress', async () => {
    const created = await putServer('alpha');
    const conflict = await call(at.server('rg-lro', 'alpha'), { method: 'PATCH', body: { tags: { a: 'b' } } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('AnotherOperationInProgress');
    await call(created.headers.get('azure-asyncoperation')!);
    const replaced = await putServer('alpha');
    expect(replaced.status).toBe(200);
    expect(replaced.body.properties.provisioningState).toBe('Updating');
    expect(replaced.headers.get('azure-asyncoperation')).toBeTruthy();
  });
});

describe('a long-running DELETE (Azure-AsyncOperation and Location)', () => {
  it('202 with both URLs and Retry-After; Location answers 202 until done, then 204; then GET is 404', async () => {
    await call((await putServer('alpha')).headers.get('azure-asyncoperation')!);
    mock.longRunning({ polls: 2, retryAfter: 0, times: 1 });
    const deleting = await call(at.server('rg-lro', 'alpha'), { method: 'DELETE' });
    expect(deleting.status).toBe(202);
    expect(deleting.body).toBeUndefined();
    expect(deleting.headers.get('retry-after')).toBe('0');
    const location = deleting.headers.get('location')!;
    expect(new URL(location).origin).toBe(mock.url);
    expect(new URL(deleting.headers.get('azure-asyncoperation')!).pathname).toMatch(/\/operationStatuses\//);
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Deleting');
    const done = await call(location);
    expect(done.status, 'the GET above was poll 1: this is poll 2').toBe(204);
    expect((await call(at.server('rg-lro', 'alpha'))).status).toBe(404);
    expect((await call(deleting.headers.get('azure-asyncoperation')!)).body.status).toBe('Succeeded');
  });

  it('the Location URL answers 202 with Location and Retry-After while the operation runs', async () => {
    await call((await putServer('alpha')).headers.get('azure-asyncoperation')!);
    mock.longRunning({ polls: 2, when: { method: 'DELETE' } });
    const location = (await call(at.server('rg-lro', 'alpha'), { method: 'DELETE' })).headers.get('location')!;
    const running = await call(location);
    expect(running.status).toBe(202);
    expect(running.headers.get('location')).toBe(location);
    expect(running.headers.get('retry-after')).toBe('1');
    expect((await call(location)).status).toBe(204);
  });
});

describe('a long-running PUT through Location only (final-state-via: location)', () => {
  it('201 with Location and no Azure-AsyncOperation; Location answers 202, then the resource 200', async () => {
    await call((await putServer('alpha')).headers.get('azure-asyncoperation')!);
    mock.longRunning({ polls: 2, times: 1 });
    const put = await call(at.database('rg-lro', 'alpha', 'orders'), { method: 'PUT', body: { properties: { collation: 'x' } } });
    expect(put.status).toBe(201);
    expect(put.headers.get('azure-asyncoperation')).toBeNull();
    const location = put.headers.get('location')!;
    expect((await call(location)).status).toBe(202);
    const done = await call(location);
    expect(done).toMatchObject({
      status: 200,
      body: { name: 'orders', type: 'Provider.Sql/servers/databases', properties: { collation: 'x', provisioningState: 'Succeeded' } },
    });
  });
});

describe('a long-running PATCH that declares no polling URL', () => {
  it('200 with provisioningState Updating and no Azure-AsyncOperation or Location; a GET of the resource polls it to Succeeded', async () => {
    expect((await call(at.quota('cores'), { method: 'PUT', body: { properties: { limit: 10 } } })).body.properties.provisioningState).toBe('Succeeded');
    const patched = await call(at.quota('cores'), { method: 'PATCH', body: { properties: { limit: 20 } } });
    expect(patched).toMatchObject({ status: 200, body: { properties: { limit: 20, provisioningState: 'Updating' } } });
    expect([patched.headers.get('azure-asyncoperation'), patched.headers.get('location')]).toEqual([null, null]);
    expect((await call(at.quota('cores'))).body.properties).toEqual({ limit: 20, provisioningState: 'Succeeded' });
  });
});

describe('failed and canceled operations, from the test API', () => {
  it('Failed: the monitor says Failed with the ARM error; the resource stays, provisioningState Failed', async () => {
    const error = { code: 'QuotaExceeded', message: 'No more servers in this region.' };
    mock.longRunning({ outcome: 'Failed', error, times: 1 });
    const put = await putServer('alpha');
    const ended = await call(put.headers.get('azure-asyncoperation')!);
    expect(ended.body).toMatchObject({ status: 'Failed', error, endTime: expect.any(String) });
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Failed');
    // times: 1 -- the next operation succeeds again.
    expect((await call((await putServer('beta')).headers.get('azure-asyncoperation')!)).body.status).toBe('Succeeded');
  });

  it('Failed through Location: the error status the test chose, with a CloudError', async () => {
    await call((await putServer('alpha')).headers.get('azure-asyncoperation')!);
    mock.longRunning({ outcome: 'Failed', status: 409, when: { operationId: 'Databases_CreateOrUpdate' } });
    const put = await call(at.database('rg-lro', 'alpha', 'orders'), { method: 'PUT', body: { properties: {} } });
    const failed = await call(put.headers.get('location')!);
    expect(failed.status).toBe(409);
    expect(failed.body.error).toMatchObject({ code: 'OperationFailed', message: expect.stringContaining('databases/orders') });
  });

  it('Canceled, set over HTTP (POST /__mock/long-running), with a default ARM error', async () => {
    const added = await fetch(`${mock.adminUrl}/long-running`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'Canceled', times: 1, when: { method: 'PUT' } }),
    });
    expect(added.status).toBe(201);
    expect(await (await fetch(`${mock.adminUrl}/long-running`)).json()).toEqual([expect.objectContaining({ outcome: 'Canceled', times: 1, calls: 0 })]);
    const ended = await call((await putServer('alpha')).headers.get('azure-asyncoperation')!);
    expect(ended.body).toMatchObject({ status: 'Canceled', error: { code: 'OperationCanceled' } });
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Canceled');
    const wrong = await fetch(`${mock.adminUrl}/long-running`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'Exploded' }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.message).toMatch(/"outcome" must be one of Succeeded, Failed, Canceled/);
  });

  it('a given running operation, by id: made to fail on its next poll', async () => {
    mock.longRunning({ polls: 5 });
    const monitor = (await putServer('alpha')).headers.get('azure-asyncoperation')!;
    const id = new URL(monitor).pathname.split('/').at(-1)!;
    expect(mock.state.operations).toContainEqual(expect.objectContaining({ id, status: 'InProgress', pollsNeeded: 5 }));
    mock.longRunning({ operation: id, polls: 1, outcome: 'Failed' });
    expect((await call(monitor)).body.status).toBe('Failed');
    expect(() => mock.longRunning({ operation: id, outcome: 'Canceled' })).toThrow(/already ended Failed/);
    expect(() => mock.longRunning({ operation: 'nope' })).toThrow(/no operation 'nope'/);
  });
});

describe('actions on a resource (POST …/servers/{name}/{action})', () => {
  const action = (group: string, name: string, verb: string) => at.server(group, name).replace('?', `/${verb}?`);
  const created = async (name: string) => call((await putServer(name)).headers.get('azure-asyncoperation')!);

  it('long-running with a result (Location): 202 on the mock origin; 202 until the N-th poll, then the documented 200; provisioningState untouched', async () => {
    await created('alpha');
    mock.longRunning({ polls: 2, times: 1, when: { operationId: 'Servers_Failover' } });
    const started = await call(action('rg-lro', 'alpha', 'failover'), { method: 'POST' });
    expect(started.status).toBe(202);
    expect(started.body).toBeUndefined();
    expect(started.headers.get('azure-asyncoperation'), 'the 202 declares Location only').toBeNull();
    expect(started.headers.get('retry-after')).toBe('1');
    const location = started.headers.get('location')!;
    expect(new URL(location).origin).toBe(mock.url);
    expect(new URL(location).searchParams.get('api-version')).toBe('2025-01-01');
    const running = await call(location);
    expect(running.status).toBe(202);
    expect(running.headers.get('location')).toBe(location);
    expect(await call(location)).toMatchObject({ status: 200, body: { primaryRegion: 'northeurope', dataLossSeconds: 0 } });
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState, 'an action is not a write').toBe('Succeeded');
  });

  it('a GET of the server while an action runs shows it unchanged and is a poll: a client that never polls does not leave the server refusing writes', async () => {
    await created('alpha');
    mock.longRunning({ polls: 2, times: 1, when: { operationId: 'Servers_Failover' } });
    expect((await call(action('rg-lro', 'alpha', 'failover'), { method: 'POST' })).status).toBe(202);
    expect((await call(at.server('rg-lro', 'alpha'), { method: 'PATCH', body: { tags: { a: 'b' } } })).status).toBe(409);
    for (let i = 0; i < 2; i++) expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Succeeded');
    expect((await call(at.server('rg-lro', 'alpha'), { method: 'PATCH', body: { tags: { a: 'b' } } })).status).toBe(200);
  });

  it('long-running without a result (Azure-AsyncOperation and Location): the monitor ends Succeeded, Location then answers 204', async () => {
    await created('alpha');
    const started = await call(action('rg-lro', 'alpha', 'restart'), { method: 'POST' });
    expect(started.status).toBe(202);
    const monitor = await call(started.headers.get('azure-asyncoperation')!);
    expect(monitor.body).toMatchObject({ status: 'Succeeded', endTime: expect.any(String) });
    const result = await call(started.headers.get('location')!);
    expect([result.status, result.body]).toEqual([204, undefined]);
  });

  it('on a server that does not exist: 404 ResourceNotFound naming it, and no operation starts', async () => {
    for (const verb of ['failover', 'restart', 'listConnectionStrings']) {
      const missing = await call(action('rg-lro', 'ghost', verb), { method: 'POST' });
      expect(missing.status, verb).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 'ResourceNotFound', message: expect.stringContaining('servers/ghost') });
    }
    expect(mock.state.operations).toEqual([]);
  });

  it('while another operation of the server runs: 409 AnotherOperationInProgress; an action in flight blocks a write too', async () => {
    mock.longRunning({ polls: 3, times: 1 });
    const put = await putServer('alpha');
    expect((await call(action('rg-lro', 'alpha', 'failover'), { method: 'POST' })).status).toBe(409);
    for (let i = 0; i < 3; i++) await call(put.headers.get('azure-asyncoperation')!);
    mock.longRunning({ polls: 2, times: 1 });
    const failover = await call(action('rg-lro', 'alpha', 'failover'), { method: 'POST' });
    expect(failover.status).toBe(202);
    const write = await call(at.server('rg-lro', 'alpha'), { method: 'PATCH', body: { tags: { a: 'b' } } });
    expect(write.status).toBe(409);
    expect(write.body.error.message).toContain('POST');
  });

  it('Failed from the test API: Location answers the chosen error status with the ARM error; the server keeps provisioningState Succeeded', async () => {
    await created('alpha');
    const error = { code: 'FailoverRefused', message: 'The secondary is not in sync.' };
    mock.longRunning({ outcome: 'Failed', error, status: 409, when: { operationId: 'Servers_Failover' } });
    const started = await call(action('rg-lro', 'alpha', 'failover'), { method: 'POST' });
    const failed = await call(started.headers.get('location')!);
    expect(failed).toMatchObject({ status: 409, body: { error } });
    expect((await call(at.server('rg-lro', 'alpha'))).body.properties.provisioningState).toBe('Succeeded');
  });

  it('an action that is not long-running answers its documented 200 for a server that exists', async () => {
    await created('alpha');
    const listed = await call(action('rg-lro', 'alpha', 'listConnectionStrings'), { method: 'POST' });
    expect(listed).toMatchObject({ status: 200, body: { adoNet: expect.stringContaining('Server=tcp:') } });
    expect(mock.state.operations.filter((operation: { method: string }) => operation.method === 'POST')).toEqual([]);
  });

  it('is still validated first: no api-version is a 400 naming it', async () => {
    await created('alpha');
    const unversioned = await call(action('rg-lro', 'alpha', 'failover').replace(/\?api-version=[^&]+/, ''), { method: 'POST' });
    expect(unversioned.status).toBe(400);
    expect(JSON.stringify(unversioned.body)).toContain('api-version');
  });
});

describe('status URLs', () => {
  it('an unknown operation id: 404 CloudError; reset forgets every operation', async () => {
    const monitor = (await putServer('alpha')).headers.get('azure-asyncoperation')!;
    const unknown = await call(monitor.replace(/operationStatuses\/[^?]+/, 'operationStatuses/00000000-0000-0000-0000-000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('OperationNotFound');
    mock.reset();
    expect((await call(monitor)).status).toBe(404);
  });

  it('need credentials like any ARM request, and answer only at the URL the mock issued', async () => {
    const monitor = (await putServer('alpha')).headers.get('azure-asyncoperation')!;
    const anonymous = await call(monitor, { headers: { authorization: '' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.body.error.message).toContain('Authorization: Bearer');
    // The same operation id under another subscription or namespace is not that operation.
    const elsewhere = await call(monitor.replace(/\/subscriptions\/[^/]+/, '/subscriptions/00000000-0000-0000-0000-0000000000ff'));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('OperationNotFound');
    expect((await call(monitor.replace(/\/providers\/[^/]+\//, '/providers/Provider.Authorization/'))).status).toBe(404);
    expect((await call(monitor)).status).toBe(200);
  });

  it('follow the Host the request came in on', async () => {
    // fetch cannot set Host: node:http can.
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(at.server('rg-lro', 'alpha'), { method: 'PUT', headers: { ...HEADERS, host: `localhost:${mock.port}` } }, (res) => {
        res.resume();
        resolve(res.headers);
      });
      req.on('error', reject);
      req.end(JSON.stringify(SERVER));
    });
    expect(new URL(String(headers['azure-asyncoperation'])).host).toBe(`localhost:${mock.port}`);
  });
});
