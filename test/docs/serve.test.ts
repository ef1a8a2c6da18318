// `npm run docs:serve`: serves generated/docs/ on 127.0.0.1, nothing outside it, and
// stops cleanly on SIGTERM. Needs no browser.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apis } from '../helpers/bundles.js';
import { ensureDocs, pageOf, startDocsServer, type DocsServer } from './support.js';

/** A GET with the path sent exactly as given (no URL normalisation of `..`). */
function get(base: string, rawPath: string, method = 'GET') {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path: rawPath, method }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject).end();
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

  it('prints a 127.0.0.1 URL and serves the landing page there', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(server.url, '/');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>API reference');
  });

  it.each(apis().map((api) => api.slug))('serves %s and the Redoc runtime it loads', async (slug) => {
    const page = await get(server.url, `/${pageOf(slug)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('init(__redoc_definition');
    // One shared runtime, loaded as a classic script (it must also work from file://).
    const src = /<script src="(redoc-[\w.-]+\.js)"><\/script>/.exec(page.body)?.[1];
    expect(src).toBeDefined();
    const runtime = await get(server.url, `/${src}`);
    expect(runtime.status).toBe(200);
    expect(runtime.type).toBe('text/javascript; charset=utf-8');
    expect(runtime.body).toContain('function init(');
  });

  // Each names a file that exists outside generated/docs/ (generated/operations.ts,
  // package.json, /etc/passwd) by a different trick.
  it.each([
    '/../operations.ts',
    '/..%2foperations.ts',
    '/../../package.json',
    '/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/..\\..\\package.json',
    '/%00index.html',
    '/%E0%A4%A',
    '/missing.html',
  ])('answers 404 to %s', async (path) => {
    const answer = await get(server.url, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toBe('Not found\n');
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await get(server.url, '/', 'POST')).status).toBe(405);
    expect((await get(server.url, '/', 'HEAD')).status).toBe(200);
  });

  it('stops cleanly on SIGTERM', async () => {
    const { code, output } = await server.stop();
    expect(code).toBe(0);
    expect(output).toMatch(/SIGTERM, stopping/);
  });
});
