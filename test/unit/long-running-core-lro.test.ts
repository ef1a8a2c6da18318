// The long-running poller (src/long-running.ts) against @azure/core-lro 2.7, the reader the
// Azure SDKs use: every method x final-state-via x polling-header combination core-lro
// tells apart, through a real client core over an injected fetch. Each case states where
// the result comes from, and core-lro itself (createHttpPoller, over the same fetch) is run
// beside it as the oracle: same requests in the same order, same result (but for DELETE,
// which this client resolves with nothing on purpose).
// @azure/core-lro is not a dependency of this package: it comes with @azure/arm-sql, a
// devDependency, which pins it in package-lock.json.
import { createHttpPoller, type LroResponse } from '@azure/core-lro';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/core.js';
import { pollUntilDone } from '../../src/long-running.js';
import { fakeFetch, json, type Call } from './fake-fetch.js';

const BASE = 'https://management.example.com';
const PATH = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}';
const RESOURCE = `${BASE}/subscriptions/s/resourceGroups/rg/providers/Provider.Sql/servers/one?api-version=2025-01-01`;
const STATUS = `${BASE}/subscriptions/s/providers/Provider.Sql/locations/westeurope/operationStatuses/op1?api-version=2025-01-01`;
const RESULT = `${BASE}/subscriptions/s/providers/Provider.Sql/locations/westeurope/operationResults/op1?api-version=2025-01-01`;
const ELSEWHERE = `${BASE}/subscriptions/s/providers/Provider.Sql/locations/westeurope/finalResults/op1?api-version=2025-01-01`;
const params = { path: { subscriptionId: 's', resourceGroupName: 'rg', serverName: 'one' } };

type Method = 'PUT' | 'PATCH' | 'POST' | 'DELETE';
type Via = 'location' | 'original-uri' | 'azure-async-operation' | undefined;
/** Which polling headers the first answer carries. */
type Links = 'Azure-AsyncOperation' | 'Operation-Location' | 'Azure-AsyncOperation + Location' | 'Location' | 'none';
/** Where the result was read: each answer says who gave it. */
type From = 'first' | 'monitor' | 'location' | 'resource' | 'elsewhere';

/** A service whose each URL answers a body naming itself; `monitor` is the status monitor's last body. */
function service(links: Links, monitor: Record<string, unknown> = { status: 'Succeeded' }) {
  const headers: Record<string, string> = { 'Retry-After': '0' };
  if (links.startsWith('Azure-AsyncOperation')) headers['Azure-AsyncOperation'] = STATUS;
  if (links === 'Operation-Location') headers['Operation-Location'] = STATUS;
  if (links.endsWith('Location') && links !== 'Operation-Location') headers.Location = RESULT;
  return fakeFetch((call: Call, index: number) => {
    if (index === 0) return json({ from: 'first', properties: { provisioningState: 'Creating' } }, call.method === 'PUT' ? 201 : 202, headers);
    if (call.url.href === STATUS) return json({ ...monitor, from: 'monitor' });
    if (call.url.href === RESULT) return json({ from: 'location' });
    if (call.url.href === ELSEWHERE) return json({ from: 'elsewhere' });
    if (call.url.href === RESOURCE) return json({ from: 'resource', properties: { provisioningState: 'Succeeded' } });
    return json({ error: { code: 'NotFound', message: call.url.href } }, 404);
  });
}

const sent = (calls: Call[]) => calls.map((call) => `${call.method} ${call.url.href}`);

/** This client: a core holding sql with the operation's final-state-via, over `fetch`. */
async function ours(method: Method, via: Via, fetch: (request: Request) => Promise<Response>) {
  const held = { sql: { default: '2025-01-01', match: 'Provider.Sql', operations: {}, ...(via ? { finalStateVia: { [`${method} ${PATH}`]: via } } : {}) } };
  const core = createCore({ baseUrl: BASE, token: 't', fetch, retry: false }, 'resource-manager', held);
  return pollUntilDone(core, method, PATH, { params, body: method === 'DELETE' ? undefined : {}, pollIntervalMs: 0, maxWaitMs: 1000 });
}

