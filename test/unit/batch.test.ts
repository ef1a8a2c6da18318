// The business-data client's `$batch` helper on the wire (src/batch.ts): the JSON body it
// builds from path-method arguments, where it posts it, how each answer is mapped back,
// and what it refuses before sending.
import { describe, expect, it } from 'vitest';
import { ClientError, createBatch, createBusinessCentralClient, createBusinessCentralClientOf } from '../../src/index.js';
import { DEFAULT } from './defaults.js';
import { fakeFetch, GUID, json, SHIPMENTS, VENDOR } from './fake-fetch.js';

const BASE = 'https://api.example.com';
const COMPANY = '9c4f2ddc-9e75-ea11-bbf0-000d3a38a583';
const VENDORS = '/companies({company_id})/vendors';

// Today's documents declare no `/$batch`, so the types do not offer `batch()` (test/types/odata-batch.test-d.ts):
// the runtime is driven untyped here.
type Adders = {
  GET(path: string, init?: unknown, options?: unknown): { id: string };
  POST(path: string, init?: unknown, options?: unknown): { id: string };
  PATCH(path: string, init?: unknown, options?: unknown): { id: string };
  DELETE(path: string, init?: unknown, options?: unknown): { id: string };
};
type Untyped = {
  batch(): Adders & {
    at(earlier: { id: string }): Adders;
    send(init?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<any>;
  };
};

function client(answer: Parameters<typeof fakeFetch>[0], options: Record<string, unknown> = {}) {
  const fake = fakeFetch(answer);
  const bc = createBusinessCentralClient({ baseUrl: BASE, token: 'tok-123', fetch: fake.fetch, retry: false, ...options }) as unknown as Untyped;
  return { bc, calls: fake.calls };
}

/**
 * A business-data API whose catalogue sends shipment methods at v1.0 and the rest at v2.0,
 * as the source's documents do, whatever this workspace's documents hold now (a recipe
 * may have moved shipment methods to v2.0): what a batch mixing versions needs.
 */
const SPLIT = { family: 'business-central', name: 'businesscentral', default: 'v2.0', match: '', operations: { [`POST ${SHIPMENTS}`]: 'v1.0' } } as const;
function splitClient(answer: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(answer);
  const bc = createBusinessCentralClientOf([SPLIT], { baseUrl: BASE, token: 'tok-123', fetch: fake.fetch, retry: false }) as unknown as Untyped;
  return { bc, calls: fake.calls };
}

/** Today's documents declare no /$batch, so the types offer createBatch none of their clients: the batch is used untyped here (test/types/odata-batch.test-d.ts types it). */
const newBatch = (c: unknown) => (createBatch as (c: unknown) => ReturnType<Untyped['batch']>)(c);

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => error as ClientError,
  );

describe('$batch: the request', () => {
  it("posts one JSON body to the version's $batch: ids, urls relative to the service root, headers, bodies, dependsOn, atomicityGroup", async () => {
    const { bc, calls } = client(() =>
      json({
        responses: [
          { id: '1', status: 201, headers: { etag: 'W/"1"' }, body: { id: GUID, displayName: 'A' } },
          { id: '2', status: 200, body: { id: GUID, displayName: 'B' } },
          { id: '3', status: 200, body: { value: [] } },
        ],
      }),
    );
    const batch = newBatch(bc);
    const a = batch.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: { displayName: 'A' } }, { atomicityGroup: 'g1' });
    const b = batch.PATCH(
      VENDOR,
      {
        params: { path: { company_id: COMPANY, vendor_id: GUID }, header: { 'If-Match': 'W/"1"' } },
        body: { displayName: 'B' },
        headers: { Prefer: 'return=representation' },
      },
      { dependsOn: [a], atomicityGroup: 'g1' },
    );
    batch.GET(VENDORS, { params: { path: { company_id: COMPANY }, query: { $top: 2, $filter: "displayName eq 'A'" } } }, { dependsOn: ['g1'] });
    expect([a.id, b.id]).toEqual(['1', '2']);
    const result = await batch.send({ headers: { 'x-trace': 't1' } });
    expect(result.ok).toBe(true);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(`${call!.method} ${call!.url.href}`).toBe(`POST ${BASE}/api/${DEFAULT.vendors}/$batch`);
    expect(call!.headers.get('authorization')).toBe('Bearer tok-123');
    expect(call!.headers.get('x-trace')).toBe('t1');
    expect(JSON.parse(call!.body)).toEqual({
      requests: [
        { id: '1', method: 'POST', url: `companies(${COMPANY})/vendors`, headers: {}, body: { displayName: 'A' }, atomicityGroup: 'g1' },
        {
          id: '2',
          method: 'PATCH',
          url: `companies(${COMPANY})/vendors(${GUID})`,
          headers: { 'If-Match': 'W/"1"', Prefer: 'return=representation' },
          body: { displayName: 'B' },
          dependsOn: ['1'],
          atomicityGroup: 'g1',
        },
        {
          id: '3',
          method: 'GET',
          url: `companies(${COMPANY})/vendors?$top=2&$filter=displayName%20eq%20'A'`,
          headers: {},
          dependsOn: ['g1'],
        },
      ],
    });
  });

  it('encodes keys with the path serializer, as the path methods do (a hostile key cannot leave its parentheses)', async () => {
    const { bc, calls } = client(() => json({ responses: [{ id: '1', status: 200, body: {} }] }));
    const batch = newBatch(bc);
    batch.GET(VENDORS, { params: { path: { company_id: "x')/evil(" } } });
    await batch.send();
    expect(JSON.parse(calls[0]!.body).requests[0].url).toBe('companies(x%27%29%2Fevil%28)/vendors');
  });
});

