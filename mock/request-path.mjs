// The mock's request path: one ordered list of steps, each a small function of the
// request's context that returns an answer (the request is answered) or nothing (on to
// the next step). answer() runs it for any request: the HTTP server's (server.mjs), and
// whatever re-enters the path with a request of its own (`ctx.reenter`: the members of an
// OData batch, conventions/odata-batch.mjs).
//   guards     reject what Prism would crash on or misread (guards.mjs), a foreign Host
//              or page (lib/local-host.mjs): a 4xx in the family's error body
//   test API   under the admin prefix: seed, overrides, the record (test-api/admin.mjs);
//              then a CORS preflight, and the headers' guard
//   route      the document and operation (routing.mjs: path template + method), the
//              mock's own long-running status URLs first, then the api-version (resource
//              management; business data versions by its /api/vX.Y prefix, already routed)
//   scope      a resource-management path through a `{scope}` parameter (any segments)
//              whose scope is no ARM scope: 400 MissingSubscription, whatever answers it
//              after (a convention or a documented example)
//   override   a test's override for the operation: an answer, a delay, a time-out or a
//              dropped connection (test-api/)
//   validate   Prism's routing and validation of the request (prism.mjs); an invalid one
//              gets the family's error (or the operation's own, the name check's 400s)
//   answer     the operation's convention (conventions/index.mjs), unless `Prefer` asks
//              for an example or a status; else Prism's mocker: the documented example
// An answer given once Prism validated the request goes through the operation's
// `decorate`, carries the request's violations (sl-violations) and is checked against its
// document: an answer that breaks it is a mock bug (thrown), a 5xx nobody asked for is
// reported on stderr.
import { compareVersions } from '../model/apis.mjs';
import { armScopeError, credentialsError, describeViolations, familyError } from './errors.mjs';
import * as prism from './prism.mjs';
import { checkHeaders, decodeBody, parsePrefer, parseTarget, readBody } from './guards.mjs';
import { familyOfPath, RESOURCE_MANAGER } from '../model/family.mjs';
import { scopeProblem } from '../model/arm-ids.mjs';
import { parameterNames, pathInDocument } from './conventions/shapes.mjs';
import { isKnownMonitor, isMonitorPath, monitorAnswer } from './conventions/long-running.mjs';
import { adminAnswer, isAdminPath } from './test-api/admin.mjs';
import { MAX_RECORDED_BODY_BYTES, redactBody, redactHeaders } from './test-api/requests.mjs';
import { applyOverride } from './test-api/apply.mjs';

/**
 * An answer of the path, with what the server does with it besides writing it.
 * @typedef {import('./errors.mjs').Answer & { cors?: boolean, violations?: object[], unchecked?: boolean, fault?: string, consumed?: boolean }} PathAnswer
 * @typedef {PathAnswer | { fault: string } | undefined | void} StepResult
 */

/**
 * The mock a request is answered by (server.mjs).
 * @typedef {object} Served
 * @property {() => { documents: any[], router: any, catalogue: any }} current  the documents served now
 * @property {any} state        state.mjs
 * @property {any} testApi      test-api/index.mjs
 * @property {string | false} adminPrefix
 * @property {any} local        lib/local-host.mjs localGuard
 * @property {any} log            Prism's log (prism.mjs createLog)
 */

/**
 * The request's context: what the steps learn, in order; the conventions' handlers read
 * it too (doc, op, state, params, headers, query, rawPath, origin, body, validations).
 * @typedef {object} RequestContext
 * @property {Served} mock
 * @property {import('node:http').IncomingMessage} req
 * @property {Record<string, any>} record  the test API's record of the request
 * @property {string} origin               where links the mock builds point
 * @property {any} state
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} family               the family of the path, then of the operation
 * @property {boolean} [consumed]          the body was read (no draining before the answer)
 * @property {string} rawPath
 * @property {Record<string, string | string[]>} query
 * @property {any} matched
 * @property {any} doc
 * @property {any} op
 * @property {any} handler
 * @property {string} version
 * @property {any} prefer
 * @property {unknown} body
 * @property {Record<string, string>} params
 * @property {any} input                   Prism's request
 * @property {any} resource                Prism's operation, once it validated the request
 * @property {any[]} validations
 * @property {(req: any, record?: Record<string, any>) => Promise<PathAnswer>} reenter  answers another request through this same path (a batch's members), recorded in `record`
 */

