// The mock's own rule: no request input makes it fail. The inputs that take bare Prism
// 5.14 down or make it answer 500 are rows of rules.test.ts (each with the 4xx it gets);
// fuzz.test.ts throws a seeded mass of malformed ones at a process of its own. Here:
// odd but legal Prefer values, generated data (which must still match the schemas),
// per-request seeding, and a 5xx only when asked for.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { sample } from '../helpers/sample.js';
import { label, nameOf, operation, send, validRequest, violationsOf, type RawRequest } from './support.js';

const role = operation('RoleEligibilityScheduleRequests_Get');
const name = operation('Servers_CheckNameAvailability');
const images = operation('Location_ListCachedImages');
const vendor = operation('updateVendor');
const withHeaders = (request: RawRequest, headers: Record<string, string>): RawRequest => ({ ...request, headers: { ...request.headers, ...headers } });

const SWEPT = 10;
const apiOf = (op: (typeof operations)[number]) => op.api.split('@')[0]!;
const swept = sample(operations, SWEPT, apiOf);

const odd = [
  { op: role, scenario: 'Prefer header of separators only', request: withHeaders(validRequest(role), { prefer: ';;==,,' }), status: 200 },
  {
    op: role,
    scenario: 'Prefer with an unknown preference (ignored, RFC 7240)',
    request: withHeaders(validRequest(role), { prefer: 'respond-async, wait=5' }),
    status: 200,
  },
  {
    op: role,
    scenario: '__server pointing elsewhere (ignored)',
    request: { ...validRequest(role), path: `${validRequest(role).path}&__server=http://example.invalid` },
    status: 200,
  },
  { op: vendor, scenario: 'deeply nested JSON body', request: { ...validRequest(vendor), body: `${'['.repeat(5000)}${']'.repeat(5000)}` }, status: 400 },
  {
    op: name,
    scenario: 'invalid request plus Prefer: code=200',
    request: withHeaders({ ...validRequest(name), body: '{}' }, { prefer: 'code=200' }),
    status: 400,
  },
  { op: name, scenario: 'path of a single slash', request: { ...validRequest(name), path: '/' }, status: 404 },
  { op: name, scenario: 'HEAD on an operation path', request: { ...validRequest(name), method: 'HEAD', body: undefined }, status: 405 },
  { op: images, scenario: 'request target not a path (*)', request: { ...validRequest(images), method: 'OPTIONS', path: '*' }, status: 400 },
];

describe('no input makes the mock fail', () => {
  it(`sweeps ${swept.length} of the ${operations.length} operations, every API among them`, () => {
    expect(swept.length).toBe(Math.min(operations.length, SWEPT));
    expect(new Set(swept.map(apiOf))).toEqual(new Set(operations.map(apiOf)));
  });

  it.each(odd.map((h) => [label(h.op.operationId, h.scenario), h] as const))('%s', async (title, { request, status }) => {
    const response = await send(request);
    expect(response.status, `${title}: ${response.text.slice(0, 300)}`).toBe(status);
  });

  // The generator ignores `if`/`then`/`not` (the name check's "no reason when available"):
  // bare Prism then fails its own response validation with a 500 about half the time.
  // Every operation of a small workspace; in a large one (versions of the same APIs, the
  // same schemas) SWEPT of them, every API among them, so the sweep's 25 requests per
  // operation do not grow with the documents.
  it.each(swept.map((op) => [label(nameOf(op), 'Prefer: dynamic=true, 25 times'), op] as const))('%s', async (title, op) => {
    const problems: string[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await send(withHeaders(validRequest(op), { prefer: 'dynamic=true' }));
      if (response.status >= 300) problems.push(`status ${response.status}: ${response.text.slice(0, 200)}`);
      problems.push(...violationsOf(op, response.status, response.headers['content-type'], response.json));
    }
    expect(problems, title).toEqual([]);
  });

  it(`${label(images.operationId, 'Prefer: seed=X')}: the seed decides one answer, never the next client's`, async () => {
    const dynamic = (seed?: string) =>
      send(withHeaders(validRequest(images), { prefer: seed ? `dynamic=true, seed=${seed}` : 'dynamic=true' })).then((r) => r.text);
    const a = await dynamic('X');
    const b = await dynamic();
    const c = await dynamic('X');
    const d = await dynamic();
    expect(c, 'the same seed gives the same answer').toBe(a);
    // With a process-wide seed (bare Prism), b and d would both continue from seed X.
    expect(d, 'an unseeded answer after a seeded one is not pinned by that seed').not.toBe(b);
  });

  it(`${label(role.operationId, 'Prefer: code=500')}: a 5xx when asked for, from the default response`, async () => {
    const response = await send(withHeaders(validRequest(role), { prefer: 'code=500' }));
    expect(response.status).toBe(500);
    expect(violationsOf(role, response.status, response.headers['content-type'], response.json)).toEqual([]);
    expect((response.json as any).error.message).toMatch(/asked for it/);
  });

  it(`${label(name.operationId, 'Prefer: code=503')}: no 5xx the document does not declare`, async () => {
    const response = await send(withHeaders(validRequest(name), { prefer: 'code=503' }));
    expect(response.status, response.text).toBe(404);
  });
});
