/**
 * An optional fetch for Node built on node:http/node:https with keep-alive agents.
 *
 * Why: on loopback, Node 20's global fetch (undici) costs about 0.5-0.75 ms per call,
 * node:http with keep-alive about 0.1-0.2 ms (see bench/README.md). Pass the result as
 * the clients' `fetch` option in Node; browsers and other runtimes keep the default.
 * It is exported from its own module (not the package root) so that a browser bundle
 * of the clients never pulls in node:http.
 *
 * Scope, on purpose: one request and one buffered answer. Redirects are not followed
 * (a 3xx comes back as is; no Authorization header is carried to another host),
 * gzip/deflate/br answers are decompressed as a stream, the body is read up to a byte
 * limit (counted after decompression; past it the socket is destroyed and the call
 * rejects with ClientError `body-too-large`), and the request's AbortSignal destroys the
 * socket, so the clients' per-request timeout covers the body as well.
 *
 * Sockets: no cap per origin by default (as Node's own global agent and undici), so a
 * slow request never queues the others behind it, and no time spent waiting for a free
 * socket counts against a call's timeout. `maxSockets` sets a cap; calls beyond it wait
 * for a socket, and that wait counts against their timeout.
 */
import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import { BODY_LIMIT, DEFAULT_MAX_BODY_BYTES, tooLarge } from './body.js';

/**
 * A lightweight stand-in for `Request`, which the clients (through openapi-fetch's
 * `Request` option) build instead of undici's when `fetch` is createNodeHttpFetch().
 * undici's Request costs ~25 µs to build and ~25 µs more to read its body back from a
 * stream; this one keeps the URL, method, Headers, string body and signal as given.
 * A body it cannot keep as is (FormData, a stream, ...) gets a real Request instead.
 * Middleware that replaces the request must build it with `fetch.Request`.
 */
export class NodeHttpRequest {
  // `!`: the constructor either sets them or returns a real Request instead.
  readonly url!: string;
  readonly method!: string;
  readonly headers!: Headers;
  readonly body!: string | Uint8Array | null;
  readonly signal!: AbortSignal | null;
  /** Never followed by this transport; declared so every instance has one shape. (Spelled out, not the DOM's `RequestRedirect`: a Node consumer may not load the DOM library.) */
  readonly redirect!: 'error' | 'follow' | 'manual';
  /** The clients' `maxBodyBytes` for this request (see createNodeHttpFetch). */
  readonly maxBodyBytes!: number | undefined;

