// The mock's HTTP server. Prism does what it is good at -- validating a request against
// its operation (parameters, body, security) and `Prefer` examples/statuses -- and this
// server does the rest, in order:
//   1. guards.mjs   reject what Prism would crash on or misread (4xx, family error body);
//   2. routing.mjs  pick the document and operation (path template + method, then
//                   api-version or /api/vX.Y prefix), so Prism only sees one document;
//   3. test API     a test's override for the operation, if any (test-api/): an answer,
//                   a delay, a time-out or a dropped connection;
//   4. Prism        one instance per document, with respond.mjs as its mock component
//                   (conventions/ and behaviours/, with state, for the answers);
//   5. the answer   checked by Prism against its own document; a 5xx nobody asked for
//                   is reported on stderr as a mock bug.
// Pinned against prism-http 5.12.0, prism-core 5.8.0 (Node 20).
import http from 'node:http';
import { createRequire } from 'node:module';
import { compareVersions, loadApis } from '../model/apis.mjs';
import { loadDocuments } from './documents.mjs';
import { familyError } from './errors.mjs';
import { checkHeaders, decodeBody, parsePrefer, parseTarget, readBody } from './guards.mjs';
import { mockComponent } from './respond.mjs';
import { createRouter, familyOfPath } from './routing.mjs';
import { createState } from './state.mjs';
import { ADMIN_PREFIX } from './constants.mjs';
import { takenNamesOf } from './behaviours/name-check.mjs';
import { applyConventions } from './conventions/index.mjs';
import { isKnownMonitor, isMonitorPath, monitorAnswer } from './conventions/long-running.mjs';
import { createTestApi } from './test-api/index.mjs';
import { adminAnswer, isAdminPath } from './test-api/admin.mjs';
import { MAX_RECORDED_BODY_BYTES, redactHeaders } from './test-api/requests.mjs';
import { applyOverride } from './test-api/apply.mjs';
import { localGuard } from '../lib/local-host.mjs';

/** How long a socket answered with a parse error keeps reading before it is closed. */
const LINGER_MS = 2_000;

const require = createRequire(import.meta.url);
const { createInstance } = require('@stoplight/prism-http');
const { createLogger } = require('@stoplight/prism-core');

const BASE_CONFIG = { isProxy: false, validateRequest: true, validateResponse: true, checkSecurity: true, errors: false, upstreamProxy: undefined };
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

/** Loads the documents, picks each operation's convention, builds the router: what reload() swaps in one step. */
async function load(apis, adminPrefix) {
  const documents = await loadDocuments(apis);
  const catalogue = applyConventions(documents);
  const router = createRouter(documents);
  const shadowed = router.routes.find((r) => isAdminPath(adminPrefix, r.path) || isAdminPath(r.path.split('{')[0].replace(/\/$/, ''), adminPrefix));
  if (shadowed) throw new Error(`${shadowed.api} declares ${shadowed.method} ${shadowed.path}, under ${adminPrefix}, which the mock reserves for its test API: start the mock with another adminPrefix.`);
  return { documents, router, catalogue };
}

/**
 * Starts the mock; resolves once it listens: { url, port, routes, state, seed, override,
 * requests, reset, reload, close } (index.d.ts).
 *   port        0 picks a free port (default 4010)
 *   host        default 127.0.0.1
 *   apis        loadApis() entries (default: every API of redocly.yaml)
 *   documents   instead of apis: [{ api, version, family, document }], document a parsed
 *               OpenAPI object or the path of a bundled file (fixtures, other projects)
 *   takenNames  names the name check answers AlreadyExists for, besides those of the
 *               spec's AlreadyExists examples
 *   adminPrefix where the test API answers over HTTP (default '/__mock'; false: nowhere)
 *   maxRecordedRequests  how many requests `requests` keeps, newest last (default 1000)
 *   logLevel    pino's ('silent' by default; 'info' shows Prism's log on stderr)
 *   allowHosts  Host names answered besides loopback ones (lib/local-host.mjs; '*' = any)
 *   allowOrigins  foreign origins that may change state (POST/PUT/PATCH/DELETE; '*' = any)
 */