/** @azure/core-lro over the same fetch, as an ARM SDK drives it. */
async function coreLro(method: Method, via: Via, fetch: (request: Request) => Promise<Response>) {
  const send = async (url: string, verb: string): Promise<LroResponse> => {
    const response = await fetch(
      new Request(url, { method: verb, headers: { 'Content-Type': 'application/json' }, body: verb === 'GET' || verb === 'DELETE' ? undefined : '{}' }),
    );
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    if (response.status >= 300) throw Object.assign(new Error(`${response.status}`), { name: 'RestError' });
    return { flatResponse: body, rawResponse: { statusCode: response.status, headers: Object.fromEntries(response.headers), body } };
  };
  const poller = await createHttpPoller(
    { requestMethod: method, requestPath: RESOURCE, sendInitialRequest: () => send(RESOURCE, method), sendPollRequest: (url: string) => send(url, 'GET') },
    { resourceLocationConfig: via, intervalInMs: 0 },
  );
  return poller.pollUntilDone();
}

const fromOf = (result: unknown) => (result as { from?: From } | undefined)?.from;

/**
 * Where core-lro 2.7.2 reads each result (http/operation.js), written out: with a status
 * monitor, PUT the request URL whatever final-state-via says; PATCH final-state-via's link
 * (location: the Location header, the default; original-uri: the request URL;
 * azure-async-operation: none) falling back to the request URL; POST the same link with no
 * fallback, the monitor's body when there is none. With Location only: its last answer.
 * With neither: a PUT polls the resource, anything else is its first answer.
 */
function expected(method: Method, via: Via, links: Links): From {
  if (links === 'Location') return 'location';
  if (links === 'none') return method === 'PUT' ? 'resource' : 'first';
  const location = links.endsWith('+ Location') ? 'location' : undefined;
  const byVia = via === 'azure-async-operation' ? undefined : via === 'original-uri' ? 'resource' : location;
  if (method === 'PUT') return 'resource';
  if (method === 'PATCH') return byVia ?? 'resource';
  return byVia ?? 'monitor';
}

const METHODS: Method[] = ['PUT', 'PATCH', 'POST', 'DELETE'];
const VIAS: Via[] = [undefined, 'location', 'original-uri', 'azure-async-operation'];
const LINKS: Links[] = ['Azure-AsyncOperation', 'Operation-Location', 'Azure-AsyncOperation + Location', 'Location', 'none'];
const CASES = METHODS.flatMap((method) => VIAS.flatMap((via) => LINKS.map((links) => [method, via ?? '(none)', links, via] as const)));

