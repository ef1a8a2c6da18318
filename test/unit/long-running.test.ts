// The long-running poller's rules (src/long-running.ts), over a core whose answers a test
// scripts: which link is polled, what is waited, where the result is read, how it ends.
// Auth, retries and timeouts of each request are the core's (tested in its own files);
// the client against the mock is in the contract and growth tests.
import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/core.js';
import { SENT_URL } from '../../src/core.js';
import { ClientError } from '../../src/errors.js';
import { pollUntilDone } from '../../src/long-running.js';
import { serializerOf } from '../../src/path-serializer.js';

const BASE = 'https://management.example.com';
const PATH = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}';
const RESOURCE = `${BASE}/subscriptions/s/resourceGroups/rg/providers/Provider.Sql/servers/one?api-version=2025-01-01`;
const STATUS = `${BASE}/subscriptions/s/providers/Provider.Sql/locations/westeurope/operationStatuses/op1?api-version=2025-01-01`;
const RESULT = `${BASE}/subscriptions/s/providers/Provider.Sql/locations/westeurope/operationResults/op1?api-version=2025-01-01`;

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function answer(url: string, { status, body, headers = {} }: Reply) {
  const response = new Response(status === 204 ? null : JSON.stringify(body ?? null), { status, headers }) as Response & { [SENT_URL]?: string };
  response[SENT_URL] = url;
  const ok = status >= 200 && status < 300;
  return ok ? { ok, data: status === 204 ? undefined : body, response } : { ok, error: body, response };
}

/** A core whose first call answers `first`, and whose link reads answer from `links` (URL -> replies, one per read). */
function scripted(first: Reply, links: Record<string, Reply[]>, finalStateVia?: string) {
  const sent: string[] = [];
  const core: Core = {
    base: BASE,
    origin: BASE,
    operation: () => ({ apiName: 'sql', version: '2025-01-01', apiVersion: '2025-01-01', what: 'x', finalStateVia, serialize: serializerOf() }),
    send: async (method) => {
      sent.push(`${method} ${RESOURCE}`);
      return answer(RESOURCE, first);
    },
    sendUrl: async (url: URL) => {
      sent.push(`GET ${url.href}`);
      const replies = links[url.href];
      if (!replies?.length) throw new Error(`unexpected read of ${url.href}`);
      return answer(url.href, replies.length > 1 ? replies.shift()! : replies[0]!);
    },
    use: () => {},
    eject: () => {},
  };
  return { core, sent };
}

const fast = { pollIntervalMs: 0 };
const running = (extra: Record<string, string> = {}): Reply => ({
  status: 201,
  body: { name: 'one', properties: { provisioningState: 'Creating' } },
  headers: { 'Retry-After': '0', ...extra },
});
const done = { status: 200, body: { name: 'one', properties: { provisioningState: 'Succeeded' } } };

