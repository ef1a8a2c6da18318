// A tiny server for generated/docs/ on 127.0.0.1 (used by `npm run docs:serve` and the
// browser tests), and, on the same origin, the mock, so the pages' "Try it" reaches it
// with no CORS.
//   - Requests are answered only when their Host is a loopback name or address, or one
//     named in `allowHosts`: a page elsewhere cannot read the docs or the mock through a
//     DNS name that points here (DNS rebinding).
//   - The docs folder is flat: `/` and `/<file>` are its files (GET and HEAD only; nothing
//     outside the folder, no symlink out of it). Any deeper path is an API path, passed
//     to the mock when one is attached; a `.` or `..` segment, however encoded, is never.
//   - A file that cannot be read is answered 404 (gone) or 500 (unreadable), and the
//     server keeps serving.
import { open, realpath } from 'node:fs/promises';
import { createServer, request as forward } from 'node:http';
import { extname, join, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Longest request target served; a longer one is answered 414. */
export const MAX_URL = 4096;

/** The file a URL path names inside `root`, or null when it is outside or not a file. */
export async function resolveInside(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split(/[?#]/)[0]);
  } catch {
    return null; // malformed %-encoding
  }
  if (path.includes('\0')) return null;
  if (path.endsWith('/')) path += 'index.html';
  // join() normalises ".." away; realpath() then also follows symlinks, so the final
  // check holds for whatever the path really points at.
  try {
    const base = await realpath(root);
    const file = await realpath(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return null;
    return file;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(?:localhost|localhost\.|127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:127(?:\.\d{1,3}){3}\])$/i;

/** The host name of a Host header (`127.0.0.1:8080` -> `127.0.0.1`, `[::1]:80` -> `[::1]`). */
const hostNameOf = (host) => /^(\[[^\]]*\]|[^:]*)(?::\d{1,5})?$/.exec(String(host ?? ''))?.[1]?.toLowerCase() ?? '';

/** True when the Host header names this machine by a loopback name or address, or a name in `allowHosts`. */
export function hostAllowed(host, allowHosts = []) {
  const name = hostNameOf(host);
  return name !== '' && (LOOPBACK.test(name) || allowHosts.some((allowed) => allowed.toLowerCase() === name));
}

/** `.` or `..` as a segment, raw, %-encoded or with backslashes. */
function hasDotSegment(rawPath) {
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // malformed: checked on the raw text only
  }
  return [rawPath, decoded].some((text) => text.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'));
}

function plain(response, status, text, headers = {}) {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...headers }).end(text);
}

/** Drains a request body that will not be read, then answers: a reply sent mid-body resets the client's connection. */
function answerAfterBody(request, answer) {
  if (request.complete) return answer();
  request.once('end', answer);
  request.resume();
}

/**
 * `root`: the docs folder. `mock`: `{ url }` of a running mock to pass API paths to, or a
 * promise of one (API requests wait for it; the pages are served at once), optional.
 * `allowHosts`: host names besides loopback ones to answer.
 * @param {string} root
 * @param {{ mock?: { url: string } | Promise<{ url: string }>, allowHosts?: string[] }} [options]
 */
export function createDocsServer(root, { mock, allowHosts = [] } = {}) {
  const server = createServer(async (request, response) => {
    const target = request.url ?? '/';
    if (!hostAllowed(request.headers.host, allowHosts)) {
      return answerAfterBody(request, () =>
        plain(
          response,
          421,
          `Host ${JSON.stringify(String(request.headers.host ?? '').slice(0, 100))} is not served here; use 127.0.0.1 or localhost (or start docs:serve with --allow-host)\n`,
        ),
      );
    }
    if (target.length > MAX_URL) return answerAfterBody(request, () => plain(response, 414, 'Request target too long\n'));
    const rawPath = target.split(/[?#]/)[0];
    if (!rawPath.startsWith('/') || hasDotSegment(rawPath)) return answerAfterBody(request, () => plain(response, 404, 'Not found\n'));
    const apiPath = /^\/[^/]*\/./.test(rawPath);
    if (apiPath && mock) {
      const ready = await Promise.resolve(mock).catch(() => undefined);
      if (ready) return proxy(request, response, ready);
      return answerAfterBody(request, () => plain(response, 503, 'The mock did not start (see the docs:serve output)\n'));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return answerAfterBody(request, () => plain(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' }));
    // A static file takes no body.
    if (Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding']) {
      return answerAfterBody(request, () => plain(response, 413, 'A request for a docs page has no body\n', { connection: 'close' }));
    }
    await serveFile(root, rawPath, request, response);
  });
  // Bounds a slow or oversized request (headers over Node's 16 KiB limit get 431).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

async function serveFile(root, rawPath, request, response) {
  const file = apiPathFree(rawPath) ? await resolveInside(root, rawPath) : null;
  if (!file) return plain(response, 404, 'Not found\n');
  let handle;
  try {
    handle = await open(file, 'r');
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return plain(response, 404, 'Not found\n');
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') {
      await handle.close();
      return response.end();
    }
    const stream = handle.createReadStream();
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (response.headersSent) return response.destroy();
    // Gone between listing and reading: 404; there but unreadable (permissions, a
    // directory race, I/O): 500. Either way the server goes on serving.
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') plain(response, 404, 'Not found\n');
    else plain(response, 500, `Cannot read this file (${error.code ?? 'error'})\n`);
  }
}

/** Static files live at the top of the folder: `/` or `/<name>`. */
const apiPathFree = (rawPath) => /^\/[^/]*$/.test(rawPath);

/** Passes a request to the mock as is (method, path, headers, body) and its answer back. */
function proxy(request, response, mock) {
  const { hostname, port } = new URL(mock.url);
  const outgoing = forward({ hostname, port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  outgoing.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
    if (response.headersSent) response.destroy();
    else plain(response, 502, `The mock did not answer (${error.code ?? error.message})\n`);
  });
  request.pipe(outgoing);
}

/**
 * Starts serving `root` on 127.0.0.1:`port` (0 = a free port), with `options` as for
 * createDocsServer; resolves to { server, url }.
 */
export function serveDocs(root, port = 0, options = {}) {
  const server = createDocsServer(root, options);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise({ server, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/` });
    });
  });
}
