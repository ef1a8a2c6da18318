// Business data's paging: `@odata.nextLink` followed by the same code as resource
// management's `nextLink` (src/paging.ts, the link's name given), through a business-data
// core with an injected fetch: the query stays in the link as the service gave it, every
// page carries the token and the caller's headers, and the same rules hold (same origin
// only, maxPages, the caller's signal). The client's `listAll`/`listPages` over a real
// entity set are checked against the mock by test/growth/growth.test.ts.
import { describe, expect, it } from 'vitest';
import { ClientError, createBusinessCentralClient } from '../../src/index.js';
import { apis } from '../../generated/client-manifest.js';
import { createCore } from '../../src/core.js';
import { followNextLinks } from '../../src/paging.js';
import { fakeFetch, json } from './fake-fetch.js';

const BASE = 'https://bc.example/v2.0/tenant/production';
const SET = `${BASE}/api/v2.0/companies(c1)/customers`;
const QUERY = `$filter=${encodeURIComponent("startswith(displayName,'A')")}&$orderby=displayName`;

type Page = { value?: Array<{ id: string }>; '@odata.nextLink'?: string | null; nextLink?: string };

function walk(bodies: Array<Record<string, unknown>>, options: Parameters<typeof followNextLinks>[4] = {}) {
  const fake = fakeFetch((_c, i) => json(bodies[i] ?? { value: [] }));
  const core = createCore({ baseUrl: BASE, token: 'tok-odata-1', fetch: fake.fetch, retry: false }, 'business-central', apis['business-central']);
  const first = (init: Record<string, unknown>) => core.sendUrl(new URL(`${SET}?${QUERY}`), init);
  const pages = followNextLinks<Page>(core, first, 'GET /companies({company_id})/customers', undefined, options, '@odata.nextLink');
  return { pages, calls: fake.calls };
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe('@odata.nextLink paging', () => {
  it('follows @odata.nextLink as given (the query already in it), with the token and the headers on every page', async () => {
    const { pages, calls } = walk(
      [
        { value: [{ id: 'a' }], '@odata.nextLink': `${SET}?${QUERY}&$skiptoken=1` },
        { value: [{ id: 'b' }], '@odata.nextLink': `${SET}?${QUERY}&$skiptoken=2` },
        { value: [{ id: 'c' }] },
      ],
      { headers: { Prefer: 'odata.maxpagesize=1' } },
    );
    const all = await collect(pages);
    expect(all.flatMap((page) => page.value ?? []).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    const href = (text: string) => new URL(text).href;
    expect(calls.map((c) => c.url.href)).toEqual([href(`${SET}?${QUERY}`), href(`${SET}?${QUERY}&$skiptoken=1`), href(`${SET}?${QUERY}&$skiptoken=2`)]);
    // Nothing added to the link: business data versions by path, not by api-version.
    expect(calls.every((c) => !c.url.searchParams.has('api-version'))).toBe(true);
    expect(calls.every((c) => c.headers.get('authorization') === 'Bearer tok-odata-1' && c.headers.get('prefer') === 'odata.maxpagesize=1')).toBe(true);
  });

  it('reads the link of its own name only: a `nextLink` on an OData page is not followed', async () => {
    const { pages, calls } = walk([{ value: [{ id: 'a' }], nextLink: `${SET}?$skiptoken=1` }]);
    expect((await collect(pages)).length).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('refuses an @odata.nextLink to another origin before anything is sent there', async () => {
    const { pages, calls } = walk([{ value: [{ id: 'a' }], '@odata.nextLink': `https://evil.example/api/v2.0/companies(c1)/customers?$skiptoken=1` }]);
    const error = await collect(pages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'foreign-next-link' });
    expect((error as Error).message).toContain('@odata.nextLink to https://evil.example refused');
    expect(calls).toHaveLength(1);
  });

  it('stops at maxPages with page-limit, naming the link', async () => {
    const fake = fakeFetch((_c, i) => json({ value: [{ id: `c${i}` }], '@odata.nextLink': `${SET}?$skiptoken=${i + 1}` }));
    const core = createCore({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false }, 'business-central', apis['business-central']);
    const pages = followNextLinks<Page>(core, (init) => core.sendUrl(new URL(SET), init), 'GET customers', undefined, { maxPages: 2 }, '@odata.nextLink');
    const error = await collect(pages).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'page-limit' });
    expect((error as Error).message).toContain('with a @odata.nextLink left');
    expect(fake.calls).toHaveLength(2);
  });

  it('refuses an @odata.nextLink that is not a string as invalid-page', async () => {
    const { pages } = walk([{ value: [], '@odata.nextLink': 7 }]);
    const error = await collect(pages).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-page' });
    expect((error as Error).message).toContain('"@odata.nextLink" that is not a string');
  });

  it("ends with the caller's abort, sending no further page", async () => {
    const controller = new AbortController();
    const { pages, calls } = walk([{ value: [{ id: 'a' }], '@odata.nextLink': `${SET}?$skiptoken=1` }, { value: [{ id: 'b' }] }], {
      signal: controller.signal,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const page of pages) {
        seen.push(...(page.value ?? []).map((c) => c.id));
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(error).toMatchObject({ code: 'aborted' });
    expect(calls).toHaveLength(1);
  });
});

describe("the business-data client's listAll and listPages", () => {
  it("exist; an untyped path no document declares is sent at the API's default, the server answers", async () => {
    const fake = fakeFetch(() => json({ value: [] }));
    const bc = createBusinessCentralClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false });
    const list = bc.listAll as unknown as (path: string) => AsyncGenerator<unknown>;
    expect(typeof bc.listPages).toBe('function');
    // A path no document declares is refused by the types (test/types/odata-list.test-d.ts);
    // at run time the client knows APIs, not every operation (docs/versions.md): an
    // untyped caller's path is sent at the API's default, and the server answers.
    const pages = await collect(list('/companies(c)/nowhere'));
    expect(pages).toEqual([]);
    expect(fake.calls.map((c) => c.url.pathname)).toEqual([expect.stringMatching(/\/api\/v\d+\.\d+\/companies\(c\)\/nowhere$/)]);
  });
});
