// The clients against a hostile server and a careless caller: every case
// ends in a ClientError, never a crash, a hang, a leaked token or a retry of something
// that was never sent. Servers bind 127.0.0.1; memory-heavy cases use a low limit, so
// nothing here holds more than a few MiB.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, createBusinessCentralClient, createResourceManagerClient, type ClientOptions } from '../../src/index.js';
import { createNodeHttpFetch, type NodeHttpFetch } from '../../src/transport-node-http.js';
import { fakeFetch, GUID, IMAGES, json, ROLE, SHIPMENTS, SUBSCRIPTION, VENDOR } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';
import { gzipBomb, hostileServer, streamBytes, type Hostile } from './hostile-server.js';

const SECRET = 'eyJhbGciOiJIUzI1NiJ9.aG9zdGlsZS1zZWNyZXQ.c2lnbmF0dXJlLWhvc3RpbGU';
const imagesInit = { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } };
const LIST = `/subscriptions/${SUBSCRIPTION}/providers/Provider.ContainerInstance/locations/westeurope/cachedImages`;
const MiB = 1024 * 1024;

let server: Hostile;
let other: Hostile;
let bomb: Buffer;
const transports: NodeHttpFetch[] = [];

beforeAll(async () => {
  [server, other, bomb] = await Promise.all([hostileServer(), hostileServer(), gzipBomb(256 * MiB)]);
});
afterAll(async () => {
  for (const t of transports) t.destroy();
  await Promise.all([server.close(), other.close()]);
});

const TRANSPORTS: Array<[string, () => ClientOptions['fetch']]> = [
  ['global fetch', () => undefined],
  [
    'createNodeHttpFetch',
    () => {
      const t = createNodeHttpFetch();
      transports.push(t);
      return t;
    },
  ],
];

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${inspect(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ClientError);
  return outcome.error as ClientError;
}

function renderings(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  return [
    String(e),
    e.stack,
    inspect(e, { depth: Infinity, showHidden: true }),
    JSON.stringify(e),
    inspect(e.cause, { depth: Infinity, showHidden: true }),
  ].join('\n');
}

describe.each(TRANSPORTS)('response size limit (%s)', (_name, transport) => {
  const client = (extra: Partial<ClientOptions> = {}) =>
    createResourceManagerClient({ baseUrl: server.base, token: 'tok-size', fetch: transport(), maxBodyBytes: MiB, ...extra });

  it('stops a gzip bomb (256 MiB inflated) at the limit, with no retry', async () => {
    server.route(`/bomb${LIST}`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(bomb);
    });
    server.seen.length = 0;
    const arm = createResourceManagerClient({ baseUrl: `${server.base}/bomb`, token: 'tok-size', fetch: transport(), maxBodyBytes: MiB });
    const before = process.memoryUsage().rss;
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error).toMatchObject({ code: 'body-too-large', status: 200 });
    expect(error.message).toContain(`${MiB}-byte limit`);
    expect(server.seen).toHaveLength(1);
    // Nowhere near the 256 MiB it would inflate to.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
  });

  it('stops a plain body past the limit, and a GET is not downloaded again', async () => {
    server.route(`/big${LIST}`, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      streamBytes(res, 64 * MiB);
    });
    server.seen.length = 0;
    const arm = createResourceManagerClient({ baseUrl: `${server.base}/big`, token: 'tok-size', fetch: transport(), maxBodyBytes: MiB });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.code).toBe('body-too-large');
    expect(server.seen).toHaveLength(1);
  });

  it('refuses at once a Content-Length over the limit, on an error status too', async () => {
    server.route(`/huge${LIST}`, (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Content-Length': String(2.1e9) });
      res.write('{"error":');
    });
    server.seen.length = 0;
    const arm = createResourceManagerClient({ baseUrl: `${server.base}/huge`, token: 'tok-size', fetch: transport(), maxBodyBytes: MiB });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error).toMatchObject({ code: 'body-too-large', status: 503 });
    expect(server.seen).toHaveLength(1);
  });

  it('reads a body just under the limit, compressed or not', async () => {
    const value = [{ image: 'x'.repeat(MiB - 100) }];
    const { gzipSync } = await import('node:zlib');
    server.route(`/fits${LIST}`, (req, res) => {
      const text = JSON.stringify({ value });
      if (req.headers['accept-encoding']?.includes('gzip')) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gzipSync(text));
      } else res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
    });
    const arm = client({ baseUrl: `${server.base}/fits` });
    const result = await arm.GET(IMAGES, imagesInit);
    expect(result.ok && result.data.value?.[0]?.image?.length).toBe(MiB - 100);
  });
});

