// One Prism mock for every API in redocly.yaml, on one origin. Prism does the work
// (routing, request and security validation, examples, Prefer); this module feeds it
// the bundled documents and owns the HTTP server around it, which
//   - bakes each document's server prefix (/api/v2.0, /api/v1.0) into its paths,
//   - matches an unencoded multi-segment {scope} (scopeAwareRoute),
//   - answers the inputs on which Prism itself would fail with a 5xx (mock-guards.mjs),
//   - can reload the documents without dropping the port (reload()).
// Pinned against prism-http-server 5.12.2, prism-http 5.12.0, prism-core 5.8.0 (Node 20).
import http from 'node:http';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { loadApis, rel } from './apis.mjs';
import { compileScopeMatchers, multiSegmentParams, scopeAwareRoute } from './mock-routing.mjs';
import { basePathOf } from './servers.mjs';
import { guardedMock, guardRequest } from './mock-guards.mjs';

const require = createRequire(import.meta.url);
const { createServer: createPrismServer } = require('@stoplight/prism-http-server');
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const { createLogger } = require('@stoplight/prism-core');

/** Reads the bundled documents and turns them into Prism operations, prefixes included. */
export async function loadOperations(apis = loadApis()) {
  const documents = await Promise.all(
    apis.map(async (api) => {
      const document = parse(await readFile(api.bundle, 'utf8'));
      if (!document?.openapi) throw new Error(`${rel(api.bundle)}: not an OpenAPI document (run npm run generate)`);
      const prefix = basePathOf(document);
      // The object, not the file: the bundles hold only internal $refs.
      const operations = await getHttpOperationsFromSpec(document);
      for (const operation of operations) operation.path = prefix + operation.path;
      return { api, operations, scopeParams: multiSegmentParams(document) };
    }),
  );
  const operations = documents.flatMap((d) => d.operations);
  if (operations.length === 0) throw new Error('no operations in the bundled documents');
  assertNoDuplicateRoutes(operations);
  const scopeParams = new Set(documents.flatMap((d) => [...d.scopeParams]));
  const routes = documents.flatMap(({ api, operations }) =>
    operations.map((o) => ({ api: api.name, operationId: o.iid, method: o.method.toUpperCase(), path: o.path })),
  );
  return { operations, routes, matchers: compileScopeMatchers(operations, scopeParams) };
}

function assertNoDuplicateRoutes(operations) {
  const seen = new Map();
  for (const { method, path } of operations) {
    const key = `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
    if (seen.has(key)) throw new Error(`two documents define ${key} (${seen.get(key)} and ${path})`);
    seen.set(key, path);
  }
}

/**
 * Prism's request handler for a set of operations. prism-http-server builds its handler
 * into a micri http.Server it does not expose; that server is created synchronously in
 * createServer(), so it is caught there and only its 'request' listener is kept. It is
 * never listened on: the mock's own server calls the listener.
 */
function prismHandler({ operations, matchers }, logger) {
  const original = http.createServer;
  let captured;
  http.createServer = (...args) => (captured = original(...args));
  try {
    createPrismServer(operations, {
      cors: true,
      config: {
        isProxy: false,
        mock: { dynamic: false },
        validateRequest: true,
        validateResponse: true,
        checkSecurity: true,
        // A response that breaks its own schema (a broken example) becomes a loud 500
        // problem+json instead of a quiet wrong answer; `npm test` keeps examples valid.
        errors: true,
        upstreamProxy: undefined,
      },
      components: { logger, route: scopeAwareRoute(matchers), mock: guardedMock },
    });
  } finally {
    http.createServer = original;
  }
  const listener = captured?.listeners('request')[0];
  if (!listener) throw new Error('prism-http-server did not create its http.Server as expected (version change?)');
  return listener;
}

// A 5xx nobody asked for is a bug in the mock: say so on stderr even when Prism is silent.
function reportUnexpected5xx(req, res) {
  if (res.statusCode < 500) return;
  const asked = /(?:^|[\s,;])code=5\d\d\b/.test(req.headers.prefer ?? '') || /[?&]__code=5\d\d\b/.test(req.url);
  if (!asked) process.stderr.write(`mock: ${req.method} ${req.url} answered ${res.statusCode} unasked (a mock bug)\n`);
}

/**
 * Starts the mock. Resolves once it is listening: { url, port, routes, reload, close }.
 * port 0 picks a free port. logLevel is pino's ('silent' by default, 'info' shows
 * Prism's request log and violations on stderr).
 */
export async function startMock({ port = 4010, host = '127.0.0.1', apis = loadApis(), logLevel = 'silent' } = {}) {
  // prism-core's logger is pino plus the custom level `success` Prism calls; a plain
  // pino logger without it makes every request fail.
  const logger = createLogger('MOCK', { level: logLevel }, process.stderr);
  let state = await loadOperations(apis);
  let handler = prismHandler(state, logger);

  const server = http.createServer((req, res) => {
    if (guardRequest(req, res)) return;
    res.once('finish', () => reportUnexpected5xx(req, res));
    handler(req, res);
  });
  server.keepAliveTimeout = 5_000;

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error) => {
    throw new Error(`mock: cannot listen on ${host}:${port}: ${error.code ?? error.message}`);
  });
  const address = server.address();
  const url = `http://${address.address}:${address.port}`;

  return {
    url,
    port: address.port,
    get routes() {
      return state.routes;
    },
    /** Re-reads the bundles (after `npm run generate`); on failure the old ones stay. */
    async reload() {
      const next = await loadOperations(apis);
      handler = prismHandler(next, logger);
      state = next;
      return state.routes;
    },
    /** Stops accepting, lets in-flight requests finish, drops what is left after graceMs. */
    close({ graceMs = 500 } = {}) {
      return new Promise((resolve, reject) => {
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
