// The validating proxy against the fake upstream: every known break is reported with
// what broke, the correct answers are not, requests reach the upstream exactly as sent
// (scope slashes, OData parentheses, the token), the token is never in the output, and
// --fail-on-violation turns a violating answer into an error for the client.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { formatExchange, startProxy, violationsOf } from '../../contract/proxy-server.mjs';
import { operations } from '../../generated/operations.js';
import { BAD_REQUEST, COMPANY, GOOD_REQUEST, startFakeUpstream, SUB, VENDOR } from './fake-upstream.js';

const ROOT = join(import.meta.dirname, '../..');
const TOKEN = 'proxy-test-token-7f3a9c';
const SCOPE = `providers/Provider.Subscription/subscriptions/${SUB}`;
const ROLE = (name: string) => `/${SCOPE}/providers/Provider.Authorization/roleEligibilityScheduleRequests/${name}?api-version=2020-10-01`;
const NAME = `/subscriptions/${SUB}/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01`;
const IMAGES = (location: string) => `/subscriptions/${SUB}/providers/Provider.ContainerInstance/locations/${location}/cachedImages?api-version=2025-09-01`;
const SHIP = `/api/v1.0/companies(${COMPANY})/shipmentMethods`;
const VENDOR_PATH = `/api/v2.0/companies(${COMPANY})/vendors(${VENDOR})`;
/** The api-versions of the name check, oldest first: what the proxy lists as documented. */
const SQL_VERSIONS = operations
  .flatMap((op) => (op.apiName === 'sql' && op.operationId === 'Servers_CheckNameAvailability' && 'apiVersion' in op ? [op.apiVersion] : []))
  .sort();

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { authorization: `Bearer ${TOKEN}`, ...(text ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let out = '';
        res.setEncoding('utf8').on('data', (c: string) => (out += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: out }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

// Each exchange the test sends, and what the proxy must say about it ([] = no violation).
const CASES: { name: string; method: string; path: string; body?: unknown; headers?: Record<string, string>; expect: RegExp[] }[] = [
  { name: 'role eligibility, correct', method: 'GET', path: ROLE(GOOD_REQUEST), expect: [] },
  {
    name: 'role eligibility, status not one of the 22',
    method: 'GET',
    path: ROLE(BAD_REQUEST),
    expect: [/value at \/properties\/status is not one of "Accepted"/],
  },
  { name: 'name check, free', method: 'POST', path: NAME, body: { name: 'sales-db-west-02', type: 'Provider.Sql/servers' }, expect: [] },
  { name: 'name check, taken', method: 'POST', path: NAME, body: { name: 'sales-db-west-01', type: 'Provider.Sql/servers' }, expect: [] },
  { name: 'name check, invalid', method: 'POST', path: NAME, body: { name: 'Sales_DB', type: 'Provider.Sql/servers' }, expect: [] },
  // The request breaks the body schema (the type enum); the upstream's 400 is declared.
  {
    name: 'name check, unknown type (a declared 400)',
    method: 'POST',
    path: NAME,
    body: { name: 'x', type: 'Provider.Sql/databases' },
    expect: [/request body: value at \/type is not one of "Provider.Sql\/servers"/],
  },
  {
    name: 'name check, 503 text/html',
    method: 'POST',
    path: NAME,
    body: { name: 'boom-503', type: 'Provider.Sql/servers' },
    expect: [/status 503 is not declared \(declared: 200, 400\)/],
  },
  {
    name: 'name check, missing field',
    method: 'POST',
    path: NAME,
    body: { name: 'lost-field', type: 'Provider.Sql/servers' },
    expect: [/missing field \/available/],
  },
  { name: 'cached images, first page', method: 'GET', path: IMAGES('westeurope'), expect: [] },
  { name: 'cached images, second page', method: 'GET', path: `${IMAGES('westeurope')}&$skiptoken=page2`, expect: [] },
  { name: 'cached images, wrong type', method: 'GET', path: IMAGES('brokenregion'), expect: [/wrong type at \/value\/0\/osType: expected string/] },
  {
    name: 'shipment method, undeclared content type',
    method: 'POST',
    path: SHIP,
    body: { code: 'EXW', displayName: 'Ex Warehouse' },
    expect: [/undeclared content type text\/plain for 201/],
  },
  {
    name: 'vendor, wrong type',
    method: 'PATCH',
    path: VENDOR_PATH,
    body: { displayName: 'x' },
    headers: { 'if-match': 'W/"1"' },
    expect: [/wrong type at \/balance: expected number/],
  },
  {
    name: 'request with an undocumented api-version',
    method: 'POST',
    path: NAME.replace('2025-01-01', '2019-01-01'),
    body: { name: 'sales-db-west-02', type: 'Provider.Sql/servers' },
    expect: [new RegExp(`request: api-version "2019-01-01" is not a documented version \\(documented: ${SQL_VERSIONS.join(', ')}\\)`)],
  },
  {
    name: 'request without api-version',
    method: 'GET',
    path: ROLE(GOOD_REQUEST).replace('?api-version=2020-10-01', ''),
    expect: [/request: missing query parameter api-version/],
  },
  {
    name: 'request without If-Match',
    method: 'PATCH',
    path: VENDOR_PATH,
    body: { displayName: 'x' },
    expect: [/request: missing header parameter If-Match/, /wrong type at \/balance/],
  },
];

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let proxy: any;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  proxy = await startProxy({ root: ROOT, upstream: upstream.url, report: (e: unknown) => lines.push(formatExchange(e)) });
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

describe('validating proxy against a fake upstream', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const before = proxy.exchanges.length;
    const answer = await send(proxy.url, c.method, c.path, c.body, c.headers);
    const exchange = proxy.exchanges[before];
    expect(exchange, 'one exchange recorded').toBeDefined();
    const problems: string[] = violationsOf(exchange);
    if (!c.expect.length) expect(problems, `no false positive on ${c.name}`).toEqual([]);
    for (const pattern of c.expect)
      expect(
        problems.some((p) => pattern.test(p)),
        `${pattern} in ${JSON.stringify(problems)}`,
      ).toBe(true);
    expect(problems, 'nothing beyond the known breaks').toHaveLength(c.expect.length);
    // Without --fail-on-violation the client gets the upstream's answer unchanged.
    expect(answer.status).toBe(exchange.status);
    expect(exchange.operation ?? '').toMatch(/@/);
  });

  it('forwards the path and query exactly as sent (scope slashes, OData parentheses) and the token to the upstream', () => {
    const urls = upstream.received.map((r) => r.url);
    expect(urls).toContain(ROLE(GOOD_REQUEST));
    expect(urls).toContain(VENDOR_PATH);
    expect(urls).toContain(`${IMAGES('westeurope')}&$skiptoken=page2`);
    expect(upstream.received.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('prints one line per exchange with the operation and version, the status and what broke, never the token', () => {
    expect(lines).toHaveLength(CASES.length);
    expect(lines.find((l) => l.includes(BAD_REQUEST))).toMatch(
      /^VIOLATION +RoleEligibilityScheduleRequests_Get@2020-10-01 +GET .* -> 200 +value at \/properties\/status/,
    );
    expect(lines.filter((l) => l.startsWith('ok '))).toHaveLength(CASES.filter((c) => !c.expect.length).length);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('--fail-on-violation: a violating answer becomes a 502 for the client, a correct one passes unchanged', async () => {
    const strict = await startProxy({ root: ROOT, upstream: upstream.url, failOnViolation: true });
    try {
      const bad = await send(strict.url, 'POST', NAME, { name: 'lost-field', type: 'Provider.Sql/servers' });
      expect(bad.status).toBe(502);
      expect(JSON.parse(bad.text).error.code).toBe('ContractViolation');
      expect(bad.text).toMatch(/missing field \/available/);
      const good = await send(strict.url, 'POST', NAME, { name: 'sales-db-west-01', type: 'Provider.Sql/servers' });
      expect(good.status).toBe(200);
      expect(JSON.parse(good.text)).toEqual({ name: 'sales-db-west-01', available: false, reason: 'AlreadyExists', message: 'taken' });
    } finally {
      await strict.close();
    }
  });

  it("the upstream gets its own Host, or with preserveHost the client's (links built from it lead back through the proxy)", async () => {
    const plain = JSON.parse((await send(proxy.url, 'GET', IMAGES('westeurope'))).text);
    expect(plain.nextLink.startsWith(`${upstream.url}/`)).toBe(true);
    const preserving = await startProxy({ root: ROOT, upstream: upstream.url, preserveHost: true });
    try {
      const page = JSON.parse((await send(preserving.url, 'GET', IMAGES('westeurope'))).text);
      expect(page.nextLink.startsWith(`${preserving.url}/`)).toBe(true);
    } finally {
      await preserving.close();
    }
  });

  it('npm run proxy: listens on 127.0.0.1, reports, and prints a summary per operation at exit; the token never appears', async () => {
    const child = spawn(process.execPath, ['contract/proxy.mjs', '--upstream', upstream.url, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`proxy not ready: ${out}`)), 10_000);
      child.stdout.on('data', () => {
        const ready = /^proxy {2}(http:\/\/127\.0\.0\.1:\d+) -> .* ready$/m.exec(out);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      });
    });
    await send(url, 'GET', ROLE(GOOD_REQUEST));
    await send(url, 'GET', ROLE(BAD_REQUEST));
    await send(url, 'POST', SHIP, { code: 'EXW', displayName: 'Ex Warehouse' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toMatch(/^ok +RoleEligibilityScheduleRequests_Get@2020-10-01 +GET/m);
    expect(out).toMatch(/^VIOLATION +createShipmentMethod@v1\.0 +POST .* -> 201 +undeclared content type text\/plain/m);
    expect(out).toMatch(/^ {2}RoleEligibilityScheduleRequests_Get@2020-10-01 +2 exchanges +1 violating +statuses 200x2$/m);
    expect(out).toMatch(/^ {2}createShipmentMethod@v1\.0 +1 exchanges +1 violating +statuses 201x1$/m);
    expect(out).not.toContain(TOKEN);
  });
});