describe('response size limit (injected fetch)', () => {
  it('applies to an error body as well, and the default is 32 MiB', async () => {
    const big = () => new Response(new Blob([new Uint8Array(32 * MiB + 1)]).stream(), { status: 500 });
    const fake = fakeFetch(() => big());
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't', fetch: fake.fetch });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error).toMatchObject({ code: 'body-too-large', status: 500 });
    expect(error.message).toContain(`${32 * MiB}-byte limit`);
    expect(fake.calls).toHaveLength(1);
  });

  it.each([0, -1, 1.5, Infinity, Number.NaN])('refuses maxBodyBytes %s at creation', (maxBodyBytes) => {
    expect(() => createResourceManagerClient({ baseUrl: 'https://x.example', token: 't', maxBodyBytes })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'maxBodyBytes' }),
    );
  });
});

describe.each(TRANSPORTS)('redirects (%s)', (_name, transport) => {
  it.each([301, 302, 303, 307, 308])('never follows a %s to another origin: nothing reaches it', async (status) => {
    other.seen.length = 0;
    server.route(`/api/${DEFAULT.vendors}/companies(c)/vendors(`, (_req, res) => {
      res.writeHead(status, { Location: `${other.base}/steal` }).end();
    });
    other.route('/steal', (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"stolen"}'));
    const bc = createBusinessCentralClient({ baseUrl: server.base, token: SECRET, fetch: transport(), headers: { 'X-Tenant': 'secret-tenant' } });
    const error = await failure(bc.updateVendor({ companyId: 'c', vendorId: GUID, eTag: 'W/"1"', vendor: { displayName: 'N' } }));
    expect(error).toMatchObject({ code: 'redirect', status });
    expect(error.message).toContain(other.base);
    expect(other.seen).toEqual([]);
    expect(renderings(error)).not.toContain(SECRET);
  });

  it('does not follow a same-origin redirect either, and does not retry it', async () => {
    server.seen.length = 0;
    server.route(`/same${LIST}`, (_req, res) => res.writeHead(302, { Location: `${server.base}/elsewhere` }).end());
    const arm = createResourceManagerClient({ baseUrl: `${server.base}/same`, token: 't', fetch: transport() });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error).toMatchObject({ code: 'redirect', status: 302 });
    expect(server.seen).toHaveLength(1);
  });
});

describe('redirects (injected fetch)', () => {
  it('refuses an answer a custom fetch got by following a redirect', async () => {
    const followed = json({ id: 'elsewhere' });
    Object.defineProperties(followed, { redirected: { value: true }, url: { value: 'https://evil.example/x' } });
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't', fetch: async () => followed, retry: false });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.code).toBe('redirect');
    expect(error.message).toContain('https://evil.example');
  });

  it('asks the runtime not to follow redirects', async () => {
    const fake = fakeFetch(() => json({}));
    let mode: string | undefined;
    const arm = createResourceManagerClient({
      baseUrl: 'https://management.example.com',
      token: 't',
      fetch: (request) => {
        mode = request.redirect;
        return fake.fetch(request);
      },
    });
    await arm.GET(IMAGES, imagesInit);
    expect(mode).toBe('manual');
  });
});

