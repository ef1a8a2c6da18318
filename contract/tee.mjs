// A recording tee for the contract suite: a TCP relay on 127.0.0.1 that passes every byte
// between a client and a server unchanged (so the server sees exactly what the tests
// send, Host header included) and, on the side, reads copies of both streams as HTTP/1.1
// messages to record each exchange: method, URL, status, content type, body. A stream it
// cannot read is left alone (relayed, not recorded): recording never changes behaviour.
import { once } from 'node:events';
import net from 'node:net';

const MAX_RECORDED_BODY = 2 * 1024 * 1024;

/**
 * The head of one message: a request's method and URL or an answer's status, and its
 * headers (names lower-cased).
 * @typedef {{ method?: string, url?: string, status?: number, headers: Record<string, string> }} Head
 */
/** @typedef {Head & { body: string, truncated: boolean }} Message */
/** @typedef {{ method: string, url: string, status: number, contentType: string, body: string }} TeeExchange */

/**
 * An incremental HTTP/1.1 message reader over one direction of a connection.
 * @param {'request' | 'response'} kind
 * @param {(message: Message) => void} onMessage
 */
function messageReader(kind, onMessage) {
  /** @type {Buffer} */
  let buffer = Buffer.alloc(0);
  let state = 'head';
  /** @type {Head} */
  let current = { headers: {} };
  let remaining = 0;
  let broken = false;
  const bodyParts = [];
  let bodySize = 0;

  const finish = () => {
    onMessage({ ...current, body: Buffer.concat(bodyParts).toString('utf8'), truncated: bodySize > MAX_RECORDED_BODY });
    bodyParts.length = 0;
    bodySize = 0;
    state = 'head';
  };
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    bodySize += chunk.length;
    if (bodySize <= MAX_RECORDED_BODY) bodyParts.push(chunk);
  };

  /** @param {(head: Head) => number} bodyLengthOf */
  function step(bodyLengthOf) {
    for (;;) {
      if (state === 'head') {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        buffer = buffer.subarray(end + 4);
        /** @type {Record<string, string>} */
        const headers = {};
        for (const line of lines.slice(1)) {
          const at = line.indexOf(':');
          if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
        }
        const start = lines[0].split(' ');
        const status = Number(start[1]);
        current = kind === 'request' ? { method: start[0], url: start[1], headers } : { status, headers };
        if (kind === 'response' && status >= 100 && status < 200) continue; // interim answer
        if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) state = 'chunk-size';
        else {
          remaining = bodyLengthOf(current);
          if (remaining === Infinity) state = 'until-close';
          else if (remaining > 0) state = 'body';
          else finish();
        }
      } else if (state === 'body') {
        if (!buffer.length) return;
        const take = buffer.subarray(0, remaining);
        keep(take);
        remaining -= take.length;
        buffer = buffer.subarray(take.length);
        if (remaining === 0) finish();
      } else if (state === 'chunk-size') {
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const size = parseInt(buffer.subarray(0, end).toString('latin1'), 16);
        if (Number.isNaN(size)) throw new Error('bad chunk size');
        buffer = buffer.subarray(end + 2);
        remaining = size;
        state = size === 0 ? 'trailer' : 'chunk';
      } else if (state === 'chunk') {
        if (buffer.length < remaining + 2) return;
        keep(buffer.subarray(0, remaining));
        buffer = buffer.subarray(remaining + 2);
        state = 'chunk-size';
      } else if (state === 'trailer') {
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = buffer.subarray(0, end);
        buffer = buffer.subarray(end + 2);
        if (line.length === 0) finish();
      } else if (state === 'until-close') {
        keep(buffer);
        buffer = Buffer.alloc(0);
        return;
      }
    }
  }

  return {
    /** @param {Buffer} chunk @param {(head: Head) => number} bodyLengthOf */
    push(chunk, bodyLengthOf) {
      if (broken) return;
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      try {
        step(bodyLengthOf);
      } catch {
        broken = true;
      }
    },
    end() {
      if (!broken && state === 'until-close') finish();
    },
  };
}

/**
 * Starts the tee in front of `target` (http://host:port). Resolves once listening:
 * `{ url, exchanges, close() }`; each exchange `{ method, url, status, contentType, body }`.
 * @param {{ target: string, port?: number, host?: string }} options
 */
export async function startTee({ target, port = 0, host = '127.0.0.1' }) {
  const upstream = new URL(target);
  /** @type {TeeExchange[]} */
  const exchanges = [];
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  // allowHalfOpen: a client that ends its side after the request still gets the answer.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const server = net.connect({ host: upstream.hostname, port: Number(upstream.port), allowHalfOpen: true });
    sockets.add(client).add(server);
    /** @type {Message[]} */
    const pending = [];
    const requests = messageReader('request', (message) => pending.push(message));
    const responses = messageReader('response', (message) => {
      const request = pending.shift();
      if (request)
        exchanges.push({
          method: String(request.method),
          url: String(request.url),
          status: Number(message.status),
          contentType: message.headers['content-type'] ?? '',
          body: message.truncated ? '' : message.body,
        });
    });
    const requestBody = (m) => Number(m.headers['content-length'] ?? 0) || 0;
    const responseBody = (m) => {
      const method = pending[0]?.method;
      if (method === 'HEAD' || m.status === 204 || m.status === 304) return 0;
      return m.headers['content-length'] !== undefined ? Number(m.headers['content-length']) || 0 : Infinity;
    };
    client.on('data', (chunk) => {
      requests.push(chunk, requestBody);
      server.write(chunk);
    });
    server.on('data', (chunk) => {
      responses.push(chunk, responseBody);
      client.write(chunk);
    });
    client.on('end', () => server.end());
    server.on('end', responses.end).on('end', () => client.end());
    const drop = () => {
      for (const socket of [client, server]) sockets.delete(socket.destroy());
    };
    client.on('error', drop).on('close', drop);
    server.on('error', drop).on('close', drop);
  });
  await once(server.listen(port, host), 'listening');
  const address = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://${address.address}:${address.port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        for (const socket of sockets) socket.destroy();
      }),
  };
}
