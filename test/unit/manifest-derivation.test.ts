// The client manifest lists only what a client cannot derive (pipeline/manifest.mjs
// clientManifestOf); the clients derive the rest (src/operations.ts). The two derivations
// must agree: for every operation of every document (the generated catalogue, not a list
// of today's operations), an unpinned client sends it at its target, the newest
// non-preview version that declares it, or refuses it before sending when only previews do.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../generated/operations.js';
// @ts-expect-error: plain ESM module without types
import { targetOf } from '../../pipeline/manifest.mjs';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { fakeFetch, json } from './fake-fetch.js';

type Untyped = { request(method: string, path: string, init?: object): Promise<unknown> };
const rows = Object.entries(catalogue).flatMap(([family, apis]) =>
  Object.entries(apis as Record<string, { operations: Record<string, readonly string[]> }>).flatMap(([api, entry]) =>
    Object.entries(entry.operations).map(([key, versions]) => ({ family, api, key, target: targetOf([...versions]) as string | null })),
  ),
);

describe('every operation of the catalogue', () => {
  it.each(rows)('$family $key goes to its target', async ({ family, key, target }) => {
    const fake = fakeFetch(() => json({}));
    const options = { baseUrl: 'https://h.example', token: 't', retry: false as const, fetch: fake.fetch };
    const client = (family === 'resource-manager' ? createResourceManagerClient(options) : createBusinessCentralClient(options)) as unknown as Untyped;
    const [method, path] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const sent = client.request(method!, path!, { params: { path: Object.fromEntries(names.map((n) => [n, '00000000-0000-0000-0000-000000000001'])) } });
    if (target === null) {
      await expect(sent).rejects.toMatchObject({ code: 'unknown-operation' });
      expect(fake.calls).toHaveLength(0);
      return;
    }
    await sent;
    const url = fake.calls[0]!.url;
    if (family === 'resource-manager') expect(url.searchParams.get('api-version')).toBe(target);
    else expect(url.pathname.startsWith(`/api/${target}/`)).toBe(true);
  });
});
