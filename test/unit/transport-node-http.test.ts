// The optional node:http fetch, against a real loopback server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { createNodeHttpFetch } from '../../src/transport-node-http.js';
import { CHECK, GUID, SUBSCRIPTION } from './fake-fetch.js';
import { DEFAULT } from './defaults.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse, body: string) => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, remotePort: req.socket.remotePort! });
      const route = [...handlers.entries()].find(([prefix]) => req.url!.includes(prefix));
      if (route) return route[1](req, res, body);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name: 'x', available: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const checkInit = { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' as const } };

describe('createNodeHttpFetch', () => {
  it('carries method, URL, headers and body, and answers with status, headers and JSON', async () => {
    const fetch = createNodeHttpFetch();
    const arm = createResourceManagerClient({ baseUrl: base, token: 'tok-node-1', fetch });
    seen.length = 0;
    const result = await arm.POST(CHECK, checkInit);
    fetch.destroy();
    expect(result).toMatchObject({ ok: true, data: { name: 'x', available: true } });
    expect(result.response.headers.get('content-type')).toBe('application/json');
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe(`/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/checkNameAvailability?api-version=${DEFAULT.sql}`);
    // As a fetch answers: the URL the request went to.
    expect(result.response.url).toBe(`${base}/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/checkNameAvailability?api-version=${DEFAULT.sql}`);
    expect(result.response.redirected).toBe(false);
    expect(req.headers.authorization).toBe('Bearer tok-node-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ name: 'x', type: 'Provider.Sql/servers' });
  });

  it('keeps the connection alive between calls', async () => {
    const fetch = createNodeHttpFetch();
    const arm = createResourceManagerClient({ baseUrl: base, token: 'tok-node-1', fetch });
    seen.length = 0;
    for (let i = 0; i < 3; i++) await arm.POST(CHECK, checkInit);
    fetch.destroy();
    expect(new Set(seen.map((s) => s.remotePort)).size).toBe(1);
  });

  it('sends the PATCH with If-Match and the OData path as is', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('/vendors(', (_req, res, body) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    const bc = createBusinessCentralClient({ baseUrl: base, token: 'tok-node-1', fetch });
    seen.length = 0;
    const result = await bc.updateVendor({ companyId: 'c)1', vendorId: GUID, eTag: 'W/"7"', vendor: { displayName: 'N' } });
    fetch.destroy();
    handlers.clear();
    expect(result).toMatchObject({ ok: true, data: { displayName: 'N' } });
    expect(seen[0]!.url).toBe(`/api/${DEFAULT.vendors}/companies(c%291)/vendors(${GUID})`);
    expect(seen[0]!.headers['if-match']).toBe('W/"7"');
  });

  it('decompresses a gzip answer', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('gzip', (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(gzipSync(JSON.stringify({ zipped: true }))),
    );
    const response = await fetch(`${base}/gzip`);
    fetch.destroy();
    handlers.clear();
    expect(await response.json()).toEqual({ zipped: true });
    expect(response.headers.get('content-encoding')).toBeNull();
  });

  it('returns a 204 with a null body and an error status as is', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('no-content', (_req, res) => res.writeHead(204).end());
    handlers.set('broken', (_req, res) => res.writeHead(500).end());
    const empty = await fetch(`${base}/no-content`);
    const broken = await fetch(`${base}/broken`);
    fetch.destroy();
    handlers.clear();
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe('');
  });

  it('lets the client time out a server that stalls in the middle of the body', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('checkNameAvailability', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"name":'); // and never ends
    });
    const arm = createResourceManagerClient({ baseUrl: base, token: 'tok-node-1', fetch, timeoutMs: 50 });
    const error = await arm.POST(CHECK, checkInit).catch((e: unknown) => e);
    fetch.destroy();
    handlers.clear();
    expect(error).toMatchObject({ name: 'ClientError', code: 'timeout' });
  });

  it("stops on the caller's signal as well", async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('checkNameAvailability', () => {}); // never answers
    const arm = createResourceManagerClient({ baseUrl: base, token: 'tok-node-1', fetch, timeoutMs: 10_000, retry: false });
    const controller = new AbortController();
    const pending = arm.POST(CHECK, { ...checkInit, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    fetch.destroy();
    handlers.clear();
    expect(error).toMatchObject({ name: 'ClientError', code: 'aborted' });
  });

  it('also takes a URL and init like fetch, body included', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('/echo', (req, res, body) => res.writeHead(201, { 'Content-Type': 'text/plain' }).end(`${req.method} ${body}`));
    const response = await fetch(`${base}/echo`, { method: 'PUT', body: 'payload', headers: { 'X-A': '1' } });
    fetch.destroy();
    handlers.clear();
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('PUT payload');
    expect(seen.at(-1)!.headers['x-a']).toBe('1');
  });

  it('reports a refused connection as a network error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const fetch = createNodeHttpFetch();
    const arm = createResourceManagerClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'tok-node-1', fetch, retry: false });
    const error = await arm.POST(CHECK, checkInit).catch((e: unknown) => e);
    fetch.destroy();
    expect(error).toMatchObject({ name: 'ClientError', code: 'network' });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('answers with a real Response whose body reads once, as text, JSON, bytes or a stream', async () => {
    const fetch = createNodeHttpFetch();
    handlers.set('/twice', (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"a":1}'));
    const first = await fetch(`${base}/twice`);
    const second = await fetch(`${base}/twice`);
    const third = await fetch(`${base}/twice`);
    fetch.destroy();
    handlers.clear();
    expect(first).toBeInstanceOf(Response);
    expect(first.bodyUsed).toBe(false);
    const copy = first.clone();
    expect(await first.json()).toEqual({ a: 1 });
    expect(first.bodyUsed).toBe(true);
    await expect(first.text()).rejects.toThrow(TypeError);
    expect(await copy.text()).toBe('{"a":1}');
    expect(new TextDecoder().decode(await second.arrayBuffer())).toBe('{"a":1}');
    const reader = third.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(Buffer.concat(chunks).toString()).toBe('{"a":1}');
    expect(third.bodyUsed).toBe(true);
  });
});
