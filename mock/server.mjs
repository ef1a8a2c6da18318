// The mock's HTTP server: startMock() loads the documents (documents.mjs), picks each
// operation's convention (conventions/), keeps the state (state.mjs) and the test API
// (test-api/), and answers every request through the request path (request-path.mjs:
// guards, test API, route, override, Prism's validation, the convention or the
// documented example), then writes the answer here (CORS, sl-violations, draining a body
// nobody read, an override's held or dropped answer).
import { once } from 'node:events';
import http from 'node:http';
import { resolve } from 'node:path';
import { loadApis } from '../model/apis.mjs';
import { localGuard } from '../lib/local-host.mjs';
import { ADMIN_PREFIX } from './constants.mjs';
import { loadDocuments } from './documents.mjs';
import { errorAnswer, familyError } from './errors.mjs';
import { createLog } from './prism.mjs';
import { answer } from './request-path.mjs';
import { familyOfPath } from '../model/family.mjs';
import { createRouter } from './routing.mjs';
import { createState } from './state.mjs';
import { takenNamesOf } from './behaviours/name-check.mjs';
import { applyConventions } from './conventions/index.mjs';
import { createTestApi } from './test-api/index.mjs';
import { isAdminPath } from './test-api/admin.mjs';

/** How long a socket answered with a parse error keeps reading before it is closed. */
const LINGER_MS = 2_000;
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

/**
 * Loads the documents, picks each operation's convention, builds the router: what reload() swaps in one step.
 * @param {any[]} apis
 * @param {string | false} adminPrefix
 * @param {string} root
 */
async function load(apis, adminPrefix, root) {
  const documents = await loadDocuments(apis, root);
  const catalogue = applyConventions(documents);
  const router = createRouter(documents);
  const shadowed =
    adminPrefix && router.routes.find((r) => isAdminPath(adminPrefix, r.path) || isAdminPath(r.path.split('{')[0].replace(/\/$/, ''), adminPrefix));
  if (shadowed)
    throw new Error(
      `${shadowed.api} declares ${shadowed.method} ${shadowed.path}, under ${adminPrefix}, which the mock reserves for its test API: start the mock with another adminPrefix.`,
    );
  return { documents, router, catalogue };
}

/**
 * Starts the mock; resolves once it listens: { url, port, routes, state, seed, override,
 * requests, reset, reload, close } (index.d.ts).
 *   port        0 picks a free port (default 4010)
 *   host        default 127.0.0.1
 *   root        the workspace whose redocly.yaml lists the APIs (default: the package's own folder)
 *   apis        loadApis() entries (default: every API of its redocly.yaml)
 *   documents   instead of apis: [{ api, version, family, document }], document a parsed
 *               OpenAPI object or the path of a bundled file (fixtures, other projects)
 *   takenNames  names the name check answers AlreadyExists for, besides those of the
 *               spec's AlreadyExists examples
 *   adminPrefix where the test API answers over HTTP (default '/__mock'; false: nowhere)
 *   maxRecordedRequests  how many requests `requests` keeps, newest last (default 1000)
 *   logLevel    pino's ('silent' by default; 'info' shows Prism's log on stderr)
 *   allowHosts  Host names answered besides loopback ones (lib/local-host.mjs; '*' = any)
 *   allowOrigins  foreign origins that may change state (POST/PUT/PATCH/DELETE; '*' = any)
 * @param {import('./index.js').StartMockOptions & { apis?: any[] }} [options]
 */
