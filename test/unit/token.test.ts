// The bearer token: on every request, and nowhere else (messages, causes, stacks,
// inspected errors, serialised results).
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { ClientError, createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { CHECK, fakeFetch, GUID, hangingFetch, IMAGES, json, SUBSCRIPTION, VENDOR } from './fake-fetch.js';

const SECRET = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl';
const BASE = 'https://management.example.com';
const imagesInit = { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } };

/** Everything a log line or a snapshot could be built from. */
function renderings(error: unknown): string[] {
  const e = error as Error & { cause?: unknown };
  return [
    String(e),
    e.message,
    e.stack ?? '',
    inspect(e, { depth: 10, showHidden: true }),
    JSON.stringify(e),
    String(e.cause),
    (e.cause as Error | undefined)?.stack ?? '',
    inspect(e.cause, { depth: 10, showHidden: true }),
  ];
}

function expectNoSecret(error: unknown) {
  for (const text of renderings(error)) expect(text).not.toContain(SECRET);
}

describe('the token', () => {
  it('is sent as Authorization: Bearer on every request of both clients', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: fake.fetch });
    const bc = createBusinessCentralClient({ baseUrl: BASE, getToken: async () => SECRET, fetch: fake.fetch });
    await arm.GET(IMAGES, imagesInit);
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    await bc.PATCH(VENDOR, { params: { path: { company_id: 'c', vendor_id: GUID }, header: { 'If-Match': 'W/"1"' } }, body: {} });
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(Array(3).fill(`Bearer ${SECRET}`));
  });

  it('does not leak through a network error whose cause quotes the request headers', async () => {
    const fake = fakeFetch((call) => Promise.reject(new Error(`socket hang up; request had authorization=${call.headers.get('authorization')}`)));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: fake.fetch, retry: false });
    const error = await arm.GET(IMAGES, imagesInit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).code).toBe('network');
    expect((error as Error).message).toContain('[redacted]');
    expectNoSecret(error);
  });

  it('does not leak through a timeout, an abort, a refused parameter or a non-JSON body', async () => {
    const hanging = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: (r) => hangingFetch(r), timeoutMs: 10, retry: false });
    const html = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: async () => new Response(`<p>${SECRET}</p>`, { status: 200 }) });
    const errors = await Promise.all([
      hanging.GET(IMAGES, imagesInit).catch((e: unknown) => e),
      hanging.GET(IMAGES, { ...imagesInit, signal: AbortSignal.abort() }).catch((e: unknown) => e),
      hanging.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: '..' } } }).catch((e: unknown) => e),
      html.GET(IMAGES, imagesInit).catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as ClientError).code)).toEqual(['timeout', 'aborted', 'invalid-argument', 'invalid-body']);
    errors.forEach(expectNoSecret);
  });

  it('does not leak through a foreign nextLink error', async () => {
    const fake = fakeFetch(() => json({ value: [], nextLink: `https://evil.example/steal?t=1` }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: fake.fetch });
    const error = await (async () => {
      for await (const _ of arm.listCachedImagePages({ subscriptionId: SUBSCRIPTION, location: 'westeurope' }));
    })().catch((e: unknown) => e);
    expect((error as ClientError).code).toBe('foreign-next-link');
    expectNoSecret(error);
    expect(fake.calls.map((c) => c.url.origin)).toEqual([BASE]);
  });

  it('is refused at creation without being echoed when it could inject a header', () => {
    const bad = `${SECRET}\r\nX-Injected: 1`;
    let error: unknown;
    try {
      createResourceManagerClient({ baseUrl: BASE, token: bad });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'token' });
    expectNoSecret(error);
  });

  it('is refused without being echoed when getToken returns something unusable, and nothing is sent', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: BASE, getToken: () => `Bearer ${SECRET}`, fetch: fake.fetch });
    const error = await arm.GET(IMAGES, imagesInit).catch((e: unknown) => e);
    expect((error as ClientError).code).toBe('token');
    expectNoSecret(error);
    expect(fake.calls).toHaveLength(0);
  });

  it('turns a failing getToken into a ClientError token, sending nothing', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: BASE, getToken: () => Promise.reject(new Error('credential expired')), fetch: fake.fetch });
    const error = await arm.GET(IMAGES, imagesInit).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'token' });
    expect(((error as Error).cause as Error).message).toBe('credential expired');
    expect(fake.calls).toHaveLength(0);
  });

  it('is not written to the console by the client', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: async () => new Response('', { status: 500 }), retry: false });
    await arm.GET(IMAGES, imagesInit);
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: '' } } }).catch(() => {});
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });

  it('is absent from a serialised error result', async () => {
    const fake = fakeFetch(() => json({ error: { code: 'AuthorizationFailed', message: 'no access' } }, 403));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: SECRET, fetch: fake.fetch });
    const result = await arm.GET(IMAGES, imagesInit);
    expect(result.ok).toBe(false);
    expect(JSON.stringify({ ok: result.ok, error: result.error, status: result.response.status })).not.toContain(SECRET);
    expect(inspect(result, { depth: 10 })).not.toContain(SECRET);
  });
});

