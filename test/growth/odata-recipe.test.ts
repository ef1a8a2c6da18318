// specs/README.md's "a new entity" recipe with what it declares for OData's control
// information and bulk work (test/growth/odata-recipe.mjs: an entity set with lines, its
// schema declaring `@odata.etag` and `@odata.context`, `/$count`, 204s for
// `Prefer: return=minimal`, the version's `/$batch`), done on the growth files' copy
// (test/growth/grown.ts, beside the other recipes' growth): the build
// is green (lint included), and the copy's own mock serves each by convention: the
// list-then-update flow from a list item's tag, deep insert, $count, return=minimal and a
// batch whose second request changes what its first created.
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readGeneratedConst } from '../helpers/generated.js';
import { tsc7 } from '../helpers/tsc7.js';
import { grownWorkspace } from './grown.js';

const COMPANY = 'c0ffee00-0000-4000-8000-0000000000c1';
const AUTH = { authorization: 'Bearer recipe-token' };
let dir: string;
let build: { code: number; output: string };
let grown: { entity: string; set: string; keyParam: string; batch: boolean };

beforeAll(async () => {
  ({ dir, build, order: grown } = await grownWorkspace());
}, 240_000);

async function call(url: string, { method = 'GET', body, headers = {} }: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, body: json, text };
}

