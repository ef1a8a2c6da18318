// The cached-images iterators: nextLink followed on the client's origin only.
import { describe, expect, it } from 'vitest';
import { ClientError, createResourceManagerClient } from '../../src/index.js';
import { fakeFetch, json, SUBSCRIPTION } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';

const BASE = 'https://management.example.com';
const LIST = `/subscriptions/${SUBSCRIPTION}/providers/Provider.ContainerInstance/locations/westeurope/cachedImages`;
const params = { subscriptionId: SUBSCRIPTION, location: 'westeurope' };
/** The api-version the client sends (and a server's nextLinks carry). */
const V = DEFAULT.containerinstance;

function pages(bodies: Array<Record<string, unknown>>) {
  const fake = fakeFetch((_c, i) => json(bodies[i] ?? { value: [] }));
  const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-paging-1', fetch: fake.fetch, retry: false });
  return { arm, calls: fake.calls };
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe('cached-images paging', () => {
  it('follows nextLink page by page with the token, and stops without one', async () => {
    const { arm, calls } = pages([
      { value: [{ image: 'nginx:1', osType: 'Linux' }], nextLink: `${BASE}${LIST}?api-version=${V}&$skiptoken=p2` },
      { value: [{ image: 'iis:2', osType: 'Windows' }], nextLink: `${BASE}${LIST}?api-version=${V}&$skiptoken=p3` },
      { value: [{ image: 'redis:7', osType: 'Linux' }] },
    ]);
    const images = await collect(arm.listCachedImages(params));
    expect(images.map((i) => i.image)).toEqual(['nginx:1', 'iis:2', 'redis:7']);
    expect(calls.map((c) => `${c.url.pathname}${c.url.search}`)).toEqual([
      `${LIST}?api-version=${V}`,
      `${LIST}?api-version=${V}&$skiptoken=p2`,
      `${LIST}?api-version=${V}&$skiptoken=p3`,
    ]);
    expect(calls.every((c) => c.headers.get('authorization') === 'Bearer tok-paging-1')).toBe(true);
  });

  it('yields whole pages from listCachedImagePages', async () => {
    const { arm } = pages([{ value: [{ image: 'a' }], nextLink: `${LIST}?api-version=${V}&page=2` }, { value: [{ image: 'b' }] }]);
    const all = await collect(arm.listCachedImagePages(params));
    expect(all.map((p) => p.value?.length)).toEqual([1, 1]);
  });

  it('resolves a relative nextLink against the client origin and adds a missing api-version', async () => {
    const { arm, calls } = pages([{ value: [], nextLink: `${LIST}?$skiptoken=p2` }, { value: [] }]);
    await collect(arm.listCachedImagePages(params));
    expect(calls[1]!.url.origin).toBe(BASE);
    expect(calls[1]!.url.searchParams.get('$skiptoken')).toBe('p2');
    expect(calls[1]!.url.searchParams.get('api-version')).toBe(V);
  });

  it.each([
    ['another host', `https://evil.example${LIST}?p=2`, 'https://evil.example'],
    ['a scheme-relative link', `//evil.example${LIST}`, 'https://evil.example'],
    ['a plain-http downgrade', `http://management.example.com${LIST}?p=2`, 'http://management.example.com'],
    ['another port', `https://management.example.com:8443${LIST}`, 'https://management.example.com:8443'],
  ])('refuses a nextLink to %s, sending nothing there', async (_what, link, origin) => {
    const { arm, calls } = pages([{ value: [{ image: 'a' }], nextLink: link }]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const image of arm.listCachedImages(params)) seen.push(image.image!);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'foreign-next-link' });
    expect((error as Error).message).toContain(origin);
    expect((error as Error).message).toContain(`client's origin ${BASE}`);
    expect(calls).toHaveLength(1);
  });

  it('stops on a nextLink it has already followed', async () => {
    const loop = `${BASE}${LIST}?api-version=${V}&$skiptoken=same`;
    const { arm, calls } = pages([{ value: [{ image: 'a' }], nextLink: loop }, { value: [{ image: 'b' }], nextLink: loop }, { value: [{ image: 'never' }] }]);
    const images = await collect(arm.listCachedImages(params));
    expect(images.map((i) => i.image)).toEqual(['a', 'b']);
    expect(calls).toHaveLength(2);
  });

  it('throws the status and the CloudError when a page fails', async () => {
    const body = { error: { code: 'SubscriptionNotFound', message: 'not found', target: 'subscriptionId' } };
    const fake = fakeFetch((_c, i) => (i === 0 ? json({ value: [{ image: 'a' }], nextLink: `${LIST}?p=2` }) : json(body, 404)));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-paging-1', fetch: fake.fetch, retry: false });
    const error = await collect(arm.listCachedImages(params)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'http', status: 404, body });
  });

  it('sends nothing until iteration starts', async () => {
    const { arm, calls } = pages([{ value: [] }]);
    const iterator = arm.listCachedImages(params);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toHaveLength(0);
    await collect(iterator);
    expect(calls).toHaveLength(1);
  });

  it('stops early when the consumer breaks out', async () => {
    const { arm, calls } = pages([{ value: [{ image: 'a' }, { image: 'b' }], nextLink: `${LIST}?p=2` }, { value: [{ image: 'c' }] }]);
    for await (const image of arm.listCachedImages(params)) {
      if (image.image === 'a') break;
    }
    expect(calls).toHaveLength(1);
  });

  it('remembers the first page: a nextLink back to page 1 yields nothing twice', async () => {
    const { arm, calls } = pages([
      { value: [{ image: 'a' }], nextLink: `${LIST}?$skiptoken=p2` },
      { value: [{ image: 'b' }], nextLink: `${BASE}${LIST}?api-version=${V}` },
      { value: [{ image: 'a' }] },
    ]);
    const images = await collect(arm.listCachedImages(params));
    expect(images.map((i) => i.image)).toEqual(['a', 'b']);
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['a string value', { value: 'abc' }, '"value" that is not an array'],
    ['an object value', { value: { image: 'a' } }, '"value" that is not an array'],
    ['an array page', [{ image: 'a' }], 'is not an object'],
    ['a string page', 'page', 'is not an object'],
    ['a numeric nextLink', { value: [], nextLink: 42 }, '"nextLink" that is not a string'],
  ])('refuses a page with %s as ClientError invalid-page', async (_what, body, why) => {
    const fake = fakeFetch(() => json(body));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const image of arm.listCachedImages(params)) seen.push(image);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'invalid-page' });
    expect((error as Error).message).toContain(why);
    expect(seen).toEqual([]);
  });

  it('stops at maxPages with a ClientError page-limit when a nextLink is left', async () => {
    const fake = fakeFetch((_c, i) => json({ value: [{ image: `i${i}` }], nextLink: `${LIST}?$skiptoken=${i + 1}` }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 't', fetch: fake.fetch, retry: false });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const image of arm.listCachedImages(params, { maxPages: 3 })) seen.push(image.image!);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'page-limit' });
    expect(seen).toEqual(['i0', 'i1', 'i2']);
    expect(fake.calls).toHaveLength(3);
  });

  it('ends quietly at maxPages when the last page has no nextLink', async () => {
    const { arm } = pages([{ value: [{ image: 'a' }], nextLink: `${LIST}?p=2` }, { value: [{ image: 'b' }] }]);
    expect((await collect(arm.listCachedImages(params, { maxPages: 2 }))).length).toBe(2);
  });

  it.each([0, -1, 2.5])('refuses maxPages %s, sending nothing', async (maxPages) => {
    const { arm, calls } = pages([{ value: [] }]);
    await expect(collect(arm.listCachedImages(params, { maxPages }))).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'maxPages' });
    expect(calls).toHaveLength(0);
  });

  it('sends the per-call headers with every page request, not only the first', async () => {
    const { arm, calls } = pages([{ value: [], nextLink: `${LIST}?p=2` }, { value: [], nextLink: `${LIST}?p=3` }, { value: [] }]);
    await collect(arm.listCachedImagePages(params, { headers: { Prefer: 'example=page' } }));
    expect(calls.map((c) => c.headers.get('prefer'))).toEqual(['example=page', 'example=page', 'example=page']);
    expect(calls.every((c) => c.headers.get('authorization') === 'Bearer tok-paging-1')).toBe(true);
  });
});
