// A local server on 127.0.0.1 whose routes a test sets, for cases an injected fetch
// cannot play (a real gzip stream, a real redirect, a real socket pool).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Hostile {
  base: string;
  /** Requests seen, as "METHOD /path?query". */
  seen: string[];
  route(prefix: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function hostileServer(): Promise<Hostile> {
  const routes = new Map<string, Handler>();
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const route = [...routes.entries()].find(([prefix]) => req.url!.startsWith(prefix));
    if (route) return route[1](req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    route: (prefix, handler) => routes.set(prefix, handler),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A gzip stream of `bytes` zeros, built chunk by chunk so the test never holds the
 * inflated size in memory (256 MiB of zeros compress to about 250 KiB).
 */
export async function gzipBomb(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let sent = 0; sent < bytes; sent += zeros.length) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** Writes `total` bytes of `x` in 64 KiB chunks, honouring backpressure; stops when the client goes. */
export function streamBytes(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on('close', () => (sent = total));
  pump();
}
