// The resource-management client on the wire: URLs, api-version, scope, headers.
import { describe, expect, it } from 'vitest';
import { businesscentralApi, ClientError, createResourceManagerClient, createResourceManagerClientOf, sqlApi } from '../../src/index.js';
import { CHECK, fakeFetch, GUID, IMAGES, json, ROLE, SUBSCRIPTION } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';
import { apis } from '../../generated/client-manifest.js';

const BASE = 'https://management.example.com';
const scope = `providers/Provider.Subscription/subscriptions/${SUBSCRIPTION}`;

function client(answer = () => json({ name: 'x', available: true })) {
  const fake = fakeFetch(answer);
  const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-123', fetch: fake.fetch, retry: false });
  return { arm, calls: fake.calls };
}

describe('api-version', () => {
  it('is filled in per operation from the manifest', async () => {
    const { arm, calls } = client();
    await arm.GET(ROLE, { params: { path: { scope, roleEligibilityScheduleRequestName: GUID } } });
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
    expect(calls.map((c) => c.url.searchParams.getAll('api-version'))).toEqual([[DEFAULT.authorization], [DEFAULT.sql], [DEFAULT.containerinstance]]);
  });

  it('may be given per call only as the version the client is typed for', async () => {
    const { arm, calls } = client();
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' }, query: { 'api-version': DEFAULT.containerinstance } } });
    expect(calls[0]!.url.searchParams.getAll('api-version')).toEqual([DEFAULT.containerinstance]);
    const other = arm.GET(IMAGES, {
      // @ts-expect-error another api-version would be checked against the wrong document's types
      params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' }, query: { 'api-version': '2024-11-01-preview' } },
    });
    await expect(other).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'api-version' });
    await expect(other).rejects.toThrow(/pin it: apiVersions: \{ containerinstance: '2024-11-01-preview' \}/);
    expect(calls).toHaveLength(1);
  });
});

describe('apiVersions', () => {
  it('refuses, before anything is sent, an API the family does not have, a version not shaped like one, or a non-object', () => {
    // The message lists the family's APIs, whichever the workspace holds.
    const names = Object.keys(apis['resource-manager']).join(', ');
    expect(() => createResourceManagerClient({ baseUrl: BASE, token: 't', apiVersions: { nope: 'x' } as never })).toThrow(
      `names no resource-manager API (${names})`,
    );
    expect(names.split(', ')).toEqual(expect.arrayContaining(['authorization', 'sql', 'containerinstance']));
    expect(() => createResourceManagerClient({ baseUrl: BASE, token: 't', apiVersions: { nope: '2025-01-01' } as never })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'apiVersions.nope' }),
    );
    // A business-data version, a date without its zeros, another suffix, a number, a value with more around it.
    for (const bad of ['v2.0', '2025-1-1', '2025-01-01-beta', '2025-01-01-Preview', ' 2025-01-01', '2025-01-01\n', 20250101, null]) {
      expect(() => createResourceManagerClient({ baseUrl: BASE, token: 't', apiVersions: { sql: bad as never } }), String(bad)).toThrow(
        expect.objectContaining({
          code: 'invalid-argument',
          parameter: 'apiVersions.sql',
          message: expect.stringContaining('YYYY-MM-DD or YYYY-MM-DD-preview'),
        }),
      );
    }
    expect(() => createResourceManagerClient({ baseUrl: BASE, token: 't', apiVersions: 'sql' as never })).toThrow(
      expect.objectContaining({ code: 'invalid-argument', parameter: 'apiVersions' }),
    );
  });

  it('sends the pinned version', async () => {
    const calls: Request[] = [];
    const arm = createResourceManagerClient({
      baseUrl: BASE,
      token: 't',
      apiVersions: { sql: '2025-01-01' },
      fetch: async (request: Request) => {
        calls.push(request);
        return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
      },
    });
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(new URL(calls[0]!.url).searchParams.get('api-version')).toBe('2025-01-01');
  });

  it('sends a well-formed version the package does not hold as is (untyped callers; the types refuse it), and the server answers', async () => {
    const calls: Request[] = [];
    const answer = { error: { code: 'InvalidApiVersionParameter', message: "The api-version '2030-01-01-preview' is invalid." } };
    const arm = createResourceManagerClient({
      baseUrl: BASE,
      token: 't',
      retry: false,
      apiVersions: { sql: '2030-01-01-preview' as '2025-01-01' },
      fetch: async (request: Request) => {
        calls.push(request);
        return json(answer, 400);
      },
    });
    const result = await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(calls.map((c) => new URL(c.url).searchParams.getAll('api-version'))).toEqual([['2030-01-01-preview']]);
    expect(result).toMatchObject({ ok: false, error: answer });
    expect(result.response.status).toBe(400);
    // The other APIs keep their defaults.
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
    expect(new URL(calls[1]!.url).searchParams.get('api-version')).toBe(DEFAULT.containerinstance);
  });
});

