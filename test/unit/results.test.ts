// The result shape and the errors: ok from the status, typed error bodies, and a
// ClientError (never an unhandled rejection) when there is no usable answer.
import { describe, expect, it } from 'vitest';
import { ClientError, createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { CHECK, fakeFetch, GUID, hangingFetch, IMAGES, json, ROLE, SHIPMENTS, SUBSCRIPTION } from './fake-fetch.js';

const BASE = 'https://management.example.com';
const imagesInit = { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } };
const checkInit = { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' as const } };

function arm(answer: Parameters<typeof fakeFetch>[0], extra: { timeoutMs?: number } = {}) {
  const fake = fakeFetch(answer);
  return { arm: createResourceManagerClient({ baseUrl: BASE, token: 'tok-results-1', fetch: fake.fetch, retry: false, ...extra }), calls: fake.calls };
}

describe('HTTP answers never throw', () => {
  it('returns a CloudError with its status', async () => {
    const body = { error: { code: 'RoleEligibilityScheduleRequestNotFound', message: 'not found' } };
    const { arm: c } = arm(() => json(body, 404));
    const result = await c.GET(ROLE, { params: { path: { scope: `subscriptions/${SUBSCRIPTION}`, roleEligibilityScheduleRequestName: GUID } } });
    expect(result).toMatchObject({ ok: false, error: body });
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(404);
  });

  it('returns the 400 ErrorResponse of the name check', async () => {
    const body = { error: { code: 'InvalidNameAvailabilityRequest', message: 'The request is invalid.' } };
    const { arm: c } = arm(() => json(body, 400));
    const result = await c.POST(CHECK, checkInit);
    expect(result.ok).toBe(false);
    expect(result.error).toEqual(body);
  });

  it('gives a 500 with an empty body a readable error instead of an empty string', async () => {
    const { arm: c } = arm(() => new Response(null, { status: 500, statusText: 'Internal Server Error' }));
    const result = await c.GET(IMAGES, imagesInit);
    expect(result.ok).toBe(false);
    expect(result.response.status).toBe(500);
    expect(result.error).toEqual({ error: { code: 'EmptyErrorBody', message: 'HTTP 500 Internal Server Error: empty body.' } });
  });

  it('gives a 500 with Content-Length: 0 the same error', async () => {
    const { arm: c } = arm(() => new Response('', { status: 500, headers: { 'Content-Length': '0' } }));
    const result = await c.GET(IMAGES, imagesInit);
    expect(result).toMatchObject({ ok: false, error: { error: { code: 'EmptyErrorBody' } } });
  });

  it('describes a non-JSON error body (a proxy page) without passing it on as the error model', async () => {
    const { arm: c } = arm(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } }),
    );
    const result = await c.GET(IMAGES, imagesInit);
    expect(result.ok).toBe(false);
    expect(result.error).toEqual({
      error: { code: 'NonJsonErrorBody', message: 'HTTP 502 Bad Gateway: the body is not JSON.' },
    });
  });

  it('decides ok from the status even when the error body is falsy JSON', async () => {
    const fake = fakeFetch(() => json(false, 409));
    const bc = createBusinessCentralClient({ baseUrl: BASE, token: 't', fetch: fake.fetch });
    const result = await bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X' } });
    expect(result.ok).toBe(false);
    expect(result.error).toBe(false);
    expect(result.response.status).toBe(409);
  });

  it('returns a success without a body as ok with no data', async () => {
    const { arm: c } = arm(() => new Response(null, { status: 204 }));
    const result = await c.GET(IMAGES, imagesInit);
    expect(result).toMatchObject({ ok: true, data: undefined });
  });

  it('parses a success body sent without Content-Type or Content-Length', async () => {
    const { arm: c } = arm(() => new Response(new Blob(['{"value":[]}']).stream(), { status: 200 }));
    const result = await c.GET(IMAGES, imagesInit);
    expect(result).toMatchObject({ ok: true, data: { value: [] } });
  });
});

