// The validating proxy: forwards every request to an upstream exactly as sent (method,
// path and query bytes, so a multi-segment scope and OData keys reach it unchanged;
// headers, the token among them, to the upstream only), checks the request and the
// upstream's answer against the documents (contract.mjs), and reports one line per
// exchange. It never logs a header value, nor the value of a query parameter named like a
// credential. Its own server binds 127.0.0.1 and answers only a loopback Host (or one
// allowed with --allow-host: lib/local-host.mjs). The path is forwarded under the
// upstream's base path, dot-segments resolved; one that would climb out of it is refused.
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { localGuard } from '../lib/local-host.mjs';
import { loadContract } from './contract.mjs';

/**
 * One exchange as the proxy saw it: the request (path with credential-like query values
 * redacted), the operation it matched, the status the client got and what broke.
 * @typedef {{ method?: string, path: string, operation?: string, operationId?: string, status: number, requestProblems: string[], responseProblems: string[],
 *   ms?: number, error?: string, value?: unknown, declaredStatus?: string }} Exchange
 */

const MAX_BODY = 10 * 1024 * 1024;
// Hop-by-hop headers (RFC 9110 7.6.1) stay on their hop; accept-encoding is dropped so the
// upstream answers uncompressed and the proxy validates what it forwards (Prism's proxy
// trips on gzip: stoplightio/prism#1064).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'accept-encoding',
  'content-length',
]);

/**
 * `headers` without the hop-by-hop ones, nor those the `Connection` header names (RFC 9110 7.6.1).
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {import('node:http').OutgoingHttpHeaders}
 */
export function endToEnd(headers) {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

/** A failure on the client's side of the exchange (its request), not the upstream's. */
class ClientFailure extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** An upstream that answered something the proxy does not relay (a protocol switch). */
class UpstreamRefused extends Error {}

/**
 * The request path with its dot-segments resolved (RFC 3986 5.2.4; `%2e` is a dot), the
 * query kept as sent; undefined when `..` would climb above the root, and so out of the
 * upstream's base path.
 */
/** @param {string} rawUrl */
export function normalisePath(rawUrl) {
  const at = rawUrl.indexOf('?');
  const path = at < 0 ? rawUrl : rawUrl.slice(0, at);
  const query = at < 0 ? '' : rawUrl.slice(at);
  const segments = path.split('/').slice(1);
  const out = [];
  for (const [i, segment] of segments.entries()) {
    const dots = segment.replace(/%2e/gi, '.');
    const last = i === segments.length - 1;
    if (dots === '.') {
      if (last) out.push('');
    } else if (dots === '..') {
      if (!out.length) return undefined;
      out.pop();
      if (last) out.push('');
    } else out.push(segment);
  }
  return `/${out.join('/')}${query}`;
}

/** Query parameter names that carry credentials, word by word (`access_token`, `apiKey`, `X-Amz-Signature`, `sig`). */
const SECRET_WORDS = new Set([
  'token',
  'key',
  'sig',
  'signature',
  'code',
  'secret',
  'password',
  'passwd',
  'pwd',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'apikey',
  'jwt',
  'assertion',
  'otp',
  'nonce',
  'sas',
]);
/** @param {string} name */
const secretName = (name) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => SECRET_WORDS.has(word));

/** `url` as logged: values of credential-like query parameters replaced by `***`. */
/** @param {string} url */
export function redactUrl(url) {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a malformed name is judged as written
      }
      return secretName(name) ? `${pair.slice(0, eq)}=***` : pair;
    });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

/**
 * @param {import('node:stream').Readable} stream
 * @returns {Promise<Buffer>}
 */
function readBody(stream, limit = MAX_BODY) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    stream.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        reject(Object.assign(new Error(`body larger than ${limit} bytes`), { tooLarge: true }));
      } else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(new Error('the connection closed before the body ended')));
  });
}

/** The request path as received, with any path of the upstream URL in front of it. */
/** @type {(upstream: URL, rawUrl: string) => string} */
const targetPath = (upstream, rawUrl) => `${upstream.pathname.replace(/\/+$/, '')}${rawUrl.startsWith('/') ? rawUrl : `/${rawUrl}`}`;

