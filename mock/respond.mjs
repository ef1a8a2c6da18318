// The Prism `mock` component of the mock: what answers a request once Prism has routed
// it (to one document's operation) and validated it (parameters, body, security).
//   - an invalid request: the family's error (or the operation's own, e.g. the name
//     check's 400s), naming the violations -- never Prism's placeholders;
//   - `Prefer: example=`, `code=`, `dynamic=true`: Prism's mocker, as Prism answers it,
//     except that an error status without a named example gets a family error body;
//   - anything else: the operation's handler (conventions/index.mjs: a rule of the source
//     or the family's convention), when it has one, else the document's default example.
// Pinned against prism-http 5.12.0 (its mocker and output validator).
import { createRequire } from 'node:module';
import { STATUS_CODES } from 'node:http';
import { describeViolations, errorAnswer, familyError, parameterNames } from './errors.mjs';

const require = createRequire(import.meta.url);
const prismMock = require('@stoplight/prism-http/dist/mocker').default;
const { validateOutput } = require('@stoplight/prism-http/dist/validator');
const { ProblemJsonError, NOT_FOUND } = require('@stoplight/prism-http');

const ERROR = 0; // DiagnosticSeverity.Error
const DYNAMIC_ATTEMPTS = 10;
const right = (answer) => ({ _tag: 'Right', right: { statusCode: answer.status, headers: answer.headers, body: answer.body } });
const left = (error) => ({ _tag: 'Left', left: error });

/** The component; the request's context travels in config.ctx (set by server.mjs). */
export function mockComponent({ resource, input, config }) {
  return (logger) => {
    const ctx = { ...config.ctx, body: input.data.body, validations: input.validations };
    const behaviour = config.ctx.handler;
    const decorate = (result) => (behaviour?.decorate && result._tag === 'Right' ? right(fromPrism(behaviour.decorate(ctx, toAnswer(result.right)))) : result);

    if (input.validations.some((v) => v.severity === ERROR)) return decorate(right(rejected(ctx, behaviour, input.validations)));
    const asked = config.code !== undefined || config.exampleKey !== undefined || config.dynamic === true;
    if (!asked && behaviour?.respond) return decorate(right(behaviour.respond(ctx)));
    return decorate(prismAnswer({ resource, input, config }, logger, ctx));
  };
}

const toAnswer = (r) => ({ status: r.statusCode, headers: r.headers ?? {}, body: r.body });
const fromPrism = (a) => a;

function rejected(ctx, behaviour, validations) {
  const security = validations.find((v) => v.code === 401);
  if (security) {
    const challenge = (security.tags ?? []).join(',') || 'Bearer';
    return familyError(ctx.family, 401, 'The request carries no valid credentials: send Authorization: Bearer <token>.', { headers: { 'www-authenticate': challenge } });
  }
  if (behaviour?.rejected) return behaviour.rejected(ctx);
  const mediaType = validations.find((v) => v.code === 415);
  if (mediaType) return familyError(ctx.family, 415, `${mediaType.message}.`.replace(/\.\.$/, '.'));
  const body = validations.some((v) => v.path?.[0] === 'body');
  const code = ctx.family === 'resource-manager' ? (body ? 'InvalidRequestContent' : 'InvalidParameter') : 'BadRequest';
  return familyError(ctx.family, 400, `The request is invalid: ${describeViolations(validations, parameterNames(ctx))}.`, { code });
}

/** Prism's mocker for an explicit Prefer, with the fixes the 5.14 mocker needs. */
function prismAnswer(args, logger, ctx) {
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
    const status = { NOT_FOUND: 404, NO_RESPONSE_DEFINED: 404, NOT_ACCEPTABLE: 406, UNPROCESSABLE_ENTITY: 400 }[name];
    if (status === 404) return left(ProblemJsonError.fromTemplate(NOT_FOUND, `The document has no response for ${what}.`));
    if (status) return left({ status, detail: String(result.left.message).replace(/^https:\/\/stoplight\.io\/prism\/errors#[A-Z_]+: /, '') });
  }
  // An error status asked for without a named example: Prism fills the schema with
  // placeholders ("string", or null for an open schema). Answer the family's error.
  if (result._tag === 'Right' && result.right.statusCode >= 400 && !(fromExample(args.resource, result.right.statusCode) && !dynamic)) {
    const status = result.right.statusCode;
    const name = (STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? '').toUpperCase());
    return right(errorAnswer(status, name, `Answered ${status} because the request asked for it (Prefer: code=${status}); the source does not show this answer's body.`, { headers: pickHeaders(result.right.headers) }));
  }
  return result;
}

const pickHeaders = (headers = {}) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));

function responseFor(resource, status) {
  return resource.responses.find((r) => r.code === String(status)) ?? resource.responses.find((r) => r.code === 'default');
}

function fromExample(resource, status) {
  return (responseFor(resource, status)?.contents ?? []).some((content) => (content.examples ?? []).length > 0);
}

function breaksSchema(resource, result) {
  if (result._tag !== 'Right') return false;
  const validation = validateOutput({ resource, element: result.right });
  return validation._tag === 'Left' && validation.left.some((v) => v.severity === ERROR);
}

const isStatus = (result, status) => result._tag === 'Left' && result.left?.status === status;
