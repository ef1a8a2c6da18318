// The client manifest lists only what a client cannot derive (pipeline/manifest.mjs
// clientManifestOf); the clients derive the rest (src/operations.ts). The two derivations
// must agree: for every operation of every document (the generated catalogue, not a list
// of today's operations), an unpinned client sends it at its target, the newest
// non-preview version that declares it, or refuses it before sending when only previews do.
// A client of that API alone (its own const of generated/client-manifest.ts) sends it alike.
import { describe, expect, it } from 'vitest';
import * as manifest from '../../generated/client-manifest.js';
import { catalogue } from '../../generated/operations.js';
// @ts-expect-error: plain ESM module without types
import { targetOf } from '../../pipeline/manifest.mjs';
import { createBusinessCentralClient, createBusinessCentralClientOf, createResourceManagerClient, createResourceManagerClientOf } from '../../src/index.js';
import { fakeFetch, json } from './fake-fetch.js';

type Untyped = { request(method: string, path: string, init?: object): Promise<unknown> };
const rows = Object.entries(catalogue).flatMap(([family, apis]) =>
  Object.entries(apis as Record<string, { operations: Record<string, readonly string[]> }>).flatMap(([api, entry]) =>
    Object.entries(entry.operations).map(([key, versions]) => ({ family, api, key, target: targetOf([...versions]) as string | null })),
  ),
);

/** The const generated/client-manifest.ts exports for one API (the manifest entry of that API alone). */
const constOf = (family: string, api: string) =>
  Object.values(manifest).find((entry) => 'family' in entry && entry.family === family && entry.name === api) as never;

describe('every operation of the catalogue', () => {
  it.each(
    rows.flatMap((row) => [
      { ...row, holds: 'every API' },
      { ...row, holds: 'its API alone' },
    ]),
  )('$family $key goes to its target (a client of $holds)', async ({ family, api, key, target, holds }) => {
    const fake = fakeFetch(() => json({}));
    const options = { baseUrl: 'https://h.example', token: 't', retry: false as const, fetch: fake.fetch };
    const client = (holds === 'every API'
      ? family === 'resource-manager'
        ? createResourceManagerClient(options)
        : createBusinessCentralClient(options)
      : family === 'resource-manager'
        ? createResourceManagerClientOf([constOf(family, api)], options)
        : createBusinessCentralClientOf([constOf(family, api)], options)) as unknown as Untyped;
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

describe('the per-API consts', () => {
  it('are the entries of `apis`, one per API of each family, with its family and name', () => {
    const perApi = Object.values(manifest).filter((entry) => 'family' in entry);
    const expected = Object.entries(manifest.apis).flatMap(([family, held]) => Object.entries(held).map(([name, entry]) => ({ family, name, ...entry })));
    expect(perApi).toEqual(expect.arrayContaining(expected));
    expect(perApi).toHaveLength(expected.length);
  });
});