describe('the recipe with OData control information, $count, return=minimal, deep insert and $batch', () => {
  it('builds green with no edit outside specs/', () => {
    expect(build.output).toContain('build  done');
    expect(build.code).toBe(0);
  });

  it("the copy's mock serves each by convention, and the everyday flows hold", async () => {
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const mock = await startMock({ port: 0 });
    try {
      const root = `${mock.url}/api/v2.0`;
      const orders = `${root}/companies(${COMPANY})/${grown.set}`;
      const conventions = Object.fromEntries(
        mock.routes.filter((r: any) => r.path.startsWith('/api/v2.0/')).map((r: any) => [`${r.method} ${r.path}`, r.convention]),
      );
      expect(conventions).toMatchObject({
        [`GET /api/v2.0/companies({company_id})/${grown.set}/$count`]: 'odata-count',
        'POST /api/v2.0/$batch': 'odata-batch',
      });

      // Deep insert: the order and its lines, each with its own id and tag.
      const created = await call(orders, { method: 'POST', body: { number: 'SO-1', amount: 5, lines: [{ itemName: 'Bolt', quantity: 4 }] } });
      expect(created.status).toBe(201);
      expect(created.body['@odata.etag']).toBe(created.headers.get('etag'));
      expect(created.body['@odata.context']).toBe(`${root}/$metadata#companies(${COMPANY})/${grown.set}/$entity`);
      expect(created.body.lines[0]).toMatchObject({ itemName: 'Bolt', id: expect.stringMatching(/^[0-9a-f-]{36}$/), '@odata.etag': expect.any(String) });
      expect((await call(`${orders}(${created.body.id})`)).body).not.toHaveProperty('lines');

      // List, take an item's tag, update with it.
      const list = await call(orders);
      expect(list.body['@odata.context']).toBe(`${root}/$metadata#companies(${COMPANY})/${grown.set}`);
      const item = list.body.value.find((entity: any) => entity.id === created.body.id);
      const updated = await call(`${orders}(${item.id})`, { method: 'PATCH', body: { amount: 6 }, headers: { 'if-match': item['@odata.etag'] } });
      expect(updated.status).toBe(200);
      expect(updated.body['@odata.etag']).toBe(updated.headers.get('etag'));

      const minimal = await call(`${orders}(${item.id})`, {
        method: 'PATCH',
        body: { amount: 7 },
        headers: { 'if-match': updated.body['@odata.etag'], prefer: 'return=minimal' },
      });
      expect(minimal.status).toBe(204);
      expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
      expect((await call(`${orders}(${item.id})`)).headers.get('etag')).toBe(minimal.headers.get('etag'));

      expect((await call(`${orders}/$count?$filter=${encodeURIComponent('amount gt 6')}`)).text).toBe('1');

      const batch = await call(`${root}/$batch`, {
        method: 'POST',
        body: {
          requests: [
            { id: '1', method: 'POST', url: `companies(${COMPANY})/${grown.set}`, body: { number: 'SO-2' }, atomicityGroup: 'g' },
            { id: '2', method: 'PATCH', url: '$1', dependsOn: ['1'], body: { amount: 10 }, atomicityGroup: 'g' },
            { id: '3', method: 'GET', url: `companies(${COMPANY})/${grown.set}/$count`, dependsOn: ['g'] },
          ],
        },
      });
      expect(batch.status).toBe(200);
      expect(batch.body.responses.map((r: any) => r.status)).toEqual([201, 200, 200]);
      expect(batch.body.responses[1].body).toMatchObject({ id: batch.body.responses[0].body.id, amount: 10 });
      expect(batch.body.responses[2].body).toBe(2);
    } finally {
      await mock.close();
    }
  });

  it("the house client: list then update each item from its own tag, and a batch, typed by the copy's documents", async () => {
    const list = `/companies({company_id})/${grown.set}`;
    const key = `${list}({${grown.keyParam}})`;
    // Types: the tag is read-only in the generated types, a string on listAll's items, and
    // what patchWithETag and a batch request take; each batch answer is typed by its operation.
    // The conveniences still give the path methods' own types with the new set (conveniences.test-d.ts).
    const check = `
      import { createBatch, createBusinessCentralClient } from './src/index.js';
      import type { $Read, paths } from './generated/types/businesscentral-v2.0.js';
      type Item = NonNullable<paths['${list}']['get']['responses'][200]['content']['application/json']['value']>[number];
      const marked: [Item['@odata.etag'], $Read<string> | undefined] = [undefined as $Read<string> | undefined, undefined as Item['@odata.etag']];
      const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't' });
      const params = { path: { company_id: 'c' } };
      const keyOf = (id: string) => ({ path: { company_id: 'c', ${grown.keyParam}: id } });
      for await (const item of bc.listAll('${list}', { params })) {
        const tag: string = item['@odata.etag'];
        await bc.patchWithETag('${key}', { params: keyOf(item.id!), eTag: tag, body: { amount: 1 } });
        // @ts-expect-error the tag is read-only: never sent in a body
        await bc.patchWithETag('${key}', { params: keyOf(item.id!), eTag: tag, body: { '@odata.etag': tag } });
      }
      const batch = createBatch(bc);
      const a = batch.POST('${list}', { params, body: { number: 'SO-9' } }, { atomicityGroup: 'g' });
      const b = batch.PATCH('${key}', { params: { ...keyOf('x'), header: { 'If-Match': 'W/"1"' } }, body: { amount: 2 } }, { dependsOn: [a], atomicityGroup: 'g' });
      const result = await batch.send();
      if (result.ok) {
        const created = result.get(a);
        if (created.ok) { const number: string | undefined = created.data.number; const tag: string = created.data['@odata.etag']; void number; void tag; }
        const updated = result.get(b);
        if (!updated.ok) { const status: number = updated.status; void status; }
      }
      void marked;
    `;
    await writeFile(join(dir, 'odata-client-check.ts'), check);
    await writeFile(
      join(dir, 'tsconfig.odata-client.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { noEmit: true },
        include: ['src', 'generated/**/*.ts', 'odata-client-check.ts', 'test/types/conveniences.test-d.ts'],
        exclude: [],
      }),
    );
    expect(await tsc7(dir, 'tsconfig.odata-client.json')).toBe('');

    // The same flows at run time, through the copy's compiled package and its mock.
    const { startMock } = await import(join(dir, 'mock/index.mjs'));
    const { createBatch, createBusinessCentralClient } = await import(join(dir, 'dist/src/index.js'));
    const mock = await startMock({ port: 0 });
    try {
      const bc = createBusinessCentralClient({ baseUrl: mock.url, token: 'recipe-token', retry: false });
      const params = { path: { company_id: COMPANY } };
      const keyOf = (id: string) => ({ path: { company_id: COMPANY, [grown.keyParam]: id } });
      for (const number of ['SO-C1', 'SO-C2']) expect((await bc.POST(list, { params, body: { number, amount: 1 } })).response.status).toBe(201);
      const listAll = async () => {
        const items: any[] = [];
        for await (const item of bc.listAll(list, { params })) items.push(item);
        return items;
      };
      const items = await listAll();
      expect(items.length).toBeGreaterThanOrEqual(2);
      for (const item of items) {
        expect(item['@odata.etag']).toEqual(expect.any(String));
        const updated = await bc.patchWithETag(key, { params: keyOf(item.id), eTag: item['@odata.etag'], body: { amount: 42 } });
        expect([updated.ok, updated.response.status, updated.data.amount]).toEqual([true, 200, 42]);
        expect(updated.data['@odata.etag']).not.toBe(item['@odata.etag']);
      }
      const stale = await bc.patchWithETag(key, { params: keyOf(items[0].id), eTag: items[0]['@odata.etag'], body: { amount: 43 } });
      expect([stale.ok, stale.response.status]).toEqual([false, 412]);

      // A batch: a create and an update in one atomicity group, then a list that depends on the group.
      const [first] = await listAll();
      const batch = createBatch(bc);
      const create = batch.POST(list, { params, body: { number: 'SO-B1', amount: 3 } }, { atomicityGroup: 'g1' });
      const update = batch.PATCH(
        key,
        { params: { ...keyOf(first.id), header: { 'If-Match': first['@odata.etag'] } }, body: { amount: 7 } },
        { atomicityGroup: 'g1' },
      );
      const listed = batch.GET(list, { params: { ...params, query: { $filter: "number eq 'SO-B1'" } } }, { dependsOn: ['g1'] });
      const result = await batch.send();
      expect([result.ok, result.response.status]).toEqual([true, 200]);
      const created = result.get(create);
      expect(created).toMatchObject({ ok: true, status: 201, data: { number: 'SO-B1', amount: 3, '@odata.etag': expect.any(String) } });
      expect(result.get(update)).toMatchObject({ ok: true, status: 200, data: { id: first.id, amount: 7 } });
      expect(result.get(listed).data.value.map((order: any) => order.id)).toEqual([created.data.id]);

      // A group whose second request fails (a stale tag): the first is rolled back, the dependant not run.
      const before = (await listAll()).length;
      const failing = createBatch(bc);
      const rolledBack = failing.POST(list, { params, body: { number: 'SO-R1' } }, { atomicityGroup: 'g2' });
      const refused = failing.PATCH(
        key,
        { params: { ...keyOf(first.id), header: { 'If-Match': first['@odata.etag'] } }, body: { amount: 8 } },
        { atomicityGroup: 'g2' },
      );
      const notRun = failing.GET(list, { params }, { dependsOn: ['g2'] });
      const failed = await failing.send();
      expect(failed.ok).toBe(true);
      expect(failed.get(refused)).toMatchObject({ ok: false, status: 412 });
      expect(failed.get(rolledBack)).toMatchObject({ ok: false, status: 424, error: { error: { message: expect.stringContaining('Rolled back') } } });
      expect(failed.get(notRun)).toMatchObject({ ok: false, status: 424 });
      const after = await listAll();
      expect(after).toHaveLength(before);
      expect(after.find((order) => order.number === 'SO-R1')).toBeUndefined();

      // Refused before sending: requests of two versions in one batch. The other request is an
      // operation of the copy that v2.0 does not declare (today's createShipmentMethod, v1.0
      // only), read from the copy's catalogue: a workspace grown further may have moved it to
      // v2.0 too, and then has none to mix (test/unit/batch.test.ts refuses a mix either way).
      const catalogue = await readGeneratedConst(dir, 'operations.ts', 'catalogue');
      const elsewhere = Object.entries<string[]>(catalogue['business-central'].businesscentral.operations).find(
        ([key, versions]) => key.startsWith('POST ') && !versions.includes('v2.0') && !/\{(?!company_id\})/.test(key),
      );
      if (elsewhere) {
        const mixed = createBatch(bc);
        mixed.GET(list, { params });
        mixed.POST(elsewhere[0].slice('POST '.length), { params, body: { code: 'EXW' } });
        const sentBefore = mock.requests.length;
        await expect(mixed.send()).rejects.toMatchObject({
          code: 'invalid-argument',
          message: expect.stringMatching(/request 2 .* is sent at v\d+\.\d+, the batch at v2\.0/),
        });
        expect(mock.requests.length).toBe(sentBefore);
      }
    } finally {
      await mock.close();
    }
  });
});