describe('$batch: requests at an earlier result ($<id>)', () => {
  const sent = async (build: (batch: ReturnType<Untyped['batch']>) => void) => {
    const { bc, calls } = client(() => json({ responses: [] }));
    const batch = newBatch(bc);
    build(batch);
    await rejection(batch.send()); // the fake answers no request: only the body sent matters here
    return JSON.parse(calls[0]!.body).requests.map(({ id, url, dependsOn }: any) => ({ id, url, dependsOn }));
  };

  it("starts the url with $<id> where the earlier result's part of the path was, and depends on it", async () => {
    const requests = await sent((batch) => {
      const created = batch.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: { displayName: 'A' } });
      // The created vendor's key is unknown before the batch runs: the part `$1` stands for takes no parameters.
      batch.at(created).PATCH(VENDOR, { body: { displayName: 'B' } });
      batch.at(created).GET(`${VENDOR}/lines({line_id})`, { params: { path: { line_id: "x')" }, query: { $select: 'id' } } }, { dependsOn: ['g0'] });
      const read = batch.GET(VENDOR, { params: { path: { company_id: COMPANY, vendor_id: GUID } } });
      batch.at(read).DELETE(VENDOR, {}, { dependsOn: [read, created] });
    });
    expect(requests).toEqual([
      { id: '1', url: `companies(${COMPANY})/vendors` },
      { id: '2', url: '$1', dependsOn: ['1'] },
      { id: '3', url: '$1/lines(x%27%29)?$select=id', dependsOn: ['g0', '1'] },
      { id: '4', url: `companies(${COMPANY})/vendors(${GUID})` },
      { id: '5', url: '$4', dependsOn: ['4', '1'] },
    ]);
  });

  it('refuses, before sending, a path that is not at or below that result, a request of another batch, and a missing parameter of the rest', async () => {
    const { bc, calls } = client(() => json({ responses: [] }));
    const refused = async (build: (batch: ReturnType<Untyped['batch']>) => void) => {
      const batch = newBatch(bc);
      build(batch);
      return rejection(batch.send());
    };
    const elsewhere = await refused((batch) => {
      const created = batch.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: {} });
      batch.at(created).POST(SHIPMENTS, { body: {} });
    });
    expect(elsewhere).toMatchObject({ code: 'invalid-argument', parameter: 'at' });
    expect(elsewhere.message).toBe(`$batch: request 2 (POST ${SHIPMENTS}) is not at or below the result of request 1 (POST ${VENDORS}); nothing sent.`);
    // A longer name is not below the earlier path: the rest must start a segment.
    const longer = await refused((batch) => batch.at(batch.GET(VENDORS, { params: { path: { company_id: COMPANY } } })).GET(`${VENDORS}Archive`));
    expect(longer.message).toContain('is not at or below the result of request 1 (GET');
    const other = newBatch(bc).GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    const foreign = await refused((batch) => batch.at(other).GET(VENDOR));
    expect(foreign.message).toBe(`$batch: request 1 (GET ${VENDOR}) is not at or below the result of a request of this batch; nothing sent.`);
    const missing = await refused((batch) =>
      batch.at(batch.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: {} })).GET(`${VENDOR}/lines({line_id})`),
    );
    expect(missing).toMatchObject({ code: 'invalid-argument', parameter: 'line_id' });
    expect(calls).toHaveLength(0);
  });
});

