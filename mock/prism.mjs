// The one place the mock meets Prism (pinned against prism-http 5.12.0, prism-core 5.8.0;
// the mocker and the validator are its private dist/ modules). Prism does what it is good
// at, each part called by the request path (request-path.mjs) where its step stands:
//   operationsOf   Prism's operation model of a document (documents.mjs, per document)
//   validate       its router and request validation (parameters, body, security)
//   mock           its mocker, for an explicit `Prefer` (example=, code=, dynamic=true),
//                  with the fixes its mocker needs; and the documented example when no
//                  convention covers the operation
//   check          its output validation of the answer, against its own document
//   contentType    the Content-Type parser Prism itself uses (the guards parse with it)
// What Prism refuses comes back as the family's error (errors.mjs), never as Prism's
// problem+json or placeholders.
import { createRequire, Module } from 'node:module';
import { askedError, familyError } from './errors.mjs';

const require = createRequire(import.meta.url);
withEnglishFaker(() => require('@stoplight/prism-http/dist/mocker'));
const { getHttpOperationsFromSpec, ProblemJsonError, NOT_FOUND } = require('@stoplight/prism-http');
const { createLogger } = require('@stoplight/prism-core');
const route = require('@stoplight/prism-http/dist/router').default;
const prismMock = require('@stoplight/prism-http/dist/mocker').default;
const { validateInput, validateOutput, validateSecurity } = require('@stoplight/prism-http/dist/validator');

/**
 * Loads Prism's mocker with a faker of its own, English only. Its data generator requires
 * `@faker-js/faker` whole, which builds every one of faker's 57 locales (1.1 s of CPU on
 * Node 20, a third of a mock's start-up), and uses its default instance, whose locale is
 * English. Only while the mocker loads does that module answer with
 * `@faker-js/faker/locale/en` (the same Faker, English only); the entry is then put back
 * as it was, so any other code of the process that requires faker gets the whole package,
 * before the mock or after it. Prism's instance is its own either way (docs/mock.md):
 * dynamic answers are seeded with `Prefer: dynamic=true; seed=…`, not through the
 * process's faker. Where Prism's mocker is loaded already, it is used as it is.
 * @param {() => unknown} load
 */
function withEnglishFaker(load) {
  let whole;
  let english;
  try {
    const generator = require.resolve('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js');
    const prism = createRequire(generator);
    whole = prism.resolve('@faker-js/faker');
    if (!require.cache[generator]) english = prism('@faker-js/faker/locale/en');
  } catch {
    // another Prism or faker than the pinned ones, laid out otherwise: loaded as it is
  }
  if (!whole || !english) return load();
  const previous = require.cache[whole];
  const stand = new Module(whole);
  Object.assign(stand, { filename: whole, loaded: true, exports: { __esModule: true, default: english, faker: english } });
  require.cache[whole] = stand;
  try {
    return load();
  } finally {
    if (require.cache[whole] === stand) {
      if (previous) require.cache[whole] = previous;
      else delete require.cache[whole];
    }
  }
}

/** The Content-Type parser Prism itself uses, from prism-http's own dependencies. */
export const contentType = createRequire(require.resolve('@stoplight/prism-http'))('content-type');

const ERROR = 0; // DiagnosticSeverity.Error
const DYNAMIC_ATTEMPTS = 10;
const left = (error) => ({ _tag: 'Left', left: error });
const lefts = (either) => (either._tag === 'Left' ? either.left : []);

/**
 * Prism's operations of a document, their paths with the document's prefix.
 * @param {object} document
 * @param {string} prefix
 */
export async function operationsOf(document, prefix) {
  const list = await getHttpOperationsFromSpec(document);
  for (const operation of list) operation.path = prefix + operation.path;
  return list;
}

/**
 * The log of one mock's Prism at `logLevel` (pino, 'silent' by default; prism-core's
 * logger is pino plus the level `success` Prism calls).
 * @param {string} logLevel
 */
export const createLog = (logLevel) => createLogger('MOCK', { level: logLevel }, process.stderr).child({ name: 'NEGOTIATOR' });

/**
 * Routes `input` to `operation` and validates it as prism-core does (security, then the
 * request): { resource, validations }, or { failure } with the family's error.
 * @param {any} ctx the request's context (family, prefer, headers)
 * @param {any} operation Prism's operation
 * @param {any} input Prism's request: { method, url: { path, baseUrl, query }, headers, body }
 */
export function validate(ctx, operation, input) {
  const routed = route({ resources: [operation], input });
  if (routed._tag === 'Left') return { failure: failure(ctx, routed.left) };
  const resource = routed.right;
  return { resource, validations: [...lefts(validateSecurity({ resource, element: input })), ...lefts(validateInput({ resource, element: input }))] };
}

/**
 * Prism's mocker for the request (ctx.resource, ctx.input, ctx.prefer, logged to
 * ctx.mock.log): an answer, or the family's error for what it refuses.
 * @param {any} ctx
 */