describe('token scrubbing of causes', () => {
  const cases: Array<[string, () => unknown]> = [
    ['a nested cause', () => new TypeError('fetch failed', { cause: new Error('socket', { cause: new Error(`sent Bearer ${SECRET}`) }) })],
    ['an AggregateError', () => new AggregateError([new Error('a'), new Error(`authorization: ${SECRET}`)], 'all attempts failed')],
    ['a rejected plain object', () => ({ message: 'nope', request: { headers: { authorization: `Bearer ${SECRET}` } } })],
    ['a property of an Error', () => Object.assign(new Error('socket hang up'), { config: { headers: [['authorization', SECRET]] } })],
    ['a non-enumerable property', () => Object.defineProperty(new Error('x'), 'hidden', { value: SECRET, enumerable: false })],
  ];

  it.each(cases)('keeps the token out of %s', async (_what, reject) => {
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: SECRET, fetch: () => Promise.reject(reject()), retry: false });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.code).toBe('network');
    expect(error.cause).toBeDefined();
    expect(renderings(error)).not.toContain(SECRET);
  });

  it('keeps a summary of the chain: messages (redacted), names and codes', async () => {
    const cause = new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ECONNRESET ${SECRET}`), { code: 'ECONNRESET' }) });
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: SECRET, fetch: () => Promise.reject(cause), retry: false });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { message: 'connect ECONNRESET [redacted]', code: 'ECONNRESET' } });
  });

  it('survives a cause that throws when read', async () => {
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error(SECRET);
        },
        get: () => {
          throw new Error(SECRET);
        },
      },
    );
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: SECRET, fetch: () => Promise.reject(trap), retry: false });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.code).toBe('network');
    expect(renderings(error)).not.toContain(SECRET);
  });
});

describe('a getToken() that never settles', () => {
  const never = () => new Promise<string>(() => {});

  it('is bounded by the timeout, and nothing is sent', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', getToken: never, fetch: fake.fetch, timeoutMs: 30, retry: false });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error.code).toBe('timeout');
    expect(fake.calls).toHaveLength(0);
  });

  it.each([
    ['global fetch', undefined],
    ['createNodeHttpFetch', 'node'],
  ])("is bounded by the caller's signal (%s)", async (_name, kind) => {
    const fetch = kind ? createNodeHttpFetch() : fakeFetch(() => json({})).fetch;
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', getToken: never, fetch, timeoutMs: 0 });
    const error = await failure(arm.GET(IMAGES, { ...imagesInit, signal: AbortSignal.timeout(30) }));
    if (kind) (fetch as NodeHttpFetch).destroy();
    expect(error.code).toBe('aborted');
  });
});

describe('timers', () => {
  it.each([2 ** 31, Infinity, 1e12])('refuses timeoutMs %s (Node timers overflow past 2^31-1 ms)', (timeoutMs) => {
    expect(() => createResourceManagerClient({ baseUrl: 'https://x.example', token: 't', timeoutMs })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'timeoutMs' }),
    );
  });

  it('accepts the largest timeoutMs, and a call does not time out at once', async () => {
    const fake = fakeFetch(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return json({ value: [] });
    });
    const arm = createResourceManagerClient({ baseUrl: 'https://x.example', token: 't', fetch: fake.fetch, timeoutMs: 2 ** 31 - 1 });
    expect(await arm.GET(IMAGES, imagesInit)).toMatchObject({ ok: true });
  });

  it('clamps maxDelayMs: Infinity (or 2^31) still waits for Retry-After instead of firing at once', async () => {
    for (const maxDelayMs of [Infinity, 2 ** 31]) {
      const fake = fakeFetch((_c, i) => (i === 0 ? json({}, 503, { 'Retry-After': '0.2' }) : json({ value: [] })));
      const arm = createResourceManagerClient({ baseUrl: 'https://x.example', token: 't', fetch: fake.fetch, retry: { maxDelayMs } });
      const started = Date.now();
      expect(await arm.GET(IMAGES, imagesInit)).toMatchObject({ ok: true });
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(fake.calls).toHaveLength(2);
    }
  });
});

describe('local faults are invalid-argument, not network, and are never retried', () => {
  const BASE = 'https://management.example.com';
  const cases: Array<
    [string, (c: ReturnType<typeof createResourceManagerClient>, b: ReturnType<typeof createBusinessCentralClient>) => Promise<unknown>, string]
  > = [
    ['a lone surrogate in a path value', (c) => c.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'west\uD800' } } }), 'location'],
    [
      'a lone surrogate in a query value',
      (c) => c.GET(IMAGES, { params: { ...imagesInit.params, query: { 'api-version': '\uDC00' as never } } }),
      'api-version',
    ],
    ['a header value Headers refuses', (c) => c.GET(IMAGES, { ...imagesInit, headers: { 'X-Trace': 'secret-value\r\nX-Evil: 1' } }), 'headers.X-Trace'],
    [
      'a header in params.header',
      (_c, b) => b.PATCH(VENDOR, { params: { path: { company_id: 'c', vendor_id: GUID }, header: { 'If-Match': 'secret-value\nX-Evil: 1' } }, body: {} }),
      'params.header.If-Match',
    ],
    ['a body that cannot be serialised', (_c, b) => b.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X', n: 1n } as never }), 'body'],
  ];

  it.each(cases)('%s', async (_what, call, parameter) => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch });
    const bc = createBusinessCentralClient({ baseUrl: BASE, token: 't', fetch: fake.fetch });
    const error = await failure(call(arm, bc));
    expect(error).toMatchObject({ code: 'invalid-argument', parameter });
    expect(error.message).toContain(parameter);
    expect(error.message).not.toContain('secret-value');
    expect(renderings(error)).not.toContain('secret-value');
    expect(fake.calls).toHaveLength(0);
  });

  it('a header in the client options is named too', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, headers: { 'X-Key': 'secret-value\u2603' } });
    const error = await failure(arm.GET(IMAGES, imagesInit));
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'headers.X-Key' });
    expect(renderings(error)).not.toContain('secret-value');
    expect(fake.calls).toHaveLength(0);
  });
});

describe('per-request pathSerializer', () => {
  it('is refused, so it cannot send the token to another host', async () => {
    const fake = fakeFetch(() => json({}));
    const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: SECRET, fetch: fake.fetch });
    const error = await failure(
      arm.GET(ROLE, {
        params: { path: { scope: 's', roleEligibilityScheduleRequestName: GUID } },
        pathSerializer: () => 'https://evil.example/x',
      } as never),
    );
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'pathSerializer' });
    expect(fake.calls).toHaveLength(0);
  });
});

describe('node:http transport pool', () => {
  it('does not queue a quick request behind 70 stalled ones', async () => {
    const stalled: Array<() => void> = [];
    server.route('/stall', (_req, res) => stalled.push(() => res.writeHead(200).end('{}')));
    server.route('/quick', (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"value":[]}'));
    const fetch = createNodeHttpFetch();
    transports.push(fetch);
    const slow = createResourceManagerClient({ baseUrl: `${server.base}/stall`, token: 't', fetch, retry: false, timeoutMs: 10_000 });
    const quick = createResourceManagerClient({ baseUrl: `${server.base}/quick`, token: 't', fetch, retry: false, timeoutMs: 2_000 });
    const pending = Array.from({ length: 70 }, () => slow.GET(IMAGES, imagesInit));
    await expect.poll(() => stalled.length).toBe(70);
    expect(await quick.GET(IMAGES, imagesInit)).toMatchObject({ ok: true, data: { value: [] } });
    for (const release of stalled) release();
    await Promise.all(pending);
  });
});
