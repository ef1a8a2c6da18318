// OData's JSON control information, $count, Prefer: return=minimal, deep insert and the
// JSON $batch (OData 4.01), as the mock answers them for a document that declares them:
// the fixture test/contract/fixtures/odata-control/business-v8.0.yaml, grown as
// specs/README.md's "a new entity" recipe grows one (`salesOrders` with `lines`, its
// schema declaring `@odata.etag` and `@odata.context`; `notes` declaring neither), served
// beside the query fixture (v7.0), whose document declares no $batch.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { createBatch, createBusinessCentralClient } from '../../src/index.js';
import { AUTH, startMock } from './growth-fixtures.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const COMPANY = 'c0ffee00-0000-4000-8000-00000000000b';

let mock: Mock;
beforeAll(async () => {
  mock = await startMock({
    port: 0,
    documents: [
      { api: 'odata-control', version: 'v8.0', family: 'business-central', document: join(FIXTURES, 'odata-control/business-v8.0.yaml') },
      { api: 'odata-query', version: 'v7.0', family: 'business-central', document: join(FIXTURES, 'odata-query/business-v7.0.yaml') },
    ],
  });
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const root = () => `${mock.url}/api/v8.0`;
const orders = (company = COMPANY) => `${root()}/companies(${company})/salesOrders`;
const order = (id: string) => `${orders()}(${id})`;
const context = (entity: boolean) => `${root()}/$metadata#companies(${COMPANY})/salesOrders${entity ? '/$entity' : ''}`;

interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function call(
  url: string,
  { method = 'GET', body, headers = {} }: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const response = await fetch(url, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) => call(orders(), { method: 'POST', body, headers });
const batch = (requests: unknown, url = `${root()}/$batch`) => call(url, { method: 'POST', body: requests === undefined ? {} : { requests } });
const total = async () => Number((await call(`${orders()}/$count`)).text);

describe('@odata.etag and @odata.context on every entity the mock answers', () => {
  it("create, read by key and PATCH: the body carries the ETag header's tag and the entity's context", async () => {
    const created = await create({ number: 'S-1', amount: 10 });
    expect(created.status).toBe(201);
    expect(created.body['@odata.etag']).toBe(created.headers.get('etag'));
    expect(created.body['@odata.context']).toBe(context(true));
    const read = await call(order(created.body.id));
    expect(read.body['@odata.etag']).toBe(read.headers.get('etag'));
    expect(read.body['@odata.etag']).toBe(created.body['@odata.etag']);
    expect(read.body['@odata.context']).toBe(context(true));
    const patched = await call(order(created.body.id), { method: 'PATCH', body: { amount: 11 }, headers: { 'if-match': read.body['@odata.etag'] } });
    expect(patched.status).toBe(200);
    expect(patched.body['@odata.etag']).toBe(patched.headers.get('etag'));
    expect(patched.body['@odata.etag']).not.toBe(read.body['@odata.etag']);
    expect((await call(order(created.body.id))).body['@odata.etag']).toBe(patched.body['@odata.etag']);
  });

  it('every item of a list carries its current tag, and the list its context', async () => {
    const a = await create({ number: 'A' });
    const b = await create({ number: 'B' });
    const changed = await call(order(b.body.id), { method: 'PATCH', body: { number: 'B2' } });
    const list = await call(orders());
    expect(list.body['@odata.context']).toBe(context(false));
    const tags = Object.fromEntries(list.body.value.map((item: any) => [item.id, item['@odata.etag']]));
    expect(tags).toEqual({ [a.body.id]: a.headers.get('etag'), [b.body.id]: changed.headers.get('etag') });
    expect(list.body.value.every((item: any) => !('@odata.context' in item))).toBe(true);
  });

  it("the list-then-update flow: a list item's tag is the If-Match that updates it; an older one is 412", async () => {
    const created = await create({ number: 'L-1', amount: 1 });
    const [item] = (await call(orders())).body.value;
    const updated = await call(order(item.id), { method: 'PATCH', body: { amount: 2 }, headers: { 'if-match': item['@odata.etag'] } });
    expect(updated.status).toBe(200);
    expect(updated.body.amount).toBe(2);
    const stale = await call(order(item.id), { method: 'PATCH', body: { amount: 3 }, headers: { 'if-match': created.body['@odata.etag'] } });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('etag')).toBe(updated.body['@odata.etag']);
  });

  it('an annotation sent in a body is never stored: the answer carries the current tag', async () => {
    const created = await create({ number: 'X', '@odata.etag': 'W/"mine"', '@odata.context': 'elsewhere' });
    expect(created.body['@odata.etag']).toBe(created.headers.get('etag'));
    expect(created.body['@odata.etag']).not.toBe('W/"mine"');
    expect(created.body['@odata.context']).toBe(context(true));
  });

  it('a seeded entity holding an old @odata.etag is answered with its current tag, in a read and in a list', async () => {
    const id = 'a11ce000-0000-4000-8000-000000000001';
    mock.seed({ entities: [{ company: COMPANY, set: 'salesOrders', entity: { id, number: 'OLD', '@odata.etag': 'W/"old"' }, eTag: 'W/"current"' }] });
    expect((await call(order(id))).body['@odata.etag']).toBe('W/"current"');
    const [item] = (await call(orders())).body.value;
    expect(item['@odata.etag']).toBe('W/"current"');
    expect(Object.keys(item)[0]).toBe('@odata.etag');
  });

  it('a set whose schema declares neither annotation answers none', async () => {
    const notes = `${root()}/companies(${COMPANY})/notes`;
    const created = await call(notes, { method: 'POST', body: { text: 'hello' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).filter((key) => key.startsWith('@'))).toEqual([]);
    const list = await call(notes);
    expect(Object.keys(list.body).filter((key) => key.startsWith('@'))).toEqual([]);
    expect(Object.keys(list.body.value[0]).filter((key) => key.startsWith('@'))).toEqual([]);
  });
});

describe('deep insert', () => {
  it('nested entities get their own keys and tags; a read by key leaves them out unless $expand names them', async () => {
    const created = await create({
      number: 'D-1',
      lines: [
        { itemName: 'bolt', quantity: 2, id: 'mine' },
        { itemName: 'nut', quantity: 5 },
      ],
    });
    expect(created.status).toBe(201);
    const lines = created.body.lines;
    expect(lines.map((line: any) => [line.itemName, line.quantity])).toEqual([
      ['bolt', 2],
      ['nut', 5],
    ]);
    expect(lines.every((line: any) => /^[0-9a-f-]{36}$/.test(line.id))).toBe(true);
    expect(new Set([created.body.id, ...lines.map((line: any) => line.id)]).size).toBe(3);
    expect(lines.every((line: any) => typeof line['@odata.etag'] === 'string' && line['@odata.etag'] !== created.body['@odata.etag'])).toBe(true);
    expect(lines[0]['@odata.etag']).not.toBe(lines[1]['@odata.etag']);
    const plain = await call(order(created.body.id));
    expect(plain.body).not.toHaveProperty('lines');
    const expanded = await call(`${order(created.body.id)}?$expand=lines`);
    expect(expanded.body.lines).toEqual(lines);
    const listed = await call(`${orders()}?$expand=lines`);
    expect(listed.body.value[0].lines).toEqual(lines);
    expect((await call(orders())).body.value[0]).not.toHaveProperty('lines');
  });

  it('an object without a key is a plain value: stored as sent, read back without $expand, given no id', async () => {
    const created = await create({ number: 'D-4', shipTo: { city: 'Oslo' } });
    expect(created.body.shipTo).toEqual({ city: 'Oslo' });
    expect((await call(order(created.body.id))).body.shipTo).toEqual({ city: 'Oslo' });
  });

  it('$expand of a property that is no navigation property is 400 naming it', async () => {
    const created = await create({ number: 'D-2' });
    const refused = await call(`${order(created.body.id)}?$expand=number`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'BadRequest', target: '$expand' });
    expect(refused.body.error.message).toContain('number');
  });

  it('a PATCH leaves the related entities as they are', async () => {
    const created = await create({ number: 'D-3', lines: [{ itemName: 'bolt', quantity: 2 }] });
    const patched = await call(order(created.body.id), { method: 'PATCH', body: { number: 'D-3b', lines: [] } });
    expect(patched.status).toBe(200);
    expect(patched.body).not.toHaveProperty('lines');
    expect((await call(`${order(created.body.id)}?$expand=lines`)).body.lines).toEqual(created.body.lines);
  });
});

describe('/$count and Prefer: return=minimal', () => {
  it('GET <set>/$count answers the matches of its $filter as a text/plain integer', async () => {
    for (const amount of [1, 5, 9]) await create({ number: `C-${amount}`, amount });
    const all = await call(`${orders()}/$count`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(all.text).toBe('3');
    const some = await call(`${orders()}/$count?$filter=${encodeURIComponent('amount gt 2')}`);
    expect(some.text).toBe('2');
    const other = await call(`${root()}/companies(c0ffee00-0000-4000-8000-0000000000ff)/salesOrders/$count`);
    expect(other.text).toBe('0');
  });

  it('a $count option it does not declare, or a filter on no property, is 400 naming the option', async () => {
    const top = await call(`${orders()}/$count?$top=1`);
    expect(top.status).toBe(400);
    expect(top.body.error.target).toBe('$top');
    const unknown = await call(`${orders()}/$count?$filter=${encodeURIComponent("colour eq 'red'")}`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('colour');
  });

  it('PATCH with return=minimal: 204, Preference-Applied and the new ETag; return=representation: the entity', async () => {
    const created = await create({ number: 'P-1', amount: 1 });
    const minimal = await call(order(created.body.id), { method: 'PATCH', body: { amount: 2 }, headers: { prefer: 'return=minimal' } });
    expect(minimal.status).toBe(204);
    expect(minimal.text).toBe('');
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    const read = await call(order(created.body.id));
    expect(read.body.amount).toBe(2);
    expect(minimal.headers.get('etag')).toBe(read.headers.get('etag'));
    expect(minimal.headers.get('etag')).not.toBe(created.headers.get('etag'));
    const full = await call(order(created.body.id), { method: 'PATCH', body: { amount: 3 }, headers: { prefer: 'return=representation' } });
    expect(full.status).toBe(200);
    expect(full.headers.get('preference-applied')).toBe('return=representation');
    expect(full.body).toMatchObject({ amount: 3, '@odata.etag': full.headers.get('etag') });
  });

  it('a create with return=minimal: 204 with the ETag of what it stored; where no 204 is declared, the entity', async () => {
    const minimal = await create({ number: 'P-2' }, { prefer: 'return=minimal' });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    const [item] = (await call(orders())).body.value;
    expect(item).toMatchObject({ number: 'P-2', '@odata.etag': minimal.headers.get('etag') });
    expect(minimal.headers.get('location')).toBe(order(item.id));
    expect(minimal.headers.get('odata-entityid')).toBe(order(item.id));
    const note = await call(`${root()}/companies(${COMPANY})/notes`, { method: 'POST', body: { text: 'x' }, headers: { prefer: 'return=minimal' } });
    expect(note.status).toBe(201);
    expect(note.headers.get('preference-applied')).toBeNull();
  });
});

describe('$batch (OData 4.01 JSON batch)', () => {
  it('is served with its own convention where the document declares POST /$batch, and 404 where it does not', async () => {
    expect(mock.routes.find((r) => r.path === '/api/v8.0/$batch')?.convention).toBe('odata-batch');
    expect(mock.routes.find((r) => r.path === '/api/v8.0/companies({company_id})/salesOrders/$count')?.convention).toBe('odata-count');
    const elsewhere = await batch([{ id: '1', method: 'GET', url: `companies(${COMPANY})/contacts` }], `${mock.url}/api/v7.0/$batch`);
    expect(elsewhere.status).toBe(404);
  });

  it('each member is answered as if sent alone: routing, validation, conventions and state', async () => {
    const seeded = await create({ number: 'B-0', amount: 4 });
    const answer = await batch([
      { id: 'read', method: 'GET', url: `companies(${COMPANY})/salesOrders(${seeded.body.id})` },
      { id: 'create', method: 'POST', url: `/api/v8.0/companies(${COMPANY})/salesOrders`, body: { number: 'B-1', amount: 6 } },
      { id: 'invalid', method: 'POST', url: `companies(${COMPANY})/salesOrders`, body: { number: 42 } },
      { id: 'missing', method: 'GET', url: `companies(${COMPANY})/nowhere` },
      { id: 'count', method: 'GET', url: `companies(${COMPANY})/salesOrders/$count?$filter=amount%20gt%205` },
    ]);
    expect(answer.status).toBe(200);
    // Each member is recorded like a request of its own, after the batch.
    const recorded = mock.requests.slice(-6).map((r) => [r.method, r.operationId ?? null, r.status]);
    expect(recorded).toEqual([
      ['POST', 'batch', 200],
      ['GET', 'getSalesOrder', 200],
      ['POST', 'createSalesOrder', 201],
      ['POST', 'createSalesOrder', 400],
      ['GET', null, 404],
      ['GET', 'countSalesOrders', 200],
    ]);
    const byId = Object.fromEntries(answer.body.responses.map((r: any) => [r.id, r]));
    expect(answer.body.responses.map((r: any) => r.id)).toEqual(['read', 'create', 'invalid', 'missing', 'count']);
    expect(byId.read).toMatchObject({ status: 200, body: { id: seeded.body.id, '@odata.etag': seeded.headers.get('etag') } });
    expect(byId.read.headers.etag).toBe(seeded.headers.get('etag'));
    expect(byId.create.status).toBe(201);
    expect(byId.create.body['@odata.etag']).toBe(byId.create.headers.etag);
    const alone = await call(orders(), { method: 'POST', body: { number: 42 } });
    expect(byId.invalid.status).toBe(alone.status);
    expect(byId.invalid.body).toEqual(alone.body);
    expect(byId.missing.status).toBe(404);
    expect(byId.count).toMatchObject({ status: 200, body: 1 });
    const stored = await call(order(byId.create.body.id));
    expect(stored.body).toMatchObject({ number: 'B-1', '@odata.etag': byId.create.headers.etag });
  });

  it('$<id> is the entity an earlier request created; a member whose dependency failed answers 424 and is not run', async () => {
    const answer = await batch([
      { id: '1', method: 'POST', url: `companies(${COMPANY})/salesOrders`, body: { number: 'R-1' } },
      { id: '2', method: 'PATCH', url: '$1', dependsOn: ['1'], body: { amount: 8 } },
      { id: '3', method: 'GET', url: `companies(${COMPANY})/salesOrders(00000000-0000-4000-8000-000000000404)` },
      { id: '4', method: 'POST', url: `companies(${COMPANY})/salesOrders`, dependsOn: ['3'], body: { number: 'never' } },
      { id: '5', method: 'PATCH', url: '$4', body: { amount: 1 } },
    ]);
    const [created, patched, missing, skipped, referenced] = answer.body.responses;
    expect(patched).toMatchObject({ status: 200, body: { id: created.body.id, amount: 8 } });
    expect(missing.status).toBe(404);
    expect(skipped.status).toBe(424);
    expect(skipped.body.error.message).toContain('3');
    expect(referenced.status).toBe(424);
    expect(await total()).toBe(1);
  });

  it("the house client's batch helper: at(created) sends $<id> for the created entity, and what depends on a failed create is not run", async () => {
    // The generated types hold no v8.0 (a fixture): the client is pinned to it and the batch used untyped.
    const bc = createBusinessCentralClient({ baseUrl: mock.url, token: 'fixture-token', apiVersions: { businesscentral: 'v8.0' as 'v2.0' } });
    type Adders = Record<'GET' | 'POST' | 'PATCH', (path: string, init?: unknown) => { id: string }>;
    const batch = (createBatch as (client: unknown) => Adders & { at(earlier: { id: string }): Adders; send(): Promise<any> })(bc);
    const key = '/companies({company_id})/salesOrders({salesOrder_id})';
    const params = { path: { company_id: COMPANY } };
    const created = batch.POST('/companies({company_id})/salesOrders', { params, body: { number: 'H-1', amount: 1 } });
    const patched = batch.at(created).PATCH(key, { body: { amount: 9 } });
    const read = batch.at(created).GET(key);
    const refused = batch.POST('/companies({company_id})/salesOrders', { params, body: { number: 42 } });
    const never = batch.at(refused).PATCH(key, { body: { amount: 1 } });
    const result = await batch.send();
    expect(result.ok).toBe(true);
    const made = result.get(created);
    expect(made.status).toBe(201);
    expect(result.get(patched)).toMatchObject({ ok: true, status: 200, data: { id: made.data.id, amount: 9 } });
    expect(result.get(read)).toMatchObject({ ok: true, status: 200, data: { id: made.data.id, number: 'H-1', amount: 9 } });
    expect(result.get(refused).status).toBe(400);
    expect(result.get(never)).toMatchObject({ ok: false, status: 424 });
    expect(await total()).toBe(1);
  });

  it('$<id> of a create answered with return=minimal (no body) is its Location', async () => {
    const answer = await batch([
      { id: '1', method: 'POST', url: `companies(${COMPANY})/salesOrders`, headers: { prefer: 'return=minimal' }, body: { number: 'M-1' } },
      { id: '2', method: 'GET', url: '$1', dependsOn: ['1'] },
    ]);
    expect(answer.body.responses.map((r: any) => r.status)).toEqual([204, 200]);
    expect(answer.body.responses[1].body).toMatchObject({ number: 'M-1', '@odata.etag': answer.body.responses[0].headers.etag });
  });

  it('an atomicity group is all or nothing: a failed member leaves the store as before the group', async () => {
    const kept = await create({ number: 'G-0', amount: 1 });
    const answer = await batch([
      { id: 'a', method: 'POST', url: `companies(${COMPANY})/salesOrders`, body: { number: 'G-1' }, atomicityGroup: 'g' },
      { id: 'b', method: 'PATCH', url: `companies(${COMPANY})/salesOrders(${kept.body.id})`, body: { amount: 2 }, atomicityGroup: 'g' },
      {
        id: 'c',
        method: 'PATCH',
        url: `companies(${COMPANY})/salesOrders(${kept.body.id})`,
        headers: { 'If-Match': 'W/"stale"' },
        body: { amount: 3 },
        atomicityGroup: 'g',
      },
      { id: 'd', method: 'DELETE', url: `companies(${COMPANY})/salesOrders(${kept.body.id})`, atomicityGroup: 'g' },
      { id: 'after', method: 'GET', url: `companies(${COMPANY})/salesOrders/$count`, dependsOn: ['g'] },
      { id: 'free', method: 'GET', url: `companies(${COMPANY})/salesOrders/$count` },
    ]);
    const statuses = Object.fromEntries(answer.body.responses.map((r: any) => [r.id, r.status]));
    expect(statuses).toEqual({ a: 424, b: 424, c: 412, d: 424, after: 424, free: 200 });
    expect(answer.body.responses.find((r: any) => r.id === 'free').body).toBe(1);
    // The 412 reports no tag of the state b made inside the group, which the rollback undid.
    expect(answer.body.responses.find((r: any) => r.id === 'c').headers.etag).toBeUndefined();
    const read = await call(order(kept.body.id));
    expect(read.body).toMatchObject({ amount: 1, '@odata.etag': kept.headers.get('etag') });
    expect(await total()).toBe(1);
  });

  it('a group whose members all succeed applies, and a later member may depend on the group', async () => {
    const answer = await batch([
      { id: 'a', method: 'POST', url: `companies(${COMPANY})/salesOrders`, body: { number: 'H-1' }, atomicityGroup: 'g' },
      { id: 'b', method: 'PATCH', url: '$a', body: { amount: 5 }, atomicityGroup: 'g', dependsOn: ['a'] },
      { id: 'c', method: 'GET', url: `companies(${COMPANY})/salesOrders/$count`, dependsOn: ['g'] },
    ]);
    expect(answer.body.responses.map((r: any) => r.status)).toEqual([201, 200, 200]);
    expect(answer.body.responses[2].body).toBe(1);
    expect(answer.body.responses[0].atomicityGroup).toBe('g');
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['no requests array', undefined, /requests/],
    ['a request without id', [{ method: 'GET', url: 'companies(x)/salesOrders' }], /requests.0.*\bid\b/],
    [
      'an id given twice',
      [
        { id: '1', method: 'GET', url: 'x' },
        { id: '1', method: 'GET', url: 'x' },
      ],
      /"1" is given twice/,
    ],
    ['a method no batch member has', [{ id: '1', method: 'TRACE', url: 'x' }], /requests\[0\]\.method/],
    [
      'dependsOn a later request',
      [
        { id: '1', method: 'GET', url: 'x', dependsOn: ['2'] },
        { id: '2', method: 'GET', url: 'x' },
      ],
      /dependsOn names "2"/,
    ],
    ['a $reference to no earlier request', [{ id: '1', method: 'GET', url: '$9/lines' }], /\$9/],
    [
      'a group split by another request',
      [
        { id: '1', method: 'GET', url: 'x', atomicityGroup: 'g' },
        { id: '2', method: 'GET', url: 'x' },
        { id: '3', method: 'GET', url: 'x', atomicityGroup: 'g' },
      ],
      /adjacent/,
    ],
  ];
  it.each(malformed)('a malformed batch (%s) is 400 in the family error body, naming what is wrong, and runs nothing', async (_name, requests, message) => {
    const before = await total();
    const answer = await call(`${root()}/$batch`, {
      method: 'POST',
      body:
        requests === undefined
          ? { calls: [] }
          : { requests: [...(requests as unknown[]), { id: 'z', method: 'POST', url: `companies(${COMPANY})/salesOrders`, body: {} }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BadRequest');
    expect(answer.body.error.message).toMatch(message);
    expect(await total()).toBe(before);
  });

  it("a member URL outside the service root, on another origin, or a batch in a batch, is that member's 400", async () => {
    const answer = await batch([
      { id: '1', method: 'GET', url: '/__mock/state' },
      { id: '2', method: 'POST', url: '$batch', body: { requests: [] } },
      { id: '3', method: 'GET', url: `http://other.example/api/v8.0/companies(${COMPANY})/salesOrders` },
      { id: '4', method: 'GET', url: `${mock.url}/api/v8.0/companies(${COMPANY})/salesOrders` },
    ]);
    expect(answer.body.responses.map((r: any) => r.status)).toEqual([400, 400, 400, 200]);
    expect(answer.body.responses[0].body.error.message).toContain('service root');
    expect(answer.body.responses[2].body.error.message).toContain("not on the batch's own origin");
  });

  it("keeps a member's credentials out of the record, as a request's own are", async () => {
    await batch([{ id: '1', method: 'GET', url: `companies(${COMPANY})/salesOrders`, headers: { Authorization: 'Bearer member-secret' } }]);
    const recorded = mock.requests.filter((r) => r.method === 'POST' && r.operationId === 'batch').at(-1)!;
    expect(JSON.stringify(recorded.body)).not.toContain('member-secret');
    expect((recorded.body as any).requests[0].headers.authorization).toBe('Bearer [redacted]');
  });

  it('refuses a body nested deeper than 64 levels with a 400 naming the limit (not a stack overflow)', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 2000; i++) deep = { a: deep };
    for (const url of [`${root()}/$batch`, `${root()}/companies(${COMPANY})/salesOrders`]) {
      const answer = await call(url, { method: 'POST', body: { number: 'D-1', nested: deep } });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message).toContain('deeper than 64 levels');
    }
  });
});

describe('read-only values below an entity are ignored (model/read-only.mjs)', () => {
  it('create and PATCH drop a read-only field of a nested object (shipTo.geocode), and a read answers without it', async () => {
    const created = await create({ number: 'R-1', shipTo: { city: 'Lyon', geocode: 'sent' } });
    expect(created.status).toBe(201);
    expect(created.body.shipTo).toEqual({ city: 'Lyon' });
    const patched = await call(order(created.body.id), {
      method: 'PATCH',
      body: { shipTo: { city: 'Nice', geocode: 'sent again' } },
      headers: { 'if-match': created.body['@odata.etag'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.shipTo).toEqual({ city: 'Nice' });
    expect((await call(order(created.body.id))).body.shipTo).toEqual({ city: 'Nice' });
  });
});