export async function startMock({
  port = 4010,
  host = '127.0.0.1',
  root = resolve(import.meta.dirname, '..'),
  documents: given,
  apis = given ?? loadApis(root),
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
  const local = localGuard(/** @type {any} lib/local-host.mjs declares no option types */ ({ allowHosts, allowOrigins, bound: host }));
  let current = await load(apis, adminPrefix, root);
  /** @returns {string[]} */
  const initialTaken = () => [...takenNamesOf(current.documents), ...takenNames];
  // The ARM store starts from the documented resources of the documents served now.
  const state = createState({ takenNames: initialTaken(), initialResources: () => current.catalogue.arm.resources });
  const testApi = createTestApi({
    state,
    current: () => current,
    resetState: ({ takenNames: names } = {}) => state.reset({ takenNames: names ?? initialTaken() }),
    maxRecordedRequests,
  });
  /** @type {import('./request-path.mjs').Served} */
  const mock = { current: () => current, state, testApi, adminPrefix, local, log: createLog(logLevel) };
  const server = createServer(mock);
  try {
    await once(server.listen(port, host), 'listening');
  } catch (error) {
    throw new Error(`mock: cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  }
  // Build each document's Prism model in the background once listening, a document at
  // a time between requests: ready stays short, and no request pays for it later.
  const warm = async () => {
    for (const doc of current.documents) {
      for (const operation of doc.operations) await doc.prismOperation(operation).catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve, undefined));
    }
  };
  const warmed = warm();
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
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
      current = await load(next, adminPrefix, root);
      apis = next;
      warm();
      return current.router.routes;
    },
    /** Stops accepting, lets in-flight requests finish, drops what is left after graceMs. */
    close({ graceMs = 500 } = {}) {
      return new Promise((/** @type {(value?: undefined) => void} */ resolve, reject) => {
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
 * The HTTP server of a mock: each request answered by the request path, then written.
 * @param {import('./request-path.mjs').Served} mock
 */
function createServer(mock) {
  const server = http.createServer((req, res) => {
    // What an API request was and how it was answered (the test API's `requests`).
    const record = isAdminPath(mock.adminPrefix, String(req.url).split('?')[0]) ? undefined : mock.testApi.log.start(req, res);
    answer(mock, req, { record, origin: originOf(req, server) })
      .then((found) => respond(mock, req, res, found))
      .catch((error) => {
        // A bug, not an input problem: say so loudly, and answer if nothing was sent yet.
        process.stderr.write(`mock: ${req.method} ${String(req.url).slice(0, 200)} failed unasked (a mock bug): ${error?.stack ?? error}\n`);
        if (!res.headersSent)
          send(
            res,
            familyError(familyOfPath(String(req.url)), 500, 'The mock failed on this request (a bug in the mock, reported on its stderr).', {
              code: 'MockFailure',
            }),
          );
        else res.destroy();
      });
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  // A malformed request line or header never reaches the request path: answer it, do not
  // crash. Answered sockets, lingering: what the client still sends comes back here as
  // more parse errors, and is dropped.
  const lingering = new WeakSet();
  server.on('clientError', (/** @type {Error & { code?: string, rawPacket?: Buffer }} */ error, socket) => {
    if (lingering.has(socket)) return;
    if (socket.writable && !(/** @type {any} */ (socket).headersSent)) {
      const body = JSON.stringify(errorAnswer(400, 'BadRequest', `The request could not be parsed as HTTP (${error.code ?? 'parse error'}).`).body);
      // An answer to HEAD has no body: a client would read it as the next response.
      const head = /^HEAD /.test(String(error.rawPacket ?? ''));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
      );
      // Lingering close (RFC 9112, 9.6): closing while the client still sends (a body
      // after a bad request line) resets the connection, and the client may see the
      // reset instead of this 400. So go on reading and dropping for a moment.
      lingering.add(socket);
      socket.on('data', () => {});
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    } else socket.destroy();
  });
  return server;
}

/**
 * The origin the request came in on, for links the mock builds (nextLink): the Host the
 * client used, when it is a plain host[:port]; else the address the mock listens on.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').Server} server
 */
function originOf(req, server) {
  const host = req.headers.host;
  if (typeof host === 'string' && /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/.test(host)) return `http://${host}`;
  const { address, port, family } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

/**
 * Writes the request path's answer. An override's fault: held (never answered, until the
 * client gives up, reset() or close()) or the connection dropped. An answer to a request
 * refused before its body was read waits for the body's end, the body dropped, as
 * readBody does for a body too large: an answer sent while the client is still sending
 * ends in a connection reset on its side, often before it reads the answer. (The
 * server's requestTimeout bounds the wait.)
 * @param {import('./request-path.mjs').Served} mock
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {import('./request-path.mjs').PathAnswer & { consumed?: boolean }} found
 */
function respond(mock, req, res, found) {
  const { held } = mock.testApi;
  if (found.fault === 'timeout') {
    held.add(res);
    res.once('close', () => held.delete(res));
  } else if (found.fault === 'drop') req.socket.destroy();
  else if (found.consumed || req.complete) send(res, found);
  else {
    req.once('end', () => send(res, found));
    req.resume();
  }
}

const ascii = (text) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Writes an answer of the request path.
 * @param {import('node:http').ServerResponse} res
 * @param {import('./request-path.mjs').PathAnswer} answer
 */
function send(res, { status, headers = {}, body, violations = [], cors = true }) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const out = cors
    ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, sl-violations, Azure-AsyncOperation, Location, Retry-After' }
    : {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && value !== null) out[name.toLowerCase()] = ascii(String(value));
  if (violations.length) {
    let value = ascii(JSON.stringify(violations));
    if (value.length > MAX_VIOLATIONS_HEADER) value = `${value.slice(0, MAX_VIOLATIONS_HEADER)}...`;
    out['sl-violations'] = value;
  }
  if (text && !out['content-type']) out['content-type'] = 'application/json';
  out['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, out);
  res.end(text);
}