/**
 * A step: an answer, or nothing (on to the next step). An async step is declared by
 * its parameter and `@returns {Promise<StepResult>}`.
 * @typedef {(ctx: RequestContext) => StepResult} Step
 */

/** The request target, parsed: a malformed one is answered here. @type {Step} */
function target(ctx) {
  const parsed = parseTarget(ctx.req.url);
  ctx.family = familyOfPath(parsed.path ?? '');
  if (parsed.problem) return familyError(ctx.family, ...parsed.problem);
  ctx.rawPath = parsed.path;
  ctx.query = parsed.query;
}

/**
 * Local servers are local: a foreign Host (DNS rebinding), or a foreign page changing
 * state (the test API included: a rebound page's requests come from loopback).
 * @type {Step}
 */
function local(ctx) {
  const foreign = ctx.mock.local.refuseHost(ctx.req) ?? ctx.mock.local.refuseOrigin(ctx.req);
  if (foreign)
    return { ...familyError(ctx.family, foreign.status, foreign.message, { code: foreign.code }), cors: !isAdminPath(ctx.mock.adminPrefix, ctx.rawPath) };
}

/**
 * The test API over HTTP: no CORS headers, so no web page can read it (test-api/admin.mjs).
 * @param {RequestContext} ctx
 * @returns {Promise<StepResult>}
 */
async function testApi(ctx) {
  const { adminPrefix } = ctx.mock;
  // It reads its body itself, or answers at once: `consumed`, no draining.
  if (isAdminPath(adminPrefix, ctx.rawPath))
    return { ...(await adminAnswer(ctx.req, ctx.rawPath, /** @type {string} */ (adminPrefix), ctx.mock.testApi)), cors: false, consumed: true };
  Object.assign(ctx.record, { path: ctx.rawPath, query: ctx.query });
}

/** A browser's CORS preflight. @type {Step} */
function preflight({ req }) {
  if (req.method !== 'OPTIONS' || !req.headers.origin || !req.headers['access-control-request-method']) return;
  const headers = {
    'access-control-allow-methods': String(req.headers['access-control-request-method']),
    'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*'),
    vary: 'origin',
  };
  return { status: 204, headers, body: undefined };
}

/** @type {Step} */
function headers(ctx) {
  const problem = checkHeaders(ctx.req.headers).problem;
  if (problem) return familyError(ctx.family, ...problem);
}

/**
 * The operation the path and method name; before it, the status URLs of the long-running
 * operations the mock started: its own, declared by no document
 * (conventions/long-running.mjs), an unknown one a 404 CloudError.
 * @type {Step}
 */
function route(ctx) {
  const { rawPath, req, state } = ctx;
  const { router } = ctx.mock.current();
  const matched = router.match(req.method, rawPath);
  ctx.matched = matched;
  if (isKnownMonitor(state, rawPath) || (matched.status === 404 && isMonitorPath(rawPath))) {
    // A status URL is an ARM request like any other: it needs the caller's credentials.
    if (!/^bearer\s+\S/i.test(String(req.headers.authorization ?? ''))) return credentialsError(ctx.family);
    return monitorAnswer(state, req.method, rawPath, ctx.origin);
  }
  if (matched.status === 404) {
    const elsewhere = router.prefixesFor(req.method, rawPath);
    const hint = elsewhere.length ? ` This operation is served under ${elsewhere.join(', ')} (the API versions served).` : '';
    return familyError(ctx.family, 404, `No operation is served at ${rawPath.slice(0, 200)}.${hint}`);
  }
  if (matched.status === 405)
    return familyError(ctx.family, 405, `${req.method} is not an operation of ${rawPath.slice(0, 200)}; allowed: ${matched.allow.join(', ')}.`, {
      headers: { allow: matched.allow.join(', ') },
    });
  ctx.family = matched.route.family;
}

