// Local servers are local (docs/security.md): the mock and the proxy answer only a
// loopback Host (DNS rebinding), the mock lets foreign pages read but not change state,
// and the proxy neither hangs on a protocol switch, nor climbs out of the upstream's base
// path, nor relays hop-by-hop headers, nor logs credentials in query strings.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { startMock } from '../../mock/index.mjs';
// @ts-expect-error: plain ESM module without types
import { formatExchange, startProxy } from '../../contract/proxy-server.mjs';
import { ROOT } from '../helpers/bundles.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }; // Node sends DELETE bodies unframed otherwise
    const req = http.request({ host: hostname, port, method, path, headers: { ...length, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the mock', () => {
  let mock: any;
  let opened: any;
  beforeAll(async () => {
    [mock, opened] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, allowHosts: ['dev.test'], allowOrigins: ['https://app.test'] })]);
  }, 60_000);
  afterAll(() => Promise.all([mock?.close(), opened?.close()]));

  it.each(['evil.example', 'evil.example:4010', '127.0.0.1.nip.io', '10.0.0.5'])('refuses Host %s with 403 and says which flag allows it', async (host) => {
    const answer = await send(mock.url, 'GET', '/', { host });
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/ForeignHost/);
    expect(answer.text).toMatch(/answers only loopback names .* --allow-host/);
  });

  it.each(['localhost', `localhost:4010`, '127.0.0.1', '127.1.2.3:80', '[::1]:4010', 'app.localhost'])('answers Host %s', async (host) => {
    const answer = await send(mock.url, 'GET', '/nothing-here', { host });
    expect(answer.status).toBe(404); // routed, not refused
  });

  it('answers a Host named with allowHosts (--allow-host)', async () => {
    expect((await send(mock.url, 'GET', '/nothing-here', { host: 'dev.test:1234' })).status).toBe(403);
    expect((await send(opened.url, 'GET', '/nothing-here', { host: 'dev.test:1234' })).status).toBe(404);
  });

  it.each(['POST', 'PATCH', 'PUT', 'DELETE'])('refuses a %s from a foreign origin with 403, before it touches state', async (method) => {
    const answer = await send(
      mock.url,
      method,
      '/api/v2.0/companies(x)/vendors(y)',
      { origin: 'https://evil.example', 'content-type': 'application/json', authorization: 'Bearer t' },
      '{}',
    );
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/ForeignOrigin/);
    expect(answer.text).toMatch(/--allow-origin https:\/\/evil\.example/);
  });

  it('lets a foreign origin read, and a loopback or allowed origin write', async () => {
    const read = await send(mock.url, 'GET', '/nothing-here', { origin: 'https://evil.example' });
    expect(read.status).toBe(404);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    const local = await send(mock.url, 'PATCH', '/nothing-here', { origin: 'http://localhost:5173' });
    expect(local.status).toBe(404);
    const allowed = await send(opened.url, 'PATCH', '/nothing-here', { origin: 'https://app.test' });
    expect(allowed.status).toBe(404);
    const other = await send(opened.url, 'PATCH', '/nothing-here', { origin: 'https://evil.example' });
    expect(other.status).toBe(403);
  });

  it('answers a CORS preflight accordingly', async () => {
    const preflight = (base: string, origin: string, method: string) => send(base, 'OPTIONS', '/x', { origin, 'access-control-request-method': method });
    expect((await preflight(mock.url, 'https://evil.example', 'GET')).status).toBe(204);
    expect((await preflight(mock.url, 'https://evil.example', 'PATCH')).status).toBe(403);
    expect((await preflight(mock.url, 'http://127.0.0.1:3000', 'PATCH')).status).toBe(204);
    expect((await preflight(opened.url, 'https://app.test', 'DELETE')).status).toBe(204);
  });
});