describe('$batch: the answers', () => {
  it("maps each answer back to its request, by id, whatever the order; a failed one carries the family's error body", async () => {
    const { bc } = client(() =>
      json({
        responses: [
          { id: '2', status: 412, headers: {}, body: { error: { code: 'PreconditionFailed', message: 'stale' } } },
          { id: '1', status: 201, headers: { etag: 'W/"1"' }, body: { id: GUID } },
          { id: '3', status: 424 },
        ],
      }),
    );
    const batch = newBatch(bc);
    const a = batch.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: {} });
    const b = batch.PATCH(VENDOR, { params: { path: { company_id: COMPANY, vendor_id: GUID } }, body: {} });
    const c = batch.DELETE(VENDOR, { params: { path: { company_id: COMPANY, vendor_id: GUID } } });
    const result = await batch.send();
    expect(result.get(a)).toEqual({ ok: true, status: 201, headers: { etag: 'W/"1"' }, data: { id: GUID } });
    expect(result.get(b)).toEqual({ ok: false, status: 412, headers: {}, error: { error: { code: 'PreconditionFailed', message: 'stale' } } });
    expect(result.get(c)).toMatchObject({ ok: false, status: 424, error: { error: { code: 'EmptyErrorBody' } } });
  });

  it('gives the batch POST its own result when it fails (no get), and rejects an answer that misses a request', async () => {
    const failed = client(() => json({ error: { code: 'BadRequest', message: 'requests[0].dependsOn names "9"' } }, 400));
    const batch = newBatch(failed.bc);
    batch.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    const result = await batch.send();
    expect(result).toMatchObject({ ok: false, error: { error: { code: 'BadRequest' } } });
    expect(result.get).toBeUndefined();

    const partial = client(() => json({ responses: [{ id: '1', status: 200, body: {} }] }));
    const two = newBatch(partial.bc);
    two.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    two.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    const error = await rejection(two.send());
    expect(error).toBeInstanceOf(ClientError);
    expect(error.code).toBe('invalid-body');
    expect(error.message).toContain('request 2');
  });

  it('reads the answer under maxBodyBytes, as every call does', async () => {
    const { bc } = client(() => json({ responses: [{ id: '1', status: 200, body: { big: 'x'.repeat(4096) } }] }), { maxBodyBytes: 1024 });
    const batch = newBatch(bc);
    batch.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    expect((await rejection(batch.send())).code).toBe('body-too-large');
  });

  it('refuses get() of a request of another batch', async () => {
    const { bc } = client(() => json({ responses: [{ id: '1', status: 200, body: {} }] }));
    const one = newBatch(bc);
    one.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    const other = newBatch(bc).GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    const result = await one.send();
    expect(() => result.get(other)).toThrow(/get\(\) takes a request of this batch/);
  });
});

describe('$batch: refused before sending', () => {
  it('an empty batch, a request that cannot be built, a per-request fault kept until send (no unhandled rejection)', async () => {
    const { bc, calls } = client(() => json({ responses: [] }));
    const empty = await rejection(newBatch(bc).send());
    expect([empty.code, empty.message]).toEqual(['invalid-argument', '$batch: no request added; nothing sent.']);

    const missing = newBatch(bc);
    missing.GET(VENDORS, { params: { path: {} } });
    const error = await rejection(missing.send());
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'company_id' });

    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const unserialisable = newBatch(bc);
    unserialisable.POST(VENDORS, { params: { path: { company_id: COMPANY } }, body: circular });
    expect(await rejection(unserialisable.send())).toMatchObject({ code: 'invalid-argument', parameter: 'body' });
    expect(calls).toHaveLength(0);
  });

  it('a batch mixing versions, naming them', async () => {
    const { bc, calls } = splitClient(() => json({ responses: [] }));
    const batch = newBatch(bc);
    batch.GET(VENDORS, { params: { path: { company_id: COMPANY } } });
    batch.POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP' } });
    const error = await rejection(batch.send());
    expect(error).toMatchObject({ code: 'invalid-argument', parameter: 'apiVersions' });
    expect(error.message).toBe(
      `$batch: request 2 (POST ${SHIPMENTS}) is sent at v1.0, the batch at v2.0; pin the version or send one batch per version; nothing sent.`,
    );
    expect(calls).toHaveLength(0);
  });

  it("requests at another version than the client's $batch, naming the pin to use", async () => {
    const { bc, calls } = splitClient(() => json({ responses: [] }));
    const batch = newBatch(bc);
    batch.POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP' } });
    const error = await rejection(batch.send());
    expect(error.message).toContain(`request 1 (POST ${SHIPMENTS}) is sent at v1.0, the batch at v2.0`);
    expect(calls).toHaveLength(0);
  });

  it('a pinned client sends every request and the $batch at its pin', async () => {
    const { bc, calls } = client(() => json({ responses: [{ id: '1', status: 201, body: {} }] }), { apiVersions: { businesscentral: 'v1.0' } });
    const batch = newBatch(bc);
    batch.POST(SHIPMENTS, { params: { path: { company_id: COMPANY } }, body: { code: 'EXP' } });
    await batch.send();
    expect(calls[0]!.url.pathname).toBe('/api/v1.0/$batch');
  });
});