/** Which document: api-version (resource management) or the prefix (already routed). @type {Step} */
function version(ctx) {
  const { route } = ctx.matched;
  let entry = route.byVersion.values().next().value;
  if (ctx.family === 'resource-manager') {
    const versions = [...route.byVersion.keys()].sort(compareVersions);
    const asked = ctx.query['api-version'];
    const served = `versions served for ${route.method} ${route.template}: ${versions.join(', ')}`;
    if (Array.isArray(asked))
      return familyError(ctx.family, 400, `query parameter api-version is given ${asked.length} times; give it once (${served}).`, {
        code: 'InvalidApiVersionParameter',
      });
    if (asked === undefined || asked === '')
      return familyError(ctx.family, 400, `query parameter api-version is required (${served}).`, { code: 'MissingApiVersionParameter' });
    entry = route.byVersion.get(asked);
    if (!entry)
      return familyError(ctx.family, 400, `The api-version '${asked.slice(0, 100)}' is not served for this operation; ${served}.`, {
        code: 'InvalidApiVersionParameter',
      });
  }
  Object.assign(ctx, {
    doc: entry.doc,
    op: entry.operation,
    handler: entry.operation.handler,
    version: ctx.family === 'resource-manager' ? entry.doc.version : entry.doc.prefix,
  });
  Object.assign(ctx.record, { operationId: ctx.op.iid, api: ctx.doc.api.name, version: ctx.version });
}

/**
 * A multi-segment parameter (`{scope}`, `x-ms-skip-url-encoding`) lets the router match
 * any segments; ARM's front door places a request only at an ARM scope (a subscription,
 * a resource group, a resource, a management group, the tenant), so a path whose part
 * before its last `/providers/` is none of them is refused here, for every operation
 * at such a path: those with a lifecycle and those answered by their examples alike.
 * @type {Step}
 */
function scope(ctx) {
  const { route } = ctx.matched;
  if (ctx.family !== RESOURCE_MANAGER || !route.names.some((/** @type {string} */ name) => route.multiSegment.has(name))) return;
  const problem = scopeProblem(pathInDocument(ctx.doc, ctx.rawPath));
  if (problem !== undefined) return armScopeError(problem);
}

/**
 * What the request asks besides its operation: `Prefer` (and Prism's query equivalents),
 * then its body, read (bounded) and decoded; its path parameters, decoded.
 * @param {RequestContext} ctx
 * @returns {Promise<StepResult>}
 */
async function read(ctx) {
  const preferred = parsePrefer(String(ctx.req.headers.prefer ?? ''), ctx.query);
  if (preferred.problem) return familyError(ctx.family, ...preferred.problem);
  ctx.prefer = preferred.prefer;
  const sent = await readBody(ctx.req);
  ctx.consumed = true;
  if (sent.problem) return familyError(ctx.family, ...sent.problem);
  const decoded = decodeBody(sent.text, ctx.req.headers['content-type']);
  if (decoded.problem) {
    // An operation with error rules of its own (the name check's 400s) answers in them.
    const [status, message] = decoded.problem;
    return ctx.handler?.rejected && status === 400
      ? ctx.handler.rejected({ ...ctx, body: undefined, validations: [{ severity: 0, message }] })
      : familyError(ctx.family, ...decoded.problem);
  }
  ctx.body = decoded.body;
  ctx.params = Object.fromEntries(Object.entries(ctx.matched.params).map(([name, value]) => [name, decodeURIComponent(value)]));
  ctx.record.body = sent.size > MAX_RECORDED_BODY_BYTES ? `[a body of ${sent.size} bytes, not recorded]` : redactBody(decoded.body);
}

/**
 * A test's override for this operation: it answers before Prism validates anything.
 * @param {RequestContext} ctx
 * @returns {Promise<StepResult>}
 */
async function override(ctx) {
  const { method, headers } = ctx.req;
  const rule = ctx.mock.testApi.overrides.take({
    method,
    path: ctx.rawPath,
    query: ctx.query,
    headers: redactHeaders(headers),
    body: ctx.body,
    params: ctx.params,
    operationId: ctx.op.iid,
    api: ctx.doc.api.name,
    version: ctx.version,
  });
  if (rule) return applyOverride(rule, ctx);
}

/**
 * Prism's routing and validation of the request against its one operation.
 * @param {RequestContext} ctx
 * @returns {Promise<StepResult>}
 */
