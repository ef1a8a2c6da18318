// specs/README.md's "a new entity" recipe with what it declares for OData's control
// information and bulk work (test/growth/odata-recipe.mjs: an entity set with lines, its
// schema declaring `@odata.etag` and `@odata.context`, `/$count`, 204s for
// `Prefer: return=minimal`, the version's `/$batch`), done on a workspace copy: the build
// is green (lint included), and the copy's own mock serves each by convention: the
// list-then-update flow from a list item's tag, deep insert, $count, return=minimal and a
// batch whose second request changes what its first created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';
// @ts-expect-error: plain ESM module without types
import { addOrderSet } from './odata-recipe.mjs';

const COMPANY = 'c0ffee00-0000-4000-8000-0000000000c1';
const AUTH = { authorization: 'Bearer recipe-token' };
let dir: string;
let remove: () => Promise<void>;
let build: { code: number; output: string };
let grown: { entity: string; set: string; keyParam: string; batch: boolean };

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('odata-recipe-', { documents: 'all', built: true }));
  grown = await addOrderSet(dir);
  build = await runInProcess(dir, 'pipeline/build.mjs');
}, 240_000);
afterAll(() => remove?.());

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
});
