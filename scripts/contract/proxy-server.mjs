// The validating proxy: forwards every request to an upstream exactly as sent (method,
// path and query bytes, so a multi-segment scope and OData keys reach it unchanged;
// headers, the token among them, to the upstream only), checks the request and the
// upstream's answer against the documents (contract.mjs), and reports one line per
// exchange. It never logs a header value. Its own server binds 127.0.0.1.
import http from 'node:http';
import https from 'node:https';
import { loadContract } from './contract.mjs';

const MAX_BODY = 10 * 1024 * 1024;
// Hop-by-hop headers (RFC 9110 7.6.1) stay on their hop; accept-encoding is dropped so the
// upstream answers uncompressed and the proxy validates what it forwards (Prism's proxy
// trips on gzip: stoplightio/prism#1064).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'accept-encoding', 'content-length']);

function readBody(stream, limit = MAX_BODY) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    stream.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        reject(new Error(`body larger than ${limit} bytes`));
      } else chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** The request path as received, with any path of the upstream URL in front of it. */
const targetPath = (upstream, rawUrl) => `${upstream.pathname.replace(/\/+$/, '')}${rawUrl.startsWith('/') ? rawUrl : `/${rawUrl}`}`;

/**
 * Starts the proxy. Resolves once listening: `{ url, port, exchanges, summary(), close() }`.
 * The upstream gets its own Host unless `preserveHost` (then the client's).
 * `report(exchange)` is called once per exchange (the CLI prints it with formatExchange).
 */
export async function startProxy({ upstream, port = 0, host = '127.0.0.1', failOnViolation = false, preserveHost = false, report = () => {}, contract = loadContract(), timeoutMs = 30_000 }) {
  const target = new URL(upstream);
  if (!/^https?:$/.test(target.protocol)) throw new Error(`--upstream must be an http(s) URL (got ${upstream})`);
  const transport = target.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 16 });
  const exchanges = [];

  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    const exchange = { method: req.method, path: req.url, operation: undefined, status: 0, requestProblems: [], responseProblems: [] };
    try {
      const body = await readBody(req);
      const matched = contract.match(req.method, req.url);
      if (matched.operation) {
        exchange.operation = matched.operation.label;
        exchange.operationId = matched.operation.operationId;
        exchange.requestProblems = contract.checkRequest(matched, req.headers, body.toString('utf8'));
      } else exchange.requestProblems = [matched.problem];

      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      // preserveHost: the upstream sees the Host the client used, so links it builds from
      // it (the mock's nextLink) lead back through the proxy.
      headers.host = preserveHost && req.headers.host ? req.headers.host : target.host;
      if (body.length) headers['content-length'] = String(body.length);
      const answer = await new Promise((resolve, reject) => {
        const forward = transport.request(
          { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: targetPath(target, req.url), headers, agent, timeout: timeoutMs },
          (upstreamRes) => readBody(upstreamRes).then((data) => resolve({ status: upstreamRes.statusCode, headers: upstreamRes.headers, body: data }), reject),
        );
        forward.on('timeout', () => forward.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        forward.on('error', reject);
        forward.end(body);
      });
      exchange.status = answer.status;
      if (matched.operation) {
        const checked = contract.checkResponse(matched.operation, answer.status, answer.headers, answer.body.toString('utf8'));
        exchange.responseProblems = checked.problems;
        exchange.value = checked.value;
        exchange.declaredStatus = checked.response ? String(answer.status) : undefined;
      }
      if (failOnViolation && exchange.responseProblems.length) {
        sendJson(res, 502, { error: { code: 'ContractViolation', message: `The upstream's ${answer.status} answer to ${exchange.operation} breaks the contract.`, details: exchange.responseProblems.map((message) => ({ code: 'Violation', message })) } });
      } else {
        const out = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
        out['content-length'] = String(answer.body.length);
        res.writeHead(answer.status, out);
        res.end(answer.body);
      }
    } catch (error) {
      exchange.status = 502;
      exchange.error = `upstream unreachable or unreadable: ${error.cause?.code ?? error.code ?? error.message}`;
      if (!res.headersSent) sendJson(res, 502, { error: { code: 'UpstreamError', message: exchange.error } });
      else res.destroy();
    }
    exchange.ms = performance.now() - started;
    exchanges.push(exchange);
    report(exchange);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => (server.off('error', reject), resolve()));
  }).catch((error) => {
    throw new Error(`proxy: cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  });
  const address = server.address();
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    exchanges,
    summary: () => summarize(exchanges),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
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
    ...rows.map((r) => `  ${r.operation.padEnd(width)}  ${String(r.exchanges).padStart(4)} exchanges  ${String(r.violations).padStart(4)} violating  statuses ${Object.entries(r.statuses).map(([s, n]) => `${s}x${n}`).join(' ')}`),
  ];
}
