/**
 * Reading an answer's body with a byte limit.
 *
 * Why: `Response.text()/json()/arrayBuffer()` buffer a body whole, whatever its size,
 * and the runtime inflates gzip/deflate/br without a cap. A hostile or broken server can
 * then exhaust memory (past ~2 GiB V8 aborts the process: no `try` catches that). The
 * clients read every body here instead, as a stream, counting the bytes as the runtime
 * hands them over (after decompression), and stop at the limit with a ClientError
 * `body-too-large`, cancelling the rest of the download.
 */
import { ClientError } from './errors.js';

/** Far above any answer of these APIs (a page of cached images is a few KiB). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Set by a transport on a Response whose body it has already read under a limit (the
 * value is that limit), so the clients need not wrap it again.
 */
export const BODY_LIMIT = Symbol.for('provider-api-clients.bodyLimit');

export const tooLarge = (limit: number, status?: number) =>
  new ClientError(
    'body-too-large',
    `the answer's body is over the ${limit}-byte limit (maxBodyBytes); not read further.`,
    status === undefined ? {} : { status },
  );

const decoder = new TextDecoder();

async function readBytes(response: Response, limit: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const length = Number(response.headers.get('Content-Length'));
  if (length > limit) {
    void body.cancel().catch(() => {});
    throw tooLarge(limit, response.status);
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // Stops the download (and, for a compressed answer, the inflating) at once.
      void reader.cancel().catch(() => {});
      throw tooLarge(limit, response.status);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

interface Limited extends Response {
  [BODY_LIMIT]?: number;
}

// Shared functions with `this`, so limiting a Response costs two property writes per
// call, not four closures.
async function text(this: Limited): Promise<string> {
  return decoder.decode(await readBytes(this, this[BODY_LIMIT]!));
}
async function json(this: Limited): Promise<unknown> {
  return JSON.parse(await text.call(this));
}
async function arrayBuffer(this: Limited): Promise<ArrayBuffer> {
  const bytes = await readBytes(this, this[BODY_LIMIT]!);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
async function blob(this: Limited): Promise<Blob> {
  return new Blob([await arrayBuffer.call(this)], { type: this.headers.get('Content-Type') ?? '' });
}

/**
 * Makes `text()`, `json()`, `arrayBuffer()` and `blob()` of this Response read at most
 * `limit` bytes (openapi-fetch reads bodies through these). `response.body` itself, as
 * handed out with `parseAs: 'stream'`, is the caller's to read.
 */
export function limitBody(response: Response, limit: number): Response {
  const r = response as Limited;
  if (r[BODY_LIMIT] !== undefined && r[BODY_LIMIT] <= limit) return response;
  r[BODY_LIMIT] = limit;
  Object.assign(r, { text, json, arrayBuffer, blob });
  return response;
}
