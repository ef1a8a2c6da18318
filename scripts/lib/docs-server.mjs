// A tiny static file server for generated/docs/ on 127.0.0.1 (used by `npm run docs:serve`
// and by the browser test). GET and HEAD only; nothing outside the folder is served.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

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
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

export function createDocsServer(root) {
  return createServer(async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await resolveInside(root, request.url ?? '/');
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
}

/** Starts serving `root` on 127.0.0.1:`port` (0 = a free port); resolves to { server, url }. */
export function serveDocs(root, port = 0) {
  const server = createDocsServer(root);
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}