describe('URLs', () => {
  it('sends the scope unencoded, each segment encoded and the slashes kept', async () => {
    const { arm, calls } = client();
    await arm.GET(ROLE, { params: { path: { scope, roleEligibilityScheduleRequestName: GUID } } });
    expect(calls[0]!.url.pathname).toBe(
      `/providers/Provider.Subscription/subscriptions/${SUBSCRIPTION}/providers/Provider.Authorization/roleEligibilityScheduleRequests/${GUID}`,
    );
    expect(calls[0]!.url.origin).toBe(BASE);
  });

  it('tolerates one leading slash on the scope without sending //', async () => {
    const { arm, calls } = client();
    await arm.GET(ROLE, { params: { path: { scope: `/${scope}`, roleEligibilityScheduleRequestName: GUID } } });
    expect(calls[0]!.url.pathname).toBe(
      `/providers/Provider.Subscription/subscriptions/${SUBSCRIPTION}/providers/Provider.Authorization/roleEligibilityScheduleRequests/${GUID}`,
    );
  });

  it('encodes characters inside a scope segment', async () => {
    const { arm, calls } = client();
    await arm.GET(ROLE, { params: { path: { scope: 'subscriptions/a b?c#d(e)', roleEligibilityScheduleRequestName: GUID } } });
    expect(calls[0]!.url.pathname.startsWith('/subscriptions/a%20b%3Fc%23d%28e%29/providers/')).toBe(true);
    expect(calls[0]!.url.search).toBe(`?api-version=${DEFAULT.authorization}`);
  });

  it.each([
    ['a dot-dot segment', 'subscriptions/../../tenants/x'],
    ['an encoded dot-dot segment', 'subscriptions/%2e%2E/x'],
    ['an empty segment', 'subscriptions//x'],
    ['a trailing slash', 'subscriptions/x/'],
    ['an empty scope', ''],
  ])('refuses a scope with %s before sending', async (_what, bad) => {
    const { arm, calls } = client();
    const error = await arm.GET(ROLE, { params: { path: { scope: bad, roleEligibilityScheduleRequestName: GUID } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'scope' });
    expect((error as Error).message).toContain('"scope"');
    expect(calls).toHaveLength(0);
  });

  it('keeps a hostile single-segment value inside its segment', async () => {
    const { arm, calls } = client();
    await arm.GET(IMAGES, { params: { path: { subscriptionId: "a/b?c=d#e'f", location: 'west europe' } } });
    expect(calls[0]!.url.pathname).toBe('/subscriptions/a%2Fb%3Fc%3Dd%23e%27f/providers/Provider.ContainerInstance/locations/west%20europe/cachedImages');
    expect([...calls[0]!.url.searchParams.keys()]).toEqual(['api-version']);
  });

  it.each(['..', '.', ''])('refuses %j as a location', async (bad) => {
    const { arm, calls } = client();
    await expect(arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: bad } } })).rejects.toMatchObject({
      code: 'invalid-argument',
      parameter: 'location',
    });
    expect(calls).toHaveLength(0);
  });

  it('refuses a missing path parameter instead of sending {name}', async () => {
    const { arm, calls } = client();
    // Only reachable from JavaScript or through a cast: the types require it.
    const params = { path: { subscriptionId: SUBSCRIPTION } } as unknown as { path: { subscriptionId: string; location: string } };
    await expect(arm.GET(IMAGES, { params })).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'location' });
    expect(calls).toHaveLength(0);
  });

  it('keeps a path prefix of baseUrl', async () => {
    const fake = fakeFetch(() => json({ name: 'x', available: true }));
    const arm = createResourceManagerClient({ baseUrl: `${BASE}/gateway/arm/`, token: 't', fetch: fake.fetch });
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(fake.calls[0]!.url.pathname).toBe(`/gateway/arm/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/checkNameAvailability`);
  });
});