  constructor(input: string | URL, init: RequestInit = {}) {
    const body = init.body ?? null;
    if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      // A constructor may return another object: openapi-fetch then holds a real Request.
      // biome-ignore lint/correctness/noConstructorReturn: openapi-fetch constructs the class it is given; a body this transport cannot send must become a real Request
      return new Request(input, init) as unknown as NodeHttpRequest;
    }
    this.url = new URL(input).href;
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = body;
    this.signal = init.signal ?? null;
    this.redirect = 'manual';
    this.maxBodyBytes = (init as { maxBodyBytes?: number }).maxBodyBytes;
  }

  #aborted = false;
  #reason: unknown;
  #hook: ((reason: unknown) => void) | undefined;

  /**
   * Aborts this request without an AbortSignal. The clients' per-request timeout uses
   * it when the fetch is createNodeHttpFetch(): an AbortController per call costs about
   * as much as the rest of the client layer. (The caller's own `signal` still works.)
   */
  abort(reason: unknown = new DOMException('This request was aborted.', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#hook?.(reason);
  }

  /** For the transport: run `hook` on abort (at once if already aborted). */
  onAbort(hook: ((reason: unknown) => void) | undefined): void {
    this.#hook = hook;
    if (hook && this.#aborted) hook(this.#reason);
  }
}

const utf8 = new TextDecoder();

/**
 * The answer of createNodeHttpFetch: a real `Response` (instanceof, headers, status),
 * whose body is the buffer already read. Why not `new Response(buffer)`: undici wraps
 * every body in a web ReadableStream (made transferable, ~10 µs) and reads it back
 * through it; here `text()`, `json()`, `arrayBuffer()` and `blob()` take the buffer as
 * is, and a stream is built only if someone asks for `body` (or `clone()`).
 */
class NodeHttpResponse extends Response {
  #bytes: Uint8Array | null;
  #used = false;
  #shadow: Response | undefined;
  readonly #url: string;

  /** `url`: the URL the request went to (a fetch's `response.url`; no redirect is followed). */
  constructor(bytes: Uint8Array | null, init: ResponseInit, url = '') {
    super(null, init);
    this.#bytes = bytes;
    this.#url = url;
    // An own property, not an accessor override: Response's `url` is a property in
    // @types/node's declarations and an accessor in the DOM's, and a declaration file
    // that overrides it either way fails to type-check under the other.
    Object.defineProperty(this, 'url', { value: url, enumerable: false, configurable: true });
  }

  /** A Response over the same bytes, for the stream API; every read goes through it from then on. */
  #stream(): Response {
    this.#shadow ??= new Response(this.#bytes as Uint8Array<ArrayBuffer> | null, this);
    return this.#shadow;
  }

  #take(): Uint8Array {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    const bytes = this.#bytes ?? new Uint8Array(0);
    this.#bytes = null;
    return bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#shadow) return this.#shadow.body;
    return this.#used || this.#bytes === null ? null : this.#stream().body;
  }
  override get bodyUsed(): boolean {
    return this.#shadow ? this.#shadow.bodyUsed : this.#used;
  }
  override async text(): Promise<string> {
    return this.#shadow ? this.#shadow.text() : utf8.decode(this.#take());
  }
  override async json(): Promise<any> {
    return JSON.parse(await this.text());
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#shadow) return this.#shadow.arrayBuffer();
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  override async blob(): Promise<Blob> {
    return this.#shadow ? this.#shadow.blob() : new Blob([await this.arrayBuffer()], { type: this.headers.get('Content-Type') ?? '' });
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (this.#shadow) return this.#shadow.clone();
    const copy = new NodeHttpResponse(this.#bytes, this, this.#url);
    (copy as Response & { [BODY_LIMIT]?: number })[BODY_LIMIT] = (this as Response & { [BODY_LIMIT]?: number })[BODY_LIMIT];
    return copy;
  }
}

export interface NodeHttpFetchOptions {
  /** Sockets per origin (default: no cap, so a slow request never queues the others). */
  maxSockets?: number;
  /**
   * Largest body read, in bytes after decompression (default 32 MiB). The clients pass
   * their own `maxBodyBytes` per request, which wins.
   */
  maxBodyBytes?: number;
  /** Use these agents instead of the module's own keep-alive agents. */
  httpAgent?: http.Agent;
  httpsAgent?: https.Agent;
}

export type NodeHttpFetch = ((input: Request | NodeHttpRequest | string | URL, init?: RequestInit) => Promise<Response>) & {
  /** The Request class the clients build requests with when given this fetch. */
  Request: typeof NodeHttpRequest;
  /** Closes the kept-alive sockets (e.g. before a process or a test ends). */
  destroy(): void;
};

// Statuses whose Response must have a null body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function decoder(encoding: string | undefined): Gunzip | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      // Lenient like browsers and undici: a truncated tail still gives what was inflated.
      return createGunzip({ finishFlush: 2 /* Z_SYNC_FLUSH */ });
    case 'deflate':
      return createInflate({ finishFlush: 2 }) as unknown as Gunzip;
    case 'br':
      return createBrotliDecompress() as unknown as Gunzip;
    default:
      return undefined;
  }
}