describe('long-running results are read where @azure/core-lro reads them', () => {
  it.each(CASES)('%s, final-state-via %s, first answer with %s', async (method, _shown, links, via) => {
    const mine = service(links);
    const result = await ours(method, via, mine.fetch);
    const theirs = service(links);
    const oracle = await coreLro(method, via, theirs.fetch);
    // The same requests, in the same order, as core-lro sends them.
    expect(sent(mine.calls)).toEqual(sent(theirs.calls));
    if (method === 'DELETE') {
      // On purpose: a DELETE resolves with nothing (core-lro hands back the last body read).
      expect(result).toBeUndefined();
      return;
    }
    expect(fromOf(result)).toBe(expected(method, via, links));
    expect(result).toEqual(oracle);
  });

  it('the monitor names the result: its resourceLocation wins over the method and final-state-via', async () => {
    for (const method of ['PUT', 'PATCH', 'POST'] as const) {
      const mine = service('Azure-AsyncOperation + Location', { status: 'Succeeded', resourceLocation: ELSEWHERE });
      const theirs = service('Azure-AsyncOperation + Location', { status: 'Succeeded', resourceLocation: ELSEWHERE });
      const result = await ours(method, 'original-uri', mine.fetch);
      expect(fromOf(result)).toBe('elsewhere');
      expect(result).toEqual(await coreLro(method, 'original-uri', theirs.fetch));
      expect(sent(mine.calls)).toEqual(sent(theirs.calls));
    }
  });

  it('Operation-Location is the monitor when both monitor headers are given', async () => {
    const headers = { 'Operation-Location': STATUS, 'Azure-AsyncOperation': RESULT };
    const answer = (call: Call, index: number) =>
      index === 0
        ? json({ from: 'first' }, 202, headers)
        : call.url.href === STATUS
          ? json({ status: 'Succeeded', from: 'monitor' })
          : json({ status: 'InProgress', from: 'other' });
    const mine = fakeFetch(answer);
    const theirs = fakeFetch(answer);
    expect(await ours('POST', 'azure-async-operation', mine.fetch)).toEqual({ status: 'Succeeded', from: 'monitor' });
    await coreLro('POST', 'azure-async-operation', theirs.fetch);
    expect(sent(mine.calls)).toEqual(sent(theirs.calls));
  });

  it('a poll that names a new monitor or Location moves the next poll there', async () => {
    for (const [header, first, moved] of [
      ['Azure-AsyncOperation', STATUS, RESULT],
      ['Location', RESULT, ELSEWHERE],
    ] as const) {
      const answer = (call: Call, index: number) => {
        if (index === 0) return json({ from: 'first' }, 202, { [header]: first });
        if (call.url.href === first)
          return header === 'Location' ? json({ from: 'old' }, 202, { Location: moved }) : json({ status: 'InProgress' }, 200, { [header]: moved });
        return header === 'Location' ? json({ from: 'moved' }) : json({ status: 'Succeeded', from: 'moved' });
      };
      const mine = fakeFetch(answer);
      const theirs = fakeFetch(answer);
      const result = await ours('POST', undefined, mine.fetch);
      expect(fromOf(result)).toBe('moved');
      expect(result).toEqual(await coreLro('POST', undefined, theirs.fetch));
      expect(sent(mine.calls)).toEqual([`POST ${RESOURCE}`, `GET ${first}`, `GET ${moved}`]);
      expect(sent(mine.calls)).toEqual(sent(theirs.calls));
    }
  });

  it('a PUT with no link polls the resource while it answers 202 or a running provisioningState; a PATCH does not poll', async () => {
    const replies = [
      json({}, 202),
      json({ properties: { provisioningState: 'Updating' } }),
      json({ name: 'one', properties: { provisioningState: 'Succeeded' } }),
    ];
    const answer = (_call: Call, index: number) => (index === 0 ? json({ properties: { provisioningState: 'Accepted' } }, 201) : replies[index - 1]!.clone());
    const put = fakeFetch(answer);
    expect(await ours('PUT', undefined, put.fetch)).toEqual({ name: 'one', properties: { provisioningState: 'Succeeded' } });
    expect(sent(put.calls)).toEqual([`PUT ${RESOURCE}`, `GET ${RESOURCE}`, `GET ${RESOURCE}`, `GET ${RESOURCE}`]);
    const patch = fakeFetch(answer);
    expect(await ours('PATCH', undefined, patch.fetch)).toEqual({ properties: { provisioningState: 'Accepted' } });
    expect(sent(patch.calls)).toEqual([`PATCH ${RESOURCE}`]);
  });

  it('a monitor answer with no status is read by its HTTP status (202 running, 200 done); a status that is no string is refused', async () => {
    const replies = [json({}, 202), json({ from: 'monitor' })];
    const answer = (call: Call, index: number) =>
      index === 0 ? json({}, 202, { 'Azure-AsyncOperation': STATUS }) : call.url.href === STATUS ? replies.shift()! : json({}, 404);
    expect(await ours('POST', 'azure-async-operation', fakeFetch(answer).fetch)).toEqual({ from: 'monitor' });
    const odd = fakeFetch((_call, index) => (index === 0 ? json({}, 202, { 'Azure-AsyncOperation': STATUS }) : json({ status: 3 })));
    await expect(ours('POST', undefined, odd.fetch)).rejects.toMatchObject({ code: 'invalid-status' });
  });

  it("a terminal poll's own links are not followed (nor checked): the result is read as the method says", async () => {
    const answer = (call: Call, index: number) =>
      index === 0
        ? json({}, 202, { Location: RESULT })
        : call.url.href === RESULT
          ? json({ from: 'location' }, 200, { Location: 'https://evil.example/next' })
          : json({}, 404);
    const mine = fakeFetch(answer);
    expect(await ours('POST', undefined, mine.fetch)).toEqual({ from: 'location' });
    expect(sent(mine.calls)).toEqual([`POST ${RESOURCE}`, `GET ${RESULT}`]);
  });

  it('a resourceLocation on another origin is refused before anything is sent there', async () => {
    const mine = service('Azure-AsyncOperation', { status: 'Succeeded', resourceLocation: 'https://evil.example/result' });
    await expect(ours('PUT', undefined, mine.fetch)).rejects.toMatchObject({ code: 'foreign-poll-link' });
    expect(sent(mine.calls)).toEqual([`PUT ${RESOURCE}`, `GET ${STATUS}`]);
  });
});