export function mock(ctx) {
  const { code, dynamic, exampleKey, seed } = ctx.prefer;
  const args = {
    resource: ctx.resource,
    input: { data: ctx.input, validations: ctx.validations },
    config: { dynamic: dynamic === true, code, exampleKey, seed },
  };
  const result = mockAnswer(args, ctx.mock.log);
  return result._tag === 'Left' ? failure(ctx, result.left) : result.right;
}

/**
 * The violations of `answer` against the document (errors only; an undeclared status is no error here).
 * @param {any} resource
 * @param {import('./errors.mjs').Answer} answer
 */
export const check = (resource, { status, headers, body }) =>
  lefts(validateOutput({ resource, element: { statusCode: status, headers, body } })).filter(
    (v) => v.severity === ERROR && !/Unable to match the returned status code/i.test(v.message),
  );

/**
 * What Prism refused, as the family's error (its status, else 500: thrown, a mock bug,
 * unless the request asked for a 5xx). Marked `unchecked`: not Prism's answer to check.
 */
function failure(ctx, error) {
  const status = Number.isInteger(error?.status) && error.status >= 400 ? error.status : 500;
  if (status >= 500 && !(ctx.prefer?.code >= 500)) throw error instanceof Error ? error : new Error(String(error?.detail ?? error));
  const detail = String(error.detail || error.message || error.title);
  const message =
    status === 406 ? `Accept ${JSON.stringify(String(ctx.headers.accept).slice(0, 200))} names no media type this operation answers in (${detail}).` : detail;
  return { ...familyError(ctx.family, status, message, { headers: error.additional?.headers }), unchecked: true };
}

/**
 * Prism's mocker for an explicit Prefer, with the fixes the 5.14 mocker needs: Right(answer) or Left(error).
 * @returns {{ _tag: string, left?: any, right?: any }}
 */
function mockAnswer(args, logger) {
  const { code, dynamic, exampleKey } = args.config;
  const attempt = (n) => prismMock(n === 0 ? args : { ...args, config: { ...args.config, seed: `${args.config.seed}#${n}` } })(logger);
  let result = attempt(0);
  // The generator ignores `if`/`then`/`not` (the name check's "no reason when
  // available"): generate again with another seed, then fall back to the example.
  for (let n = 1; dynamic && n < DYNAMIC_ATTEMPTS && (breaksSchema(args.resource, result) || isStatus(result, 500)); n++) result = attempt(n);
  if (dynamic && (breaksSchema(args.resource, result) || isStatus(result, 500))) {
    result = prismMock({ ...args, config: { ...args.config, dynamic: false } })(logger);
  }
  // A code and an example that do not exist together: Prism answers another status, or
  // wraps its 404 in a plain Error (a 500). Both are the 404 of an unknown example.
  const otherStatus = code !== undefined && result._tag === 'Right' && result.right.statusCode !== code;
  const what = `code=${code}${exampleKey === undefined ? '' : ` and example=${exampleKey}`}`;
  if (otherStatus) return left(ProblemJsonError.fromTemplate(NOT_FOUND, `The document has no response for ${what}.`));
  // Prism also wraps its own problems in a plain Error ("...errors#NOT_ACCEPTABLE: ..."),
  // which would become a 500: give them back their status.
  if (result._tag === 'Left' && !(result.left instanceof ProblemJsonError)) {
    const name = /errors#([A-Z_]+)/.exec(String(result.left?.message ?? result.left))?.[1];
    const status = { NOT_FOUND: 404, NO_RESPONSE_DEFINED: 404, NOT_ACCEPTABLE: 406, UNPROCESSABLE_ENTITY: 400 }[name ?? ''];
    if (status === 404) return left(ProblemJsonError.fromTemplate(NOT_FOUND, `The document has no response for ${what}.`));
    if (status) return left({ status, detail: String(result.left.message).replace(/^https:\/\/stoplight\.io\/prism\/errors#[A-Z_]+: /, '') });
  }
  if (result._tag === 'Left') return result;
  // An error status asked for without a named example: Prism fills the schema with
  // placeholders ("string", or null for an open schema). Answer the family's error.
  const status = result.right.statusCode;
  if (status >= 400 && !(fromExample(args.resource, status) && !dynamic)) {
    const headers = Object.fromEntries(Object.entries(result.right.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-type'));
    return {
      _tag: 'Right',
      right: askedError(
        status,
        `Answered ${status} because the request asked for it (Prefer: code=${status}); the source does not show this answer's body.`,
        headers,
      ),
    };
  }
  return { _tag: 'Right', right: { status, headers: result.right.headers ?? {}, body: result.right.body } };
}

function fromExample(resource, status) {
  const response = resource.responses.find((r) => r.code === String(status)) ?? resource.responses.find((r) => r.code === 'default');
  return (response?.contents ?? []).some((content) => (content.examples ?? []).length > 0);
}

function breaksSchema(resource, result) {
  return result._tag === 'Right' && lefts(validateOutput({ resource, element: result.right })).some((v) => v.severity === ERROR);
}

const isStatus = (result, status) => result._tag === 'Left' && result.left?.status === status;