async function validate(ctx) {
  const operation = await ctx.doc.prismOperation(ctx.op);
  if (!operation) throw new Error(`Prism has no operation ${ctx.op.method} ${ctx.op.path} in ${ctx.doc.api.name}`);
  ctx.input = {
    method: String(ctx.req.method).toLowerCase(),
    url: { path: ctx.matched.prismPath, baseUrl: undefined, query: ctx.query },
    headers: ctx.req.headers,
    body: ctx.body,
  };
  const checked = prism.validate(ctx, operation, ctx.input);
  if (checked.failure) return checked.failure;
  ctx.resource = checked.resource;
  ctx.validations = checked.validations;
}

/**
 * An invalid request: the family's error (or the operation's own), naming the
 * violations, never Prism's placeholders.
 * @type {Step}
 */
function rejected(ctx) {
  const { validations, family } = ctx;
  if (!validations.some((v) => v.severity === 0)) return;
  const security = validations.find((v) => v.code === 401);
  if (security) return credentialsError(family, (security.tags ?? []).join(',') || 'Bearer');
  if (ctx.handler?.rejected) return ctx.handler.rejected(ctx);
  const mediaType = validations.find((v) => v.code === 415);
  if (mediaType) return familyError(family, 415, `${mediaType.message}.`.replace(/\.\.$/, '.'));
  const code = family === 'resource-manager' ? (validations.some((v) => v.path?.[0] === 'body') ? 'InvalidRequestContent' : 'InvalidParameter') : 'BadRequest';
  return familyError(family, 400, `The request is invalid: ${describeViolations(validations, parameterNames(ctx))}.`, { code });
}

/** The operation's convention (a rule of the source, or the family's), unless `Prefer` asks for an answer. @type {Step} */
function convention(ctx) {
  const asked = ctx.prefer.code !== undefined || ctx.prefer.exampleKey !== undefined || ctx.prefer.dynamic === true;
  if (!asked && ctx.handler?.respond) return ctx.handler.respond(ctx);
}

/** Prism's mocker: what `Prefer` asks for, else the documented example. @type {Step} */
const documented = (ctx) => prism.mock(ctx);

/** The steps, in order. */
export const STEPS = [target, local, testApi, preflight, headers, route, version, scope, read, override, validate, rejected, convention, documented];

/**
 * Answers one request: the first step's answer, finished (see the header).
 * @param {Served} mock
 * @param {import('node:http').IncomingMessage} req
 * @param {{ record?: Record<string, any>, origin: string }} options
 * @returns {Promise<PathAnswer & { consumed?: boolean }>}
 */
export async function answer(mock, req, { record = {}, origin }) {
  const reenter = (/** @type {any} */ member, /** @type {Record<string, any> | undefined} */ memberRecord) =>
    answer(mock, member, { origin, record: memberRecord });
  const ctx = /** @type {RequestContext} */ ({ mock, req, record, origin, state: mock.state, headers: req.headers, reenter });
  for (const step of STEPS) {
    const found = await step(ctx);
    if (found) return { consumed: ctx.consumed, ...finish(ctx, found) };
  }
  throw new Error('no step of the request path answered');
}

/** @param {RequestContext} ctx @param {any} found @returns {PathAnswer} */
function finish(ctx, found) {
  if (!ctx.resource || found.unchecked || found.fault) return found;
  const done = ctx.handler?.decorate ? ctx.handler.decorate(ctx, found) : found;
  const broken = prism.check(ctx.resource, done);
  if (broken.length)
    throw new Error(`the answer ${done.status} breaks ${ctx.doc.api.name}: ${broken.map((v) => `${(v.path ?? []).join('.')} ${v.message}`).join('; ')}`);
  if (done.status >= 500 && !(ctx.prefer.code >= 500))
    process.stderr.write(`mock: ${ctx.req.method} ${ctx.req.url} answered ${done.status} unasked (a mock bug)\n`);
  const violations = ctx.validations.map((v) => ({
    location: ['request', ...(v.path ?? [])],
    severity: ['Error', 'Warning', 'Information', 'Hint'][v.severity],
    code: v.code,
    message: v.message,
  }));
  return { ...done, violations };
}