/**
 * Starts the proxy. Resolves once listening: `{ url, port, exchanges, summary(), close() }`.
 * The upstream gets its own Host unless `preserveHost` (then the client's; the TLS server
 * name is always the upstream's own). `allowHosts`: Host names answered besides loopback
 * ones. `report(exchange)` is called once per exchange (the CLI prints it with formatExchange).
 * `contract`: what answers are checked against (by default the documents of the workspace at `root`).
 * @param {{ root?: string, upstream: string, port?: number, host?: string, failOnViolation?: boolean, preserveHost?: boolean, allowHosts?: string[],
 *   report?: (exchange: Exchange) => void, contract?: ReturnType<typeof loadContract>, timeoutMs?: number }} options
 */
export async function startProxy({
  upstream,
  port = 0,
  host = '127.0.0.1',
  failOnViolation = false,
  preserveHost = false,
  allowHosts = [],
  report = () => {},
  root,
  contract = loadContract(root),
  timeoutMs = 30_000,
}) {
  const target = new URL(upstream);
  if (!/^https?:$/.test(target.protocol)) throw new Error(`--upstream must be an http(s) URL (got ${upstream})`);
  const transport = target.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 16 });
  const local = localGuard({ allowHosts, bound: host });
  // SNI and the certificate check name the upstream, never a Host the client chose.
  const servername = target.protocol === 'https:' && !isIP(target.hostname.replace(/^\[|\]$/g, '')) ? target.hostname : undefined;
  /** @type {Exchange[]} */
  const exchanges = [];

  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    /** @type {Exchange} */
    const exchange = { method: req.method, path: redactUrl(String(req.url)), operation: undefined, status: 0, requestProblems: [], responseProblems: [] };
    const finish = () => {
      exchange.ms = performance.now() - started;
      exchanges.push(exchange);
      report(exchange);
    };
    const refused = local.refuseHost(req);
    if (refused) {
      exchange.status = refused.status;
      exchange.error = `refused: ${refused.message}`;
      req.resume();
      sendJson(res, refused.status, { error: { code: refused.code, message: refused.message } });
      return finish();
    }
    try {
      const url = normalisePath(String(req.url));
      if (url === undefined)
        throw new ClientFailure(
          400,
          `the path ${JSON.stringify(redactUrl(String(req.url)).slice(0, 200))} climbs above the root with "..", out of the upstream's base path`,
        );
      const body = await readBody(req).catch((error) => {
        throw new ClientFailure(error.tooLarge ? 413 : 400, `the client's request failed: ${error.code ?? error.message}`);
      });
      const matched = contract.match(String(req.method), url);
      if (matched.operation) {
        exchange.operation = matched.operation.label;
        exchange.operationId = matched.operation.operationId;
        exchange.requestProblems = contract.checkRequest(matched, req.headers, body.toString('utf8'));
      } else exchange.requestProblems = [matched.problem];

      const headers = endToEnd(req.headers);
      // preserveHost: the upstream sees the Host the client used, so links it builds from
      // it (the mock's nextLink) lead back through the proxy.
      headers.host = preserveHost && req.headers.host ? req.headers.host : target.host;
      if (body.length) headers['content-length'] = String(body.length);
      /** @type {NodeJS.Timeout | undefined} */
      let deadline;
      /** @type {{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }} */
      const answer = await new Promise((resolve, reject) => {
        const forward = transport.request(
          {
            protocol: target.protocol,
            hostname: target.hostname,
            port: target.port,
            method: req.method,
            path: targetPath(target, url),
            headers,
            agent,
            timeout: timeoutMs,
            servername,
          },
          (upstreamRes) =>
            readBody(upstreamRes).then((data) => resolve({ status: Number(upstreamRes.statusCode), headers: upstreamRes.headers, body: data }), reject),
        );
        // The socket's idle timeout, and a deadline for the whole answer: a slow drip or a
        // switched protocol never keeps the client waiting past timeoutMs.
        deadline = setTimeout(() => forward.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
        forward.on('timeout', () => forward.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        forward.on('upgrade', (upstreamRes, socket) => {
          socket.destroy();
          reject(new UpstreamRefused(`the upstream answered ${upstreamRes.statusCode} (a protocol upgrade), which the proxy does not relay`));
        });
        forward.on('error', reject);
        forward.end(body);
      }).finally(() => clearTimeout(deadline));
      exchange.status = answer.status;
      if (matched.operation) {
        const checked = contract.checkResponse(matched.operation, answer.status, answer.headers, answer.body.toString('utf8'));
        exchange.responseProblems = checked.problems;
        exchange.value = checked.value;
        exchange.declaredStatus = checked.response ? String(answer.status) : undefined;
      }
      if (failOnViolation && exchange.responseProblems.length) {
        sendJson(res, 502, {
          error: {
            code: 'ContractViolation',
            message: `The upstream's ${answer.status} answer to ${exchange.operation} breaks the contract.`,
            details: exchange.responseProblems.map((message) => ({ code: 'Violation', message })),
          },
        });
      } else {
        const out = endToEnd(answer.headers);
        out['content-length'] = String(answer.body.length);
        res.writeHead(answer.status, out);
        res.end(answer.body);
      }
    } catch (error) {
      if (error instanceof ClientFailure) {
        exchange.status = error.status;
        exchange.error = error.message;
        if (!res.headersSent && !res.destroyed) sendJson(res, error.status, { error: { code: 'BadRequest', message: error.message } });
      } else {
        exchange.status = 502;
        exchange.error =
          error instanceof UpstreamRefused ? error.message : `upstream unreachable or unreadable: ${error.cause?.code ?? error.code ?? error.message}`;
        if (!res.headersSent) sendJson(res, 502, { error: { code: 'UpstreamError', message: exchange.error } });
        else res.destroy();
      }
    }
    finish();
  });
  // A client that asks to switch protocols (WebSocket) is answered, not left hanging.
  server.on('upgrade', (_req, socket) => {
    socket.end('HTTP/1.1 501 Not Implemented\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  server.keepAliveTimeout = 5_000;
  try {
    await once(server.listen(port, host), 'listening');
  } catch (error) {
    throw new Error(`proxy: cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  }
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    exchanges,
    summary: () => summarize(exchanges),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 500).unref();
        agent.destroy();
      }),
  };
}

function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export const violationsOf = (exchange) => [...exchange.requestProblems, ...exchange.responseProblems, ...(exchange.error ? [exchange.error] : [])];

/** One line: verdict, operation, method and path, status, and what broke. */
export function formatExchange(exchange) {
  const problems = violationsOf(exchange);
  const verdict = problems.length ? 'VIOLATION' : 'ok';
  return `${verdict.padEnd(9)}  ${exchange.operation ?? '(no operation)'}  ${exchange.method} ${exchange.path} -> ${exchange.status}${problems.length ? `  ${problems.join('; ')}` : ''}`;
}

/** Per operation: exchanges, violations, statuses seen. */
export function summarize(exchanges) {
  const rows = new Map();
  for (const e of exchanges) {
    const key = e.operation ?? '(no operation)';
    const row = rows.get(key) ?? { operation: key, exchanges: 0, violations: 0, statuses: {} };
    row.exchanges++;
    if (violationsOf(e).length) row.violations++;
    row.statuses[e.status] = (row.statuses[e.status] ?? 0) + 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.operation.localeCompare(b.operation));
}

export function formatSummary(rows) {
  if (!rows.length) return ['proxy  summary: no exchanges'];
  const width = Math.max(...rows.map((r) => r.operation.length));
  return [
    'proxy  summary per operation:',
    ...rows.map(
      (r) =>
        `  ${r.operation.padEnd(width)}  ${String(r.exchanges).padStart(4)} exchanges  ${String(r.violations).padStart(4)} violating  statuses ${Object.entries(
          r.statuses,
        )
          .map(([s, n]) => `${s}x${n}`)
          .join(' ')}`,
    ),
  ];
}
