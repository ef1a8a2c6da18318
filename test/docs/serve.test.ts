// `npm run docs:serve`: serves generated/docs/ on 127.0.0.1, nothing outside it, only to
// loopback Host names, the mock on the same origin, and stops cleanly on SIGTERM. Needs
// no browser.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM scripts without types
import { serveDocs } from '../../site/server.mjs';
// @ts-expect-error: plain ESM scripts without types
import { exampleRequest, operationsIn, requestUrl } from '../../site/samples.mjs';
import { apis, bundled } from '../helpers/bundles.js';
import { ensureDocs, pageOf, startDocsServer, type DocsServer } from './support.js';

interface Answer {
  status: number;
  type: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the path sent exactly as given (no URL normalisation of `..`). */
function send(
  base: string,
  rawPath: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const { hostname, port } = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ hostname, port, path: rawPath, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('docs:serve', () => {
  let server: DocsServer;
  beforeAll(async () => {
    ensureDocs();
    server = await startDocsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('prints a 127.0.0.1 URL and serves the landing page there, with no script allowed', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await send(server.url, '/');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>API reference');
    expect(page.body).toMatch(/script-src 'none'/);
    expect(page.body).not.toMatch(/<script/);
  });

  it.each(apis().map((api) => api.slug))('serves %s and the two scripts it loads, and no inline script', async (slug) => {
    const page = await send(server.url, `/${pageOf(slug)}`);
    expect(page.status).toBe(200);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    expect(/script-src [^;]*unsafe-inline/.test(policy)).toBe(false);
    // Every <script> is either a file of the folder or a JSON data block (never run).
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    for (const attributes of scripts) expect(attributes).toMatch(/src="[\w.-]+\.js"|type="application\/json"/);
    const sources = scripts.map((a) => /src="([\w.-]+\.js)"/.exec(a)?.[1]).filter(Boolean) as string[];
    expect(sources).toHaveLength(2);
    for (const src of sources) {
      const script = await send(server.url, `/${src}`);
      expect(script.status).toBe(200);
      expect(script.type).toBe('text/javascript; charset=utf-8');
    }
  });

  // Each names a file that exists outside generated/docs/ (generated/operations.ts,
  // package.json, /etc/passwd) by a different trick.
  it.each([
    '/../operations.ts',
    '/..%2foperations.ts',
    '/../../package.json',
    '/%2e%2e/package.json',
    '/%2e%2e/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/..\\..\\package.json',
    '/./../package.json',
    '/%00index.html',
    '/%E0%A4%A',
    '/missing.html',
  ])('answers 404 to %s', async (path) => {
    const answer = await send(server.url, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe('Not found\n');
  });

  it('refuses methods other than GET and HEAD on the docs', async () => {
    expect((await send(server.url, '/', { method: 'POST' })).status).toBe(405);
    expect((await send(server.url, '/', { method: 'HEAD' })).status).toBe(200);
  });

  it('refuses oversized requests: a long target, a body for a page, headers over the limit', async () => {
    expect((await send(server.url, `/${'a'.repeat(5000)}.html`)).status).toBe(414);
    expect((await send(server.url, '/', { headers: { 'content-type': 'text/plain', 'content-length': '1000' }, body: 'x'.repeat(1000) })).status).toBe(413);
    expect((await send(server.url, '/', { headers: { 'x-big': 'y'.repeat(20_000) } })).status).toBe(431);
    // and goes on serving
    expect((await send(server.url, '/')).status).toBe(200);
  });

  it.each(['localhost', 'localhost:8080', '127.0.0.1', '127.1.2.3:9', '[::1]:8080'])('answers a request whose Host is %s', async (host) => {
    expect((await send(server.url, '/', { headers: { host } })).status).toBe(200);
  });

  it.each(['attacker.example', 'attacker.example:8080', '127.0.0.1.attacker.example', 'localhost.attacker.example'])(
    'refuses a request whose Host is "%s" (DNS rebinding), for pages and the mock alike',
    async (host) => {
      const page = await send(server.url, '/', { headers: { host } });
      expect(page.status).toBe(421);
      expect(page.body).not.toContain('<title>');
      const api = await send(server.url, '/subscriptions/x/providers/y', { headers: { host } });
      expect(api.status).toBe(421);
    },
  );

  it("passes API paths to the mock, same origin: an unknown one gets the mock's error body, not the docs' text", async () => {
    const unknown = await send(server.url, '/no/such/operation');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toEqual(expect.any(String));
  });

  // Every operation's example request (what its samples and "Try it" send), sent to the
  // docs origin, gets the status its operation documents from the mock behind it.
  const requests = apis().flatMap((api) => {
    const doc = bundled(api);
    return operationsIn(doc).map((entry: any) => ({
      ...exampleRequest(doc, entry, api.family),
      // Every 2xx it documents: a PUT creates (201) or replaces (200), a long-running DELETE answers 202.
      successes: Object.keys(entry.operation.responses ?? {})
        .filter((status) => /^2\d\d$/.test(status))
        .map(Number),
    }));
  });
  it.each(requests.map((r: any) => [`${r.method} ${r.prefix}${r.path}`, r] as const))(
    'answers %s through the mock with its documented status',
    async (_, r: any) => {
      // From the mock's start (its test API, on the same origin): another request's DELETE or
      // running long-running operation must not change what this one finds.
      expect((await send(server.url, '/__mock/reset', { method: 'POST' })).status).toBe(200);
      const headers: Record<string, string> = Object.fromEntries(r.headers.map((h: any) => [h.name, h.value]));
      if (r.secured) headers.authorization = 'Bearer docs-test';
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      const url = new URL(requestUrl(server.url.replace(/\/$/, ''), r));
      // A company of its own: another request's DELETE must not change what this one finds.
      url.pathname = url.pathname.replace(/\/companies\([^)]*\)/, `/companies(docs-${randomUUID()})`);
      const answer = await send(server.url, url.pathname + url.search, {
        method: r.method,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      expect(r.successes, answer.body).toContain(answer.status);
    },
  );

  it('stops cleanly on SIGTERM', async () => {
    const { code, output } = await server.stop();
    expect(code).toBe(0);
    expect(output).toMatch(/SIGTERM, stopping/);
  });
});

describe('docs server on a folder of its own', () => {
  let root: string;
  let base: string;
  let close: () => void;
  let socket: NetServer;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'docs-server-'));
    writeFileSync(join(root, 'index.html'), '<!DOCTYPE html><title>ok</title>');
    writeFileSync(join(root, 'outside.txt'), 'never');
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), 'inside');
    // A page that exists as a name but cannot be opened (a socket: open() fails, even for root).
    socket = createNetServer();
    await new Promise<void>((resolve) => socket.listen(join(root, 'site', 'broken.html'), resolve));
    // A dangling link: listed, gone when read.
    symlinkSync(join(root, 'site', 'deleted.html'), join(root, 'site', 'gone.html'));
    // A link out of the folder.
    symlinkSync(join(root, 'outside.txt'), join(root, 'site', 'escape.txt'));
    const served = await serveDocs(join(root, 'site'), 0, { allowHosts: ['docs.internal'] });
    base = served.url;
    close = () => served.server.close();
  });
  afterAll(() => {
    close?.();
    socket?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 500 to a file it cannot read, and keeps serving', async () => {
    const broken = await send(base, '/broken.html');
    expect(broken.status).toBe(500);
    expect(broken.body).toMatch(/^Cannot read this file \(\w+\)\n$/);
    expect((await send(base, '/')).body).toBe('inside');
  });

  it('answers 404 to a file gone when read, and keeps serving', async () => {
    expect((await send(base, '/gone.html')).status).toBe(404);
    expect((await send(base, '/index.html')).status).toBe(200);
  });

  it('does not follow a symlink out of its folder', async () => {
    expect((await send(base, '/escape.txt')).status).toBe(404);
  });

  it('answers a Host named by allowHosts, and only that one besides loopback', async () => {
    expect((await send(base, '/', { headers: { host: 'docs.internal:8080' } })).status).toBe(200);
    expect((await send(base, '/', { headers: { host: 'docs.internal.example' } })).status).toBe(421);
  });

  it('without a mock, an API path is not found', async () => {
    expect((await send(base, '/api/v2.0/companies(1)/vendors(2)', { method: 'PATCH', body: '{}' })).status).toBe(405);
    expect((await send(base, '/api/v2.0/companies(1)/vendors(2)')).status).toBe(404);
  });
});