export async function startMock({
  port = 4010,
  host = '127.0.0.1',
  documents: given,
  apis = given ?? loadApis(),
  takenNames = [],
  adminPrefix = ADMIN_PREFIX,
  maxRecordedRequests = 1000,
  logLevel = 'silent',
  allowHosts = [],
  allowOrigins = [],
} = {}) {
  if (adminPrefix !== false && !(typeof adminPrefix === 'string' && /^\/[\w.~-]+(?:\/[\w.~-]+)*$/.test(adminPrefix))) {
    throw new Error(`mock: adminPrefix ${JSON.stringify(adminPrefix)} must be a path such as "/__mock" (or false).`);
  }
  if (!(Number.isInteger(maxRecordedRequests) && maxRecordedRequests >= 0)) throw new Error('mock: maxRecordedRequests must be a whole number from 0.');
  const local = localGuard({ allowHosts, allowOrigins, bound: host });
  // prism-core's logger is pino plus the custom level `success` Prism calls.
  const logger = createLogger('MOCK', { level: logLevel }, process.stderr);
  let current = await load(apis, adminPrefix);
  const initialTaken = () => [...takenNamesOf(current.documents), ...takenNames];
  // The ARM store starts from the documented resources of the documents served now.
  const state = createState({ takenNames: initialTaken(), initialResources: () => current.catalogue.arm.resources });
  const testApi = createTestApi({
    state,
    current: () => current,
    resetState: ({ takenNames: names } = {}) => state.reset({ takenNames: names ?? initialTaken() }),
    maxRecordedRequests,
  });
  // One Prism instance per document, created on its first request: start-up stays
  // short however many documents there are.
  const instances = new WeakMap();
  const prismOf = (doc) => {
    let instance = instances.get(doc);
    if (!instance) {
      instance = createInstance(BASE_CONFIG, { logger, mock: mockComponent });
      instances.set(doc, instance);
    }
    return instance;
  };

  const server = http.createServer((req, res) => {
    // What an API request was and how it was answered (the test API's `requests`).
    const record = isAdminPath(adminPrefix, String(req.url).split('?')[0]) ? undefined : testApi.log.start(req, res);
    handle(req, res, record).catch((error) => {
      // A bug, not an input problem: say so loudly, and answer if nothing was sent yet.
      process.stderr.write(`mock: ${req.method} ${String(req.url).slice(0, 200)} failed unasked (a mock bug): ${error?.stack ?? error}\n`);
      if (!res.headersSent) send(res, familyError(familyOfPath(String(req.url)), 500, 'The mock failed on this request (a bug in the mock, reported on its stderr).', { code: 'MockFailure' }));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  // A malformed request line or header never reaches handle(): answer it, do not crash.
  // Answered sockets, lingering: what the client still sends comes back here as more
  // parse errors, and is dropped.
  const lingering = new WeakSet();
  server.on('clientError', (error, socket) => {
    if (lingering.has(socket)) return;
    if (socket.writable && !socket.headersSent) {
      const body = JSON.stringify({ error: { code: 'BadRequest', message: `The request could not be parsed as HTTP (${error.code ?? 'parse error'}).` } });
      // An answer to HEAD has no body: a client would read it as the next response.
      const head = /^HEAD /.test(String(error.rawPacket ?? ''));
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`);
      // Lingering close (RFC 9112, 9.6): closing while the client still sends (a body
      // after a bad request line) resets the connection, and the client may see the
      // reset instead of this 400. So go on reading and dropping for a moment.
      lingering.add(socket);
      socket.on('data', () => {});
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    } else socket.destroy();
  });

  async function handle(req, res, record = {}) {
    const target = parseTarget(req.url);
    const guess = familyOfPath(target.path ?? '');
    if (target.problem) return drain(req, res, familyError(guess, ...target.problem));
    // Local servers are local: a foreign Host (DNS rebinding), or a foreign page changing
    // state (the test API under adminPrefix included: a rebound page's requests come from loopback).
    const foreign = local.refuseHost(req) ?? local.refuseOrigin(req);
    if (foreign) return drain(req, res, familyError(guess, foreign.status, foreign.message, { code: foreign.code }), { cors: !isAdminPath(adminPrefix, target.path) });
    // The test API: no CORS headers, so no web page can read it (test-api/admin.mjs).
    if (isAdminPath(adminPrefix, target.path)) return send(res, await adminAnswer(req, target.path, adminPrefix, testApi), { cors: false });
    Object.assign(record, { path: target.path, query: target.query });
    if (req.method === 'OPTIONS' && req.headers.origin && req.headers['access-control-request-method']) return drain(req, res, preflight(req));
    const headerProblem = checkHeaders(req.headers).problem;
    if (headerProblem) return drain(req, res, familyError(guess, ...headerProblem));

    // The status URLs of the long-running operations the mock started: its own, declared
    // by no document (conventions/long-running.mjs); an unknown one is a 404 CloudError.
    if (isKnownMonitor(state, target.path)) return drain(req, res, monitorAnswer(state, req.method, target.path, originOf(req, server)));
    const { router } = current;
    const matched = router.match(req.method, target.path);
    if (matched.status === 404 && isMonitorPath(target.path)) return drain(req, res, monitorAnswer(state, req.method, target.path, originOf(req, server)));
    if (matched.status === 404) {
      const elsewhere = router.prefixesFor(req.method, target.path);
      const hint = elsewhere.length ? ` This operation is served under ${elsewhere.join(', ')} (the API versions served).` : '';
      return drain(req, res, familyError(guess, 404, `No operation is served at ${target.path.slice(0, 200)}.${hint}`));
    }
    if (matched.status === 405) {
      return drain(req, res, familyError(guess, 405, `${req.method} is not an operation of ${target.path.slice(0, 200)}; allowed: ${matched.allow.join(', ')}.`, { headers: { allow: matched.allow.join(', ') } }));
    }
    const { route, prismPath } = matched;
    const family = route.family;

    // Which document: api-version (resource management) or the prefix (already routed).
    let entry;
    if (family === 'resource-manager') {
      const versions = [...route.byVersion.keys()].sort(compareVersions);
      const asked = target.query['api-version'];
      const served = `versions served for ${route.method} ${route.template}: ${versions.join(', ')}`;
      if (Array.isArray(asked)) return drain(req, res, familyError(family, 400, `query parameter api-version is given ${asked.length} times; give it once (${served}).`, { code: 'InvalidApiVersionParameter' }));
      if (asked === undefined || asked === '') return drain(req, res, familyError(family, 400, `query parameter api-version is required (${served}).`, { code: 'MissingApiVersionParameter' }));
      entry = route.byVersion.get(asked);
      if (!entry) return drain(req, res, familyError(family, 400, `The api-version '${asked.slice(0, 100)}' is not served for this operation; ${served}.`, { code: 'InvalidApiVersionParameter' }));
    } else {
      entry = route.byVersion.values().next().value;
    }
    Object.assign(record, { operationId: entry.operation.iid, api: entry.doc.api.name, version: family === 'resource-manager' ? entry.doc.version : entry.doc.prefix });

    const preferred = parsePrefer(req.headers.prefer, target.query);
    if (preferred.problem) return drain(req, res, familyError(family, ...preferred.problem));
    const read = await readBody(req);
    if (read.problem) return send(res, familyError(family, ...read.problem));
    const decoded = decodeBody(read.text, req.headers['content-type']);
    if (decoded.problem) {
      // An operation with error rules of its own (the name check's 400s) answers in them.
      const own = entry.operation.handler?.rejected;
      const [status, message] = decoded.problem;
      return send(res, own && status === 400 ? own({ doc: entry.doc, body: undefined, validations: [{ severity: 0, message }] }) : familyError(family, ...decoded.problem));
    }

    const { prefer } = preferred;
    const params = Object.fromEntries(Object.entries(matched.params).map(([name, value]) => [name, decodeURIComponent(value)]));
    record.body = read.size > MAX_RECORDED_BODY_BYTES ? `[a body of ${read.size} bytes, not recorded]` : decoded.body;

    // A test's override for this operation: it answers before Prism validates anything.
    const overrideRequest = { method: req.method, path: target.path, query: target.query, headers: redactHeaders(req.headers), body: decoded.body, params, ...pick(record, 'operationId', 'api', 'version') };
    const rule = testApi.overrides.take(overrideRequest);
    if (rule && (await applyOverride(rule, { req, res, record, family, entry, held: testApi.held, send }))) return;

    const ctx = { family, handler: entry.operation.handler, doc: entry.doc, op: entry.operation, state, params, headers: req.headers, query: target.query, rawPath: target.path, origin: originOf(req, server) };
    const input = { method: req.method.toLowerCase(), url: { path: prismPath, baseUrl: undefined, query: target.query }, headers: req.headers, body: decoded.body };
    const config = { ...BASE_CONFIG, mock: { dynamic: prefer.dynamic === true, code: prefer.code, exampleKey: prefer.exampleKey, seed: prefer.seed, ctx } };

    const operation = await entry.doc.prismOperation(entry.operation);
    if (!operation) throw new Error(`Prism has no operation ${entry.operation.method} ${entry.operation.path} in ${entry.doc.api.name}`);
    const result = await prismOf(entry.doc).request(input, [operation], config)();
    if (result._tag === 'Left') {
      const error = result.left;
      const status = Number.isInteger(error?.status) && error.status >= 400 ? error.status : 500;
      if (status >= 500 && !(prefer.code >= 500)) throw error instanceof Error ? error : new Error(String(error?.detail ?? error));
      const detail = String(error.detail || error.message || error.title);
      const message = status === 406 ? `Accept ${JSON.stringify(String(req.headers.accept).slice(0, 200))} names no media type this operation answers in (${detail}).` : detail;
      return send(res, familyError(family, status, message), { headers: error.additional?.headers });
    }
    const { output, validations } = result.right;
    const broken = validations.output.filter((v) => v.severity === 0 && !/Unable to match the returned status code/i.test(v.message));
    if (broken.length) throw new Error(`the answer ${output.statusCode} breaks ${entry.doc.api.name}: ${broken.map((v) => `${(v.path ?? []).join('.')} ${v.message}`).join('; ')}`);
    const violations = validations.input.map((v) => ({ location: ['request', ...(v.path ?? [])], severity: ['Error', 'Warning', 'Information', 'Hint'][v.severity], code: v.code, message: v.message }));
    const answer = { status: output.statusCode, headers: output.headers ?? {}, body: output.body };
    send(res, answer, { violations });
    if (answer.status >= 500 && !(prefer.code >= 500)) process.stderr.write(`mock: ${req.method} ${req.url} answered ${answer.status} unasked (a mock bug)\n`);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error) => {
    throw new Error(`mock: cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  });
  // Build each document's Prism model in the background once listening, a document at
  // a time between requests: ready stays short, and no request pays for it later.
  const warm = async () => {
    for (const doc of current.documents) {
      for (const operation of doc.operations) await doc.prismOperation(operation).catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const warmed = warm();
  const address = server.address();
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url,
    port: address.port,
    /** Every operation served: { api, operationId, method, path, version }. */
    get routes() {
      return current.router.routes;
    },
    /** What the mock holds (a copy): entities, deleted keys, taken names, list items. */
    get state() {
      return testApi.snapshot();
    },
    /** Puts entities, taken names and list items in place; returns the seeded entities with their tags. */
    seed: testApi.seed,
    /** Answers an operation's next call(s) as the test says; cleared by reset(). */
    override: testApi.override,
    /** How the next (or every, or one running) long-running operation goes: polls, Retry-After, outcome; cleared by reset(). */
    longRunning: testApi.longRunning,
    /** The overrides in force. */
    get overrides() {
      return testApi.overrides.list();
    },
    /** What the mock received (a copy), oldest first; cleared by reset(). */
    get requests() {
      return testApi.requests();
    },
    /** Where the test API answers over HTTP (`<url>/__mock`), or undefined when off. */
    adminUrl: adminPrefix ? `${url}${adminPrefix}` : undefined,
    /** Resolves when every document's Prism model is built (the mock serves before that). */
    warmed,
    /**
     * Back to the start: entities and list items forgotten, taken names as at start (or
     * `takenNames`), overrides and the request record cleared, held answers dropped.
     */
    reset: testApi.reset,
    /**
     * Re-reads the bundles (after `npm run generate`), of `next` when given (dev passes
     * the new list after redocly.yaml changed); on failure the old ones stay.
     */
    async reload(next = apis) {
      current = await load(next, adminPrefix);
      apis = next;
      warm();
      return current.router.routes;
    },
    /** Stops accepting, lets in-flight requests finish, drops what is left after graceMs. */
    close({ graceMs = 500 } = {}) {
      return new Promise((resolve, reject) => {
        for (const res of testApi.held) res.socket?.destroy();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs).unref();
        server.close((error) => {
          clearTimeout(timer);
          error ? reject(error) : resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

/**
 * The origin the request came in on, for links the mock builds (nextLink): the Host the
 * client used, when it is a plain host[:port]; else the address the mock listens on.
 */
function originOf(req, server) {
  const host = req.headers.host;
  if (typeof host === 'string' && /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/.test(host)) return `http://${host}`;
  const { address, port, family } = server.address();
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

const pick = (object, ...keys) => Object.fromEntries(keys.map((key) => [key, object[key]]));

function preflight(req) {
  return {
    status: 204,
    headers: { 'access-control-allow-methods': String(req.headers['access-control-request-method']), 'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*'), vary: 'origin' },
    body: undefined,
  };
}

/**
 * Answers a request refused before its body was read. The body is read to its end and
 * dropped first, as readBody does for a body too large: an answer sent while the client is
 * still sending ends in a connection reset on its side, often before it reads the answer.
 * (The server's requestTimeout bounds the wait.)
 */
function drain(req, res, answer, options) {
  if (req.complete) return send(res, answer, options);
  req.once('end', () => send(res, answer, options));
  req.resume();
}

const ascii = (text) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function send(res, answer, { violations = [], headers: extra = {}, close = false, cors = true } = {}) {
  const { status, headers = {}, body } = answer;
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const out = cors ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, sl-violations, Azure-AsyncOperation, Location, Retry-After' } : {};
  for (const [name, value] of Object.entries({ ...headers, ...(extra ?? {}) })) if (value !== undefined && value !== null) out[name.toLowerCase()] = ascii(String(value));
  if (violations.length) {
    let value = ascii(JSON.stringify(violations));
    if (value.length > MAX_VIOLATIONS_HEADER) value = `${value.slice(0, MAX_VIOLATIONS_HEADER)}...`;
    out['sl-violations'] = value;
  }
  if (text && !out['content-type']) out['content-type'] = 'application/json';
  out['content-length'] = Buffer.byteLength(text);
  if (close) out.connection = 'close';
  res.writeHead(status, out);
  res.end(text);
}