describe('long-running operations (ARM rules)', () => {
  it('PUT with Azure-AsyncOperation: polls the status monitor until Succeeded, then reads the resource at the original URL', async () => {
    const { core, sent } = scripted(running({ 'Azure-AsyncOperation': STATUS, Location: RESULT }), {
      [STATUS]: [
        { status: 200, body: { status: 'InProgress' } },
        { status: 200, body: { status: 'Succeeded' } },
      ],
      [RESOURCE]: [done],
    });
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).resolves.toEqual(done.body);
    expect(sent).toEqual([`PUT ${RESOURCE}`, `GET ${STATUS}`, `GET ${STATUS}`, `GET ${RESOURCE}`]);
  });

  it('DELETE with Location only: polls it while 202, resolves with nothing', async () => {
    const { core, sent } = scripted({ status: 202, headers: { Location: RESULT, 'Retry-After': '0' } }, { [RESULT]: [{ status: 202 }, { status: 204 }] });
    await expect(pollUntilDone(core, 'DELETE', PATH, fast)).resolves.toBeUndefined();
    expect(sent).toEqual([`DELETE ${RESOURCE}`, `GET ${RESULT}`, `GET ${RESULT}`]);
  });

  it('POST: the result is read from Location after the status monitor (the method default), or from the monitor when final-state-via says so', async () => {
    const links = () => ({
      [STATUS]: [{ status: 200, body: { status: 'Succeeded', properties: { n: 1 } } }],
      [RESULT]: [{ status: 200, body: { result: 'from location' } }],
    });
    const first = { status: 202, headers: { 'Azure-AsyncOperation': STATUS, Location: RESULT } };
    await expect(pollUntilDone(scripted(first, links()).core, 'POST', PATH, fast)).resolves.toEqual({ result: 'from location' });
    await expect(pollUntilDone(scripted(first, links(), 'azure-async-operation').core, 'POST', PATH, fast)).resolves.toEqual({
      status: 'Succeeded',
      properties: { n: 1 },
    });
  });

  it('final-state-via original-uri on a POST reads the original URL', async () => {
    const { core, sent } = scripted(
      { status: 202, headers: { 'Azure-AsyncOperation': STATUS } },
      { [STATUS]: [{ status: 200, body: { status: 'Succeeded' } }], [RESOURCE]: [done] },
      'original-uri',
    );
    await expect(pollUntilDone(core, 'POST', PATH, fast)).resolves.toEqual(done.body);
    expect(sent.at(-1)).toBe(`GET ${RESOURCE}`);
  });

  it('a PUT with no link but a non-terminal provisioningState polls the resource itself', async () => {
    const { core, sent } = scripted(running(), { [RESOURCE]: [{ status: 200, body: { properties: { provisioningState: 'Updating' } } }, done] });
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).resolves.toEqual(done.body);
    expect(sent.length).toBe(3);
  });

  it('an answer with no link and a terminal state (or none) is the result at once', async () => {
    const { core, sent } = scripted(done, {});
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).resolves.toEqual(done.body);
    expect(sent).toEqual([`PUT ${RESOURCE}`]);
  });

  it.each([
    ['Failed', 'operation-failed'],
    ['Canceled', 'operation-canceled'],
    ['Cancelled', 'operation-canceled'],
  ])('ends %s: rejects with ClientError %s carrying the service error', async (status, code) => {
    const error = { code: 'ServerQuotaExceeded', message: 'No room for another server.' };
    const { core } = scripted(running({ 'Azure-AsyncOperation': STATUS }), { [STATUS]: [{ status: 200, body: { status, error } }] });
    const failure = await pollUntilDone(core, 'PUT', PATH, fast).catch((e) => e);
    expect(failure).toBeInstanceOf(ClientError);
    expect(failure).toMatchObject({ code, body: { error } });
  });

  it('a failed first request or poll rejects with ClientError http, status and body', async () => {
    const body = { error: { code: 'InvalidResourceLocation', message: 'no' } };
    await expect(pollUntilDone(scripted({ status: 400, body }, {}).core, 'PUT', PATH, fast)).rejects.toMatchObject({ code: 'http', status: 400, body });
    const { core } = scripted(running({ 'Azure-AsyncOperation': STATUS }), { [STATUS]: [{ status: 500, body }] });
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).rejects.toMatchObject({ code: 'http', status: 500 });
  });

  it.each([
    ['another host', 'https://evil.example/status'],
    ['a scheme-relative link', '//evil.example/status'],
    ['a plain-http downgrade', 'http://management.example.com/status'],
  ])('refuses a status link to %s before anything is sent there', async (_name, link) => {
    const { core, sent } = scripted(running({ 'Azure-AsyncOperation': link }), {});
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).rejects.toMatchObject({ code: 'foreign-poll-link' });
    expect(sent).toEqual([`PUT ${RESOURCE}`]);
  });

  it('waits Retry-After between polls, capped by maxDelayMs, and gives up at maxWaitMs', async () => {
    const reply = { status: 200, body: { status: 'InProgress' }, headers: { 'Retry-After': '1' } };
    const capped = scripted(running({ 'Azure-AsyncOperation': STATUS, 'Retry-After': '1' }), { [STATUS]: [reply] });
    await expect(pollUntilDone(capped.core, 'PUT', PATH, { maxDelayMs: 20, maxWaitMs: 200 })).rejects.toMatchObject({ code: 'poll-timeout' });
    // Waits of 20 ms, not the 1 s asked: several polls fit in 200 ms.
    expect(capped.sent.length).toBeGreaterThan(3);
    // Uncapped, the first wait (1 s) already passes maxWaitMs: it gives up without polling.
    const honoured = scripted(running({ 'Azure-AsyncOperation': STATUS, 'Retry-After': '1' }), { [STATUS]: [reply] });
    await expect(pollUntilDone(honoured.core, 'PUT', PATH, { maxWaitMs: 200 })).rejects.toMatchObject({ code: 'poll-timeout' });
    expect(honoured.sent).toEqual([`PUT ${RESOURCE}`]);
  });

  it("stops on the caller's signal with ClientError aborted", async () => {
    const { core } = scripted(running({ 'Azure-AsyncOperation': STATUS }), { [STATUS]: [{ status: 200, body: { status: 'InProgress' } }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(pollUntilDone(core, 'PUT', PATH, { pollIntervalMs: 10, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('refuses bad polling options before sending, naming the option', async () => {
    const { core, sent } = scripted(done, {});
    await expect(pollUntilDone(core, 'PUT', PATH, { maxWaitMs: -1 })).rejects.toMatchObject({ code: 'invalid-argument', parameter: 'maxWaitMs' });
    await expect(pollUntilDone(core, 'PUT', PATH, { pollIntervalMs: Number.NaN })).rejects.toMatchObject({ parameter: 'pollIntervalMs' });
    expect(sent).toEqual([]);
  });

  it('a status monitor answer whose status is not a string is a ClientError invalid-status, not a loop (core-lro throws too)', async () => {
    const { core } = scripted(running({ 'Azure-AsyncOperation': STATUS }), { [STATUS]: [{ status: 200, body: { status: { state: 'InProgress' } } }] });
    await expect(pollUntilDone(core, 'PUT', PATH, fast)).rejects.toMatchObject({ code: 'invalid-status' });
  });
});
