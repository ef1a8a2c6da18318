// Inputs on which Prism 5.14 would fail with a 5xx (or crash), and what the mock does
// instead. The rule: no request makes the mock fail; a 5xx comes only when the caller
// asks for one (`Prefer: code=5xx`). Each case is pinned by test/contract/no-5xx.test.ts.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const prismMock = require('@stoplight/prism-http/dist/mocker').default;
const { validateOutput } = require('@stoplight/prism-http/dist/validator');
const { ProblemJsonError, NOT_FOUND, UNPROCESSABLE_ENTITY } = require('@stoplight/prism-http');
// The parser micri uses for Content-Type, taken from prism-http-server's own dependencies.
const contentType = createRequire(require.resolve('@stoplight/prism-http-server'))('content-type');

/**
 * Looks at a request before Prism does. Rewrites what Prism would misread; answers (and
 * returns true) what Prism would turn into a 500.
 */
export function guardRequest(req, res) {
  // A scope sent with its own leading slash gives `//subscriptions/...`; Prism parses the
  // URL with new URL(url, base), which reads `//x` as a host. Keep it a path.
  if (req.url.startsWith('//')) req.url = `/%2F${req.url.replace(/^\/+/, '')}`;

  const [path, query] = splitOnce(req.url, '?');
  // Prism decodes path parameters with decodeURIComponent outside any try: a malformed
  // escape (`%E0%A4%A`) throws in its validator and takes the process down.
  try {
    decodeURIComponent(path);
  } catch {
    return problem(res, 400, 'MALFORMED_PATH', 'Malformed request path', `The path ${JSON.stringify(path)} holds a malformed percent-encoding.`);
  }
  // OData keys: `companies%28x%29` is the same resource as `companies(x)`, but Prism's
  // path-parameter parser only knows the literal parentheses of the template. Only the
  // key's own parentheses are decoded (after a segment's name, at a segment's end): an
  // encoded parenthesis inside a key value stays part of the value.
  const odata = path.replace(/(\/[A-Za-z][\w.]*)%28/gi, '$1(').replace(/%29(?=\/|$)/gi, ')');
  if (odata !== path) req.url = odata + (query === undefined ? '' : `?${query}`);

  // micri parses Content-Type without a try when it reads a body: an unparsable one
  // ('///') becomes an unhandled 500.
  const header = req.headers['content-type'];
  if (header !== undefined && hasBody(req)) {
    try {
      contentType.parse(header);
    } catch {
      return problem(res, 415, 'INVALID_CONTENT_TYPE', 'Invalid content type', `Content-Type ${JSON.stringify(header)} is not a media type.`);
    }
  }
  return false;
}

/**
 * A Prism `mock` component: Prism's mocker, with three answers changed.
 * - `Prefer: code=<n>` outside 100-599: Node cannot send it (RangeError -> 500); 422.
 * - A code and an example that do not exist together: Prism either answers another
 *   status (the example under the lowest 2xx) or wraps its 404 in a plain Error, which
 *   becomes a 500 "UNKNOWN". Both become the 404 an unknown example gets.
 * - Dynamic data that breaks its schema: the generator ignores `if`/`then`/`not` (the
 *   name check's "no reason when available"), and with errors on that is a 500. Generate
 *   again (it is random), and after a few tries answer the static example instead.
 */
export function guardedMock(args) {
  return (logger) => {
    const { code, dynamic } = args.config;
    if (code !== undefined && (code < 100 || code > 599)) {
      return left(ProblemJsonError.fromTemplate(UNPROCESSABLE_ENTITY, `Prefer code=${code} is not an HTTP status (100-599).`));
    }
    let result = prismMock(args)(logger);
    for (let attempt = 1; dynamic && attempt < DYNAMIC_ATTEMPTS && breaksSchema(args.resource, result); attempt++) {
      result = prismMock(args)(logger);
    }
    if (dynamic && (breaksSchema(args.resource, result) || isStatus(result, 500))) {
      result = prismMock({ ...args, config: { ...args.config, dynamic: false } })(logger);
    }
    const valid = !args.input.validations.some((v) => v.severity === 0 /* DiagnosticSeverity.Error */);
    const otherStatus = valid && code !== undefined && result._tag === 'Right' && result.right.statusCode !== code;
    if (otherStatus || (result._tag === 'Left' && !(result.left instanceof ProblemJsonError) && /NOT_FOUND/.test(String(result.left)))) {
      const asked = `code=${code}${args.config.exampleKey === undefined ? '' : ` and example=${args.config.exampleKey}`}`;
      return left(ProblemJsonError.fromTemplate(NOT_FOUND, `The document has no response for ${asked}.`));
    }
    return result;
  };
}

const DYNAMIC_ATTEMPTS = 10;

function breaksSchema(resource, result) {
  if (result._tag !== 'Right') return false;
  const validation = validateOutput({ resource, element: result.right });
  return validation._tag === 'Left' && validation.left.some((v) => v.severity === 0 /* DiagnosticSeverity.Error */);
}

// Dynamic generation of a schema too complex for the generator is Prism's 500 SCHEMA_TOO_COMPLEX.
const isStatus = (result, status) => result._tag === 'Left' && result.left?.status === status;

const left = (error) => ({ _tag: 'Left', left: error });

function hasBody(req) {
  // The same test prism-http-server applies before it reads a body.
  return req.headers['content-length'] !== '0' && (req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined);
}

function splitOnce(text, separator) {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Answers in the problem+json form Prism uses for its own errors. */
function problem(res, status, type, title, detail) {
  const body = JSON.stringify({ type: `https://stoplight.io/prism/errors#${type}`, title, status, detail });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  return true;
}