export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): NodeHttpFetch {
  const maxSockets = options.maxSockets ?? Infinity;
  const defaultLimit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const httpAgent = options.httpAgent ?? new http.Agent({ keepAlive: true, maxSockets });
  const httpsAgent = options.httpsAgent ?? new https.Agent({ keepAlive: true, maxSockets });

  async function nodeHttpFetch(input: Request | NodeHttpRequest | string | URL, init?: RequestInit): Promise<Response> {
    const request =
      (input instanceof Request || input instanceof NodeHttpRequest) && init === undefined
        ? input
        : new Request(input instanceof NodeHttpRequest ? input.url : input, init);
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new TypeError(`createNodeHttpFetch: unsupported protocol ${url.protocol}`);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    let body: string | Uint8Array | undefined;
    if (request instanceof NodeHttpRequest) body = request.body ?? undefined;
    else if (request.body !== null) body = Buffer.from(await request.arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    const signal = request.signal ?? undefined;
    signal?.throwIfAborted();

    return new Promise<Response>((resolve, reject) => {
      let abortReason: unknown;
      const abortWith = (reason: unknown) => {
        abortReason = reason;
        req.destroy(reason instanceof Error ? reason : new Error('aborted'));
      };
      const onAbort = () => abortWith(signal!.reason);
      const settle = () => {
        signal?.removeEventListener('abort', onAbort);
        if (request instanceof NodeHttpRequest) request.onAbort(undefined);
      };
      const fail = (error: Error) => {
        settle();
        reject(abortReason ?? error);
      };
      const req = (secure ? https : http).request(url, { method: request.method, headers, agent: secure ? httpsAgent : httpAgent }, (res) => {
        const status = res.statusCode ?? 0;
        const limit = (request as { maxBodyBytes?: number }).maxBodyBytes ?? defaultLimit;
        const encoding = res.headers['content-encoding'];
        const inflate = NULL_BODY.has(status) ? undefined : decoder(typeof encoding === 'string' ? encoding : undefined);
        const chunks: Buffer[] = [];
        let total = 0;
        // The raw bytes count as well (they bound the work of inflating), then the
        // inflated ones: both against the same limit.
        let raw = 0;
        const overLimit = () => {
          const error = tooLarge(limit, status);
          abortReason = error;
          inflate?.destroy();
          req.destroy(error);
          fail(error);
        };
        if (Number(res.headers['content-length']) > limit) return overLimit();
        const collect = (chunk: Buffer) => {
          if (abortReason !== undefined) return;
          total += chunk.length;
          if (total > limit) return overLimit();
          chunks.push(chunk);
        };
        res.on('error', fail);
        if (inflate) {
          res.on('data', (chunk: Buffer) => {
            raw += chunk.length;
            if (raw > limit) return overLimit();
            inflate.write(chunk);
          });
          res.on('end', () => inflate.end());
          inflate.on('data', collect);
          inflate.on('error', fail);
          inflate.on('end', finish);
        } else {
          res.on('data', collect);
          res.on('end', finish);
        }
        function finish() {
          if (abortReason !== undefined) return;
          settle();
          try {
            const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            const responseHeaders = new Headers();
            const pairs = res.rawHeaders;
            for (let i = 0; i < pairs.length; i += 2) {
              const name = pairs[i]!.toLowerCase();
              // The body handed on is decoded, so its original encoding and length no longer apply.
              if (inflate && (name === 'content-encoding' || name === 'content-length')) continue;
              responseHeaders.append(name, pairs[i + 1]!);
            }
            const response = new NodeHttpResponse(
              NULL_BODY.has(status) ? null : body,
              { status, statusText: res.statusMessage ?? '', headers: responseHeaders },
              url.href,
            );
            // Read under `limit` already: the clients need not wrap it again.
            (response as Response & { [BODY_LIMIT]?: number })[BODY_LIMIT] = limit;
            resolve(response);
          } catch (error) {
            reject(error);
          }
        }
      });
      req.on('error', fail);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (request instanceof NodeHttpRequest) request.onAbort(abortWith);
      req.end(body);
    });
  }

  return Object.assign(nodeHttpFetch, {
    Request: NodeHttpRequest,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}