describe('no usable answer: ClientError', () => {
  it('rejects a success answer whose body is not JSON, with its status', async () => {
    const { arm: c } = arm(() => new Response('<html>sign in</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const error = await c.GET(IMAGES, imagesInit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'invalid-body', status: 200 });
    expect((error as Error).message).toBe(`GET https://management.example.com${IMAGES} answered 200, not JSON (text/html).`);
  });

  it('rejects a network failure with the method, the path and the cause', async () => {
    const { arm: c } = arm(() =>
      Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })),
    );
    const error = await c.POST(CHECK, checkInit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'network' });
    expect((error as Error).message).toBe(`POST https://management.example.com${CHECK} failed: fetch failed (ECONNREFUSED).`);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('rejects with timeout when an attempt runs past timeoutMs', async () => {
    const { arm: c, calls } = arm((_c, _i, request) => hangingFetch(request), { timeoutMs: 20 });
    const error = await c.GET(IMAGES, imagesInit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as Error).message).toContain('timed out after 20 ms');
    expect(calls).toHaveLength(1);
  });

  it("gives each request its own signal, joined to the caller's", async () => {
    const signals: AbortSignal[] = [];
    const fake = fakeFetch((_call, index, request) => {
      signals.push(request.signal);
      return index === 0 ? json({ value: [] }) : hangingFetch(request);
    });
    const c = createResourceManagerClient({ baseUrl: BASE, token: 'tok-results-1', fetch: fake.fetch, timeoutMs: 10_000 });
    const controller = new AbortController();
    await c.GET(IMAGES, imagesInit);
    const second = c.GET(IMAGES, { ...imagesInit, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(second).rejects.toMatchObject({ code: 'aborted' });
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals[1]!.aborted).toBe(true);
    // The caller's abort reached only the request it was given to.
    expect(signals[0]!.aborted).toBe(false);
  });

  it('rejects with aborted when the caller aborts, not with timeout', async () => {
    const { arm: c } = arm((_c, _i, request) => hangingFetch(request), { timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = c.GET(IMAGES, { ...imagesInit, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toMatchObject({ name: 'ClientError', code: 'aborted' });
  });

  it('rejects an already aborted signal without sending', async () => {
    const { arm: c, calls } = arm(() => json({}));
    await expect(c.GET(IMAGES, { ...imagesInit, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
    expect(calls).toHaveLength(0);
  });

  it('sends without a timeout signal when timeoutMs is 0', async () => {
    let seen: AbortSignal | undefined;
    const fake = fakeFetch((_c, _i, request) => {
      seen = request.signal;
      return json({});
    });
    const c = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, timeoutMs: 0 });
    await c.GET(IMAGES, imagesInit);
    expect(seen?.aborted).toBe(false);
  });
});

describe('options', () => {
  const fetch = async () => json({});
  it.each([
    ['no baseUrl', { token: 't' }, 'baseUrl'],
    ['a relative baseUrl', { baseUrl: '/arm', token: 't' }, 'baseUrl'],
    ['a non-http baseUrl', { baseUrl: 'file:///etc', token: 't' }, 'baseUrl'],
    ['credentials in baseUrl', { baseUrl: 'https://u:p@x.example', token: 't' }, 'baseUrl'],
    ['a query in baseUrl', { baseUrl: 'https://x.example?a=1', token: 't' }, 'baseUrl'],
    ['neither token nor getToken', { baseUrl: BASE }, 'token'],
    ['both token and getToken', { baseUrl: BASE, token: 't', getToken: () => 't' }, 'token'],
    ['a negative timeout', { baseUrl: BASE, token: 't', timeoutMs: -1 }, 'timeoutMs'],
    ['unbounded retries', { baseUrl: BASE, token: 't', retry: { retries: 1000 } }, 'retry.retries'],
  ])('refuses %s at creation', (_what, options, parameter) => {
    expect(() => createResourceManagerClient({ fetch, ...(options as { baseUrl: string }) })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter }),
    );
  });
});