describe('the proxy', () => {
  // A fake upstream with a base path; what it receives is recorded. Paths under /switch answer 101.
  const received: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  const upstream = http.createServer((req, res) => {
    received.push({ url: req.url!, headers: req.headers });
    if (req.url!.startsWith('/base/switch')) {
      (req.socket as Socket).write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      return; // and never a word more
    }
    res.writeHead(200, { 'content-type': 'application/json', connection: 'x-up-hop', 'x-up-hop': 'secret', 'x-kept': 'yes' });
    res.end('{}');
  });
  let base = '';
  let proxy: any;
  const reports: any[] = [];
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/base`;
    proxy = await startProxy({ root: ROOT, upstream: base, timeoutMs: 3_000, report: (e: any) => reports.push(e) });
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    upstream.closeAllConnections();
    upstream.close();
  });

  it('refuses a foreign Host with 403 and forwards nothing', async () => {
    const before = received.length;
    const answer = await send(proxy.url, 'GET', '/x', { host: 'evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/--allow-host evil\.example/);
    expect(received.length).toBe(before);
    const allowing = await startProxy({ root: ROOT, upstream: base, allowHosts: ['evil.example'] });
    try {
      expect((await send(allowing.url, 'GET', '/x', { host: 'evil.example' })).status).toBe(200);
    } finally {
      await allowing.close();
    }
  });

  it('answers a 101 from the upstream with a logged 502, well within its timeout', async () => {
    const start = performance.now();
    const answer = await send(proxy.url, 'GET', '/switch');
    expect(answer.status).toBe(502);
    expect(performance.now() - start).toBeLessThan(3_000);
    expect(formatExchange(reports.at(-1))).toMatch(/GET \/switch -> 502 .*101/);
  });

  it('resolves dot-segments, and refuses a path that climbs out of the base path with 400', async () => {
    await send(proxy.url, 'GET', '/a/./b/../c');
    expect(received.at(-1)!.url).toBe('/base/a/c');
    const before = received.length;
    for (const path of ['/../admin', '/a/../../admin', '/%2e%2e/admin', '/a/%2E%2E/%2e%2E/admin?x=1']) {
      const answer = await send(proxy.url, 'GET', path);
      expect(answer.status, path).toBe(400);
      expect(answer.text).toMatch(/out of the upstream's base path/);
    }
    expect(received.length).toBe(before);
  });

  it('drops headers named in Connection, both ways', async () => {
    const answer = await send(proxy.url, 'GET', '/hop', { connection: 'x-down-hop', 'x-down-hop': 'secret', 'x-kept': 'yes' });
    expect(received.at(-1)!.headers['x-down-hop']).toBeUndefined();
    expect(received.at(-1)!.headers['x-kept']).toBe('yes');
    expect(answer.headers['x-up-hop']).toBeUndefined();
    expect(answer.headers['x-kept']).toBe('yes');
  });

  it('logs a failure on the client side as such, not as "upstream unreachable"', async () => {
    const { port } = new URL(proxy.url);
    const reported = new Promise((resolve) => {
      const count = reports.length;
      const timer = setInterval(() => {
        if (reports.length <= count) return;
        clearInterval(timer);
        resolve(reports.at(-1));
      }, 20);
    });
    const { connect } = await import('node:net');
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('POST /cut HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n0123456789');
      setTimeout(() => socket.destroy(), 100);
    });
    socket.on('error', () => {});
    const exchange: any = await reported;
    expect(exchange.error).toMatch(/the client's request failed/);
    expect(exchange.error).not.toMatch(/upstream/);
  });

  it('names the upstream in TLS (SNI), never the Host the client sent', async () => {
    // A TCP listener that reads the server name from the TLS ClientHello and hangs up.
    const names: string[] = [];
    const { createServer } = await import('node:net');
    const tlsUpstream = createServer((socket) => {
      socket.once('data', (hello: Buffer) => {
        names.push(serverNameOf(hello) ?? '(none)');
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tlsUpstream.listen(0, '127.0.0.1', resolve));
    const port = (tlsUpstream.address() as AddressInfo).port;
    const tlsProxy = await startProxy({ root: ROOT, upstream: `https://localhost:${port}/`, preserveHost: true, timeoutMs: 3_000 });
    try {
      const answer = await send(tlsProxy.url, 'GET', '/x', { host: 'attacker.localhost' });
      expect(answer.status).toBe(502);
      expect(names).toEqual(['localhost']);
    } finally {
      await tlsProxy.close();
      tlsUpstream.close();
    }
  });

  it('redacts the values of credential-like query parameters in its log, and forwards them untouched', async () => {
    const path = '/q?access_token=TOKEN1&sig=SIG2&apiKey=KEY3&code=CODE4&X-Amz-Signature=SIG5&api-version=2025-01-01&$skiptoken=page2';
    await send(proxy.url, 'GET', path);
    expect(received.at(-1)!.url).toBe(`/base${path}`);
    const line = formatExchange(reports.at(-1));
    for (const secret of ['TOKEN1', 'SIG2', 'KEY3', 'CODE4', 'SIG5']) expect(line).not.toContain(secret);
    expect(line).toContain('access_token=***');
    expect(line).toContain('api-version=2025-01-01');
    expect(line).toContain('$skiptoken=page2');
  });
});

/** The server_name of a TLS ClientHello (RFC 8446 4.1.2, RFC 6066 3), or undefined. */
function serverNameOf(hello: Buffer): string | undefined {
  let at = 5 + 4 + 2 + 32; // record header, handshake header, version, random
  at += 1 + hello[at]!; // session id
  at += 2 + hello.readUInt16BE(at); // cipher suites
  at += 1 + hello[at]!; // compression methods
  const end = at + 2 + hello.readUInt16BE(at);
  for (at += 2; at + 4 <= end; ) {
    const type = hello.readUInt16BE(at);
    const length = hello.readUInt16BE(at + 2);
    if (type === 0) return hello.toString('latin1', at + 4 + 5, at + 4 + length); // list length, name type, name length
    at += 4 + length;
  }
  return undefined;
}