describe('credential (a TokenCredential-shaped object)', () => {
  const SCOPE = 'https://management.example.com/user_impersonation';
  function credential(expiresInMs: number) {
    const asked: Array<string | string[]> = [];
    let n = 0;
    return {
      asked,
      getToken: async (scopes: string | string[]) => {
        asked.push(scopes);
        n += 1;
        return { token: `cred-token-${n}`, expiresOnTimestamp: Date.now() + expiresInMs };
      },
    };
  }

  it("is asked for the caller's scopes, and its token is reused until shortly before it expires", async () => {
    const fake = fakeFetch(() => json({}));
    const cred = credential(60 * 60_000);
    const arm = createResourceManagerClient({ baseUrl: 'https://m.example', credential: cred, scopes: [SCOPE], fetch: fake.fetch, retry: false });
    await Promise.all([0, 1, 2].map(() => arm.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } })));
    expect(cred.asked).toEqual([SCOPE]);
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer cred-token-1', 'Bearer cred-token-1', 'Bearer cred-token-1']);
  });

  it('is asked again once the token is within two minutes of expiry, for both families', async () => {
    const fake = fakeFetch(() => json({}));
    const cred = credential(60_000); // already inside the margin
    const bc = createBusinessCentralClient({
      baseUrl: 'https://b.example',
      credential: cred,
      scopes: 'https://api.example/.default',
      fetch: fake.fetch,
      retry: false,
    });
    await bc.POST('/companies({company_id})/shipmentMethods', { params: { path: { company_id: 'c' } }, body: { code: 'A' } });
    await bc.POST('/companies({company_id})/shipmentMethods', { params: { path: { company_id: 'c' } }, body: { code: 'B' } });
    expect(cred.asked).toEqual(['https://api.example/.default', 'https://api.example/.default']);
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer cred-token-1', 'Bearer cred-token-2']);
  });

  it('a credential that fails or answers null is a ClientError token, nothing sent, and nothing cached', async () => {
    const fake = fakeFetch(() => json({}));
    let calls = 0;
    const flaky = { getToken: async () => (++calls === 1 ? null : { token: 'ok-token', expiresOnTimestamp: Date.now() + 3_600_000 }) };
    const arm = createResourceManagerClient({ baseUrl: 'https://m.example', credential: flaky, scopes: SCOPE, fetch: fake.fetch, retry: false });
    const send = () => arm.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    await expect(send()).rejects.toMatchObject({ code: 'token' });
    expect(fake.calls).toHaveLength(0);
    await send();
    expect(fake.calls[0]!.headers.get('authorization')).toBe('Bearer ok-token');
  });

  it('is refused without scopes, with another token option, or without getToken', () => {
    const cred = credential(3_600_000);
    expect(() => createResourceManagerClient({ baseUrl: 'https://m.example', credential: cred })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'scopes' }),
    );
    expect(() => createResourceManagerClient({ baseUrl: 'https://m.example', credential: cred, scopes: [SCOPE], token: 't' })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'token' }),
    );
    expect(() => createResourceManagerClient({ baseUrl: 'https://m.example', credential: {} as never, scopes: [SCOPE] })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'credential' }),
    );
  });
});