describe('requests', () => {
  it('sends the body as JSON with Authorization and the extra headers', async () => {
    const fake = fakeFetch(() => json({ name: 'x', available: true }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-123', fetch: fake.fetch, headers: { 'x-ms-client-request-id': 'r1' } });
    const result = await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    const call = fake.calls[0]!;
    expect(call.method).toBe('POST');
    expect(call.headers.get('authorization')).toBe('Bearer tok-123');
    expect(call.headers.get('content-type')).toBe('application/json');
    expect(call.headers.get('x-ms-client-request-id')).toBe('r1');
    expect(JSON.parse(call.body)).toEqual({ name: 'x', type: 'Provider.Sql/servers' });
    expect(result.ok).toBe(true);
    expect(result.data).toEqual({ name: 'x', available: true });
  });

  it('calls getToken before every request, so a refreshed token is used', async () => {
    let n = 0;
    const fake = fakeFetch(() => json({ name: 'x', available: true }));
    const arm = createResourceManagerClient({ baseUrl: BASE, getToken: async () => `tok-${++n}`, fetch: fake.fetch });
    const init = { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' as const } };
    await arm.POST(CHECK, init);
    await arm.POST(CHECK, init);
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('puts the client token over an Authorization given in the extra headers', async () => {
    const fake = fakeFetch(() => json({ name: 'x', available: true }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 'right', fetch: fake.fetch, headers: { Authorization: 'Bearer wrong' } });
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(fake.calls[0]!.headers.get('authorization')).toBe('Bearer right');
  });

  it('works through request() with a lower-case method', async () => {
    const { arm, calls } = client();
    await arm.request('get', IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url.searchParams.get('api-version')).toBe(DEFAULT.containerinstance);
  });

  it('runs openapi-fetch middleware registered with use()', async () => {
    const { arm, calls } = client();
    const seen: string[] = [];
    arm.use({ onRequest: ({ schemaPath }) => void seen.push(schemaPath) });
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
    expect(seen).toEqual([IMAGES]);
    expect(calls).toHaveLength(1);
  });

  it('refuses a path of another family, and a per-request baseUrl, before sending', async () => {
    const { arm, calls } = client();
    const anyArm = arm as unknown as { GET(path: string, init?: object): Promise<unknown> };
    await expect(anyArm.GET('/companies({company_id})/shipmentMethods', {})).rejects.toMatchObject({ code: 'unknown-operation' });
    await expect(
      arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } }, baseUrl: 'https://elsewhere.example' }),
    ).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'baseUrl' });
    expect(calls).toHaveLength(0);
  });
});

describe('a client of named APIs (createResourceManagerClientOf)', () => {
  // Pins typed as none: the pinned version (untyped callers) and a pin of another API are what is checked.
  function named(apiVersions?: Record<string, string>) {
    const fake = fakeFetch(() => json({ name: 'x', available: true }));
    const arm = createResourceManagerClientOf([sqlApi], { baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false, apiVersions: apiVersions as {} });
    return { arm, calls: fake.calls };
  }

  it("sends a named API's operation as the client of every API does", async () => {
    const { arm, calls } = named();
    await arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(calls.map((c) => c.url.searchParams.getAll('api-version'))).toEqual([[DEFAULT.sql]]);
    const pinned = named({ sql: '2030-01-01' });
    await pinned.arm.POST(CHECK, { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    expect(pinned.calls[0]!.url.searchParams.get('api-version')).toBe('2030-01-01');
  });

  it('refuses, before sending, an operation or a pin of an API it does not hold', async () => {
    const { arm, calls } = named();
    const untyped = arm as unknown as { GET(path: string, init?: object): Promise<unknown> };
    await expect(untyped.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } })).rejects.toMatchObject({
      code: 'unknown-operation',
    });
    expect(calls).toHaveLength(0);
    expect(() => named({ containerinstance: DEFAULT.containerinstance })).toThrow(
      expect.objectContaining({
        code: 'invalid-argument',
        parameter: 'apiVersions.containerinstance',
        message: expect.stringContaining('names no resource-manager API (sql)'),
      }),
    );
  });

  it("refuses, before anything is sent, APIs that are not the family's manifest entries", () => {
    for (const bad of [[], [businesscentralApi], [{ ...sqlApi, family: undefined }], [null], 'sql', undefined]) {
      expect(() => createResourceManagerClientOf(bad as never, { baseUrl: BASE, token: 't' }), JSON.stringify(bad)).toThrow(
        expect.objectContaining({
          code: 'invalid-argument',
          parameter: 'apis',
          message: expect.stringContaining('must list one or more resource-manager APIs'),
        }),
      );
    }
  });
});
