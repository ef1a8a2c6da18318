// Fuzz: a bounded set of malformed requests (methods, paths, header values, bodies,
// encodings), generated from a fixed seed, sent to a mock process of its own. Whatever
// comes in, the process stays up, answers no 5xx nobody asked for (`Prefer: code=5xx`
// is asking), and every answer is either empty or parses as JSON.
// The seed and the count are fixed, so a failure is reproducible: FUZZ_SEED / FUZZ_COUNT
// override them for exploring, never in CI.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { send, validRequest, type RawRequest, type RawResponse } from './support.js';
import { spawnMock, type MockProcess } from './spawn-mock.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const COUNT = Number(process.env.FUZZ_COUNT ?? 600);

/** mulberry32: a small, fixed PRNG (Math.random cannot be seeded). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'BREW'];
const PATH_MUTATIONS: Array<(p: string, r: () => number) => string> = [
  (p) => p,
  (p) => p.replace('/', '/\\'),
  (p) => `/\\evil.example${p}`,
  () => '/\\',
  (p) => `/${p}`,
  (p) => p.replace(/\?.*/, ''),
  (p) => p.replace(/api-version=[^&]*/, 'api-version='),
  (p) => p.replace(/api-version=[^&]*/, 'api-version=1999-01-01'),
  (p) => `${p}${p.includes('?') ? '&' : '?'}api-version=2020-10-01&api-version=2025-01-01`,
  (p) => p.replace(/[0-9a-f]{8}-/, '%E0%A4%A'),
  (p) => p.replace(/[0-9a-f]{8}-/, '%'),
  (p) => p.replace(/\(/g, '%28').replace(/\)/g, '%29'),
  (p) => p.replace(/\//g, '%2F'),
  (p) => p.replace(/[^/?]+(?=\?|$)/, '..'),
  (p) => p.replace(/[^/?]+(?=\?|$)/, `x${'a'.repeat(4000)}`),
  (p) => p.replace(/providers/, 'providers/%00'),
  (p, r) => `${p}${p.includes('?') ? '&' : '?'}$skiptoken=${['page0', 'page99', 'pageX', '', 'page2'][Math.floor(r() * 5)]}`,
  (p, r) => `${p}${p.includes('?') ? '&' : '?'}__code=${['100', '000', '999', 'abc', '404', '200'][Math.floor(r() * 6)]}`,
  (p) => `${p}#fragment`,
  () => '*',
  () => '/',
  () => '/api/v9.9/companies(x)/vendors(y)',
  (p) => p.toUpperCase(),
  (p) => p.replace('subscriptions', 'subscriptions/ü/%C3%BC'),
];
const HEADER_VALUES: Record<string, string[]> = {
  accept: [
    ';;;',
    '*/*;q=abc',
    'application/json;q=2',
    '',
    ',,,',
    'text/*',
    'application/xml',
    'a/b/c',
    'application/json, */*;q=0.1',
    '*/*',
    'application/json;charset="x',
    'application/*+json',
  ],
  'content-type': [
    'json',
    '///',
    'application/json; charset=klingon',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/json;;;',
    'application/json',
    '',
    'application/merge-patch+json',
  ],
  prefer: [
    'code=100',
    'code=1',
    'code=abc',
    'code=200',
    'code=201',
    'code=400',
    'code=412',
    'code=418',
    'example=nope',
    'example=AlreadyExists',
    'dynamic=true',
    'dynamic=true; seed=X',
    'seed=',
    ';;==,,',
    'dynamic=maybe',
    'code=200, example=BlockPayment',
    'code=500',
  ],
  'if-match': ['*', '', 'W/"1"', '"x", W/"y"', 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="'],
  authorization: ['Bearer x', 'Bearer', 'Basic dXNlcjpwYXNz', '', 'bearer lower'],
  'content-encoding': ['gzip', 'identity', 'br, gzip', 'nonsense'],
  host: ['127.0.0.1', 'evil.example:1', '[::1]:80', 'a b', 'x'.repeat(300)],
  'x-http-method-override': ['DELETE'],
};
const BODIES = [
  '',
  'null',
  '[]',
  '{',
  '{"name":123,"type":[]}',
  '"string"',
  '{"name":"ok-name","type":"Provider.Sql/servers"}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  '{"displayName":"\\ud800"}',
  '\u0000\u0001\u0002',
  `{"a":${'1'.repeat(400)}}`,
  'ü'.repeat(100),
  '{"code":"EXW","displayName":"x","id":"forged"}',
  'x'.repeat(1_100_000),
];

function generate(count: number, seed: number): RawRequest[] {
  const r = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const requests: RawRequest[] = [];
  for (let i = 0; i < count; i++) {
    const base = validRequest(pick(operations));
    const request: RawRequest = { ...base, headers: { ...base.headers } };
    if (r() < 0.3) request.method = pick(METHODS);
    if (r() < 0.6) request.path = pick(PATH_MUTATIONS)(request.path, r);
    const mutations = Math.floor(r() * 3);
    for (let m = 0; m < mutations; m++) {
      const name = pick(Object.keys(HEADER_VALUES));
      const value = pick(HEADER_VALUES[name]!);
      if (r() < 0.15) delete request.headers[name];
      else request.headers[name] = value;
    }
    if (r() < 0.35) request.body = pick(BODIES);
    if (request.body === '') request.body = undefined;
    requests.push(request);
  }
  return requests;
}

const askedFor5xx = (request: RawRequest) => /(?:^|[\s,;])code=5\d\d\b/.test(request.headers.prefer ?? '') || /[?&]__code=5\d\d\b/.test(request.path);

let mock: MockProcess;
beforeAll(async () => {
  mock = await spawnMock();
}, 60_000);
afterAll(async () => {
  await mock?.stop();
});

describe(`fuzz: ${COUNT} malformed requests from seed ${SEED}`, () => {
  it('the process stays up, answers no unasked 5xx, and every answer parses', { timeout: 120_000 }, async () => {
    const requests = generate(COUNT, SEED);
    const problems: string[] = [];
    // A few at a time: enough to overlap requests, little enough for a shared machine.
    for (let i = 0; i < requests.length; i += 8) {
      const batch = requests.slice(i, i + 8);
      const answers = await Promise.all(batch.map((request) => send(request, mock.url).catch((error: Error) => error)));
      for (const [j, answer] of answers.entries()) {
        const request = batch[j]!;
        const what = `#${i + j} ${request.method} ${request.path.slice(0, 120)} ${JSON.stringify(request.headers).slice(0, 300)}`;
        if (answer instanceof Error) {
          problems.push(`${what}: no answer (${answer.message})`);
          continue;
        }
        const response = answer as RawResponse;
        if (response.status >= 500 && !askedFor5xx(request)) problems.push(`${what}: ${response.status} ${response.text.slice(0, 200)}`);
        if (request.method !== 'HEAD' && response.text !== '' && response.json === undefined)
          problems.push(`${what}: answer does not parse: ${response.text.slice(0, 200)}`);
        if (response.status >= 400 && request.method !== 'HEAD' && response.status !== 500) {
          const error = (response.json as any)?.error;
          if (typeof error?.code !== 'string' || typeof error?.message !== 'string' || error.code === 'string' || error.message === 'string') {
            problems.push(`${what}: ${response.status} without an error body naming the violation: ${response.text.slice(0, 200)}`);
          }
        }
      }
      expect(mock.child.exitCode, `the mock exited after request #${i}: ${mock.stderr()}`).toBeNull();
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    expect(mock.child.exitCode).toBeNull();
    // Still serving: a valid request of every operation gets an answer of its own, none a 5xx,
    // and at least one a 2xx (a read of a resource nobody stored is rightly a 404, so no
    // single operation is asked for 200: which ones a workspace has is not this test's).
    const after = await Promise.all(operations.map((op) => send(validRequest(op), mock.url)));
    expect(
      after.map((a) => a.status).filter((status) => status >= 500),
      'valid requests after the fuzz',
    ).toEqual([]);
    expect(
      after.some((a) => a.status >= 200 && a.status < 300),
      'a valid request after the fuzz answered 2xx',
    ).toBe(true);
    expect(mock.stderr()).not.toMatch(/unasked|mock bug/);
  });
});

// A request refused before its body is read gets its answer, not a connection reset,
// however much body the client is still sending: seen once in this fuzz run (request #459,
// a request-target that is not a path, with a 1.1 MB body: "no answer (write ECONNRESET)").
describe('a request refused while its body is still coming', () => {
  /** Sends the head and half the body, waits, sends the rest; what came back, and any socket error. */
  async function exchange(head: string, size: number): Promise<{ early: string; received: string; error?: string }> {
    const { hostname, port } = new URL(mock.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    let error: string | undefined;
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`${head}Content-Length: ${size}\r\n\r\n`);
    socket.write('x'.repeat(size / 2));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const early = received;
    socket.write('x'.repeat(size / 2));
    for (let i = 0; i < 100 && !received.includes('\r\n\r\n'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300)); // a reset would come now
    socket.destroy();
    return { early, received, error };
  }

  it('a request line HTTP cannot parse: 400, and the connection is not reset while the client sends', { timeout: 60_000 }, async () => {
    // 5 MB: more than loopback buffers hold, so the client is still sending when the 400
    // goes out (without the mock's lingering close, most of these ended in a reset).
    const { hostname, port } = new URL(mock.url);
    const size = 5_000_000;
    for (let round = 0; round < 3; round++) {
      const { received, error } = await new Promise<{ received: string; error?: string }>((resolve) => {
        const socket = connect(Number(port), hostname);
        let received = '';
        let error: string | undefined;
        socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
        socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
        socket.on('close', () => resolve({ received, error }));
        socket.on('connect', () => {
          socket.write(`GET %2Fproviders%2Fx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
          socket.end('x'.repeat(size));
        });
      });
      expect(received, `round ${round}`).toMatch(/^HTTP\/1\.1 400 /);
      expect(error, `round ${round}: the connection was reset`).toBeUndefined();
    }
  });

  it('a request the mock refuses from its head: answered once the body has arrived, not before', { timeout: 30_000 }, async () => {
    const path = '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01';
    const { early, received, error } = await exchange(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nAccept: ;;;\r\nContent-Type: application/json\r\n`,
      200_000,
    );
    expect(early, 'answered while the body was still coming').toBe('');
    expect(received).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(error, 'the connection was reset').toBeUndefined();
  });
});
