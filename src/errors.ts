/**
 * The one error type the clients throw.
 *
 * Rule: an HTTP answer is never thrown. Whatever the status, a call resolves to
 * `{ ok, data, error, response }` (see src/index.ts). A ClientError is
 * thrown (the promise rejects) only when there is no usable HTTP answer: the request
 * was refused before sending (a bad parameter, token or option), the network failed,
 * the per-request timeout or the caller's signal fired, a success answer carried a
 * body that is not JSON, the body was over the size limit, the answer was a redirect,
 * or a helper that cannot return an error value (the paging
 * iterator) met an error status.
 *
 * Messages name the method, the path template and the status, never a header: the
 * bearer token cannot end up in a message, a stack or a log line built from one.
 */
export type ClientErrorCode =
  /** An option, a path parameter or the token was refused before anything was sent. */
  | 'invalid-argument'
  /** The path and method are not one of the operations this client knows. */
  | 'unknown-operation'
  /** `getToken()` rejected or returned something that is not a token. */
  | 'token'
  /** The connection failed (DNS, refused, reset, TLS, ...). */
  | 'network'
  /** The per-request timeout (`timeoutMs`) fired. */
  | 'timeout'
  /** The caller's own `signal` fired. */
  | 'aborted'
  /** A success status came with a body that is not JSON. */
  | 'invalid-body'
  /** A `nextLink` pointed to another origin than the client's `baseUrl`. */
  | 'foreign-next-link'
  /** The answer's body was larger than `maxBodyBytes` (after decompression); not retried. */
  | 'body-too-large'
  /** The answer was a redirect (3xx): never followed, on any origin; not retried. */
  | 'redirect'
  /** The paging helper met a page that is not a page (no object, `value` not an array). */
  | 'invalid-page'
  /** The paging helper reached `maxPages` with a `nextLink` still to follow. */
  | 'page-limit'
  /** An error status met by a helper that throws instead of returning (paging, long-running operations). */
  | 'http'
  /** A long-running operation's status or Location link pointed to another origin than the client's `baseUrl`. */
  | 'foreign-poll-link'
  /** A long-running operation ended `Failed`; `body` holds the service's error (`{ error: { code, message } }`). */
  | 'operation-failed'
  /** A long-running operation ended `Canceled`; `body` holds the service's error, if it gave one. */
  | 'operation-canceled'
  /** A long-running operation was still running after `maxWaitMs` (it goes on at the service). */
  | 'poll-timeout'
  /** A status monitor answered something that is not a status (no object, no `status` string). */
  | 'invalid-status';

export interface ClientErrorDetails {
  /** The parameter or option at fault, for `invalid-argument`. */
  parameter?: string;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** The parsed error body (typed by the family's error model at the throw site). */
  body?: unknown;
  cause?: unknown;
}

export class ClientError extends Error {
  override readonly name = 'ClientError';
  readonly code: ClientErrorCode;
  // `declare`: set by Object.assign only when given, so no own `undefined` properties.
  declare readonly parameter?: string;
  declare readonly status?: number;
  declare readonly body?: unknown;

  constructor(code: ClientErrorCode, message: string, { cause, ...details }: ClientErrorDetails = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    Object.assign(this, details);
  }
}

export function isClientError(value: unknown): value is ClientError {
  return value instanceof ClientError;
}

/** Cuts the token out of a text we did not write (a cause's message). */
export function redact(text: string, token: string | undefined): string {
  return token ? text.split(token).join('[redacted]') : text;
}

/**
 * A cause we did not create (an injected fetch, a credential library) may quote the
 * request headers anywhere: its message or stack, a nested `cause`, the `errors` of an
 * AggregateError, or any property of a rejected object. The whole graph is searched
 * (own properties, enumerable or not, without running getters). If the token is found,
 * or the graph is too large to search, only a safe summary is attached: plain Errors
 * holding the redacted name, message, stack and string `code` of each link of the
 * cause chain, nothing else. So `util.inspect(error)` cannot print the token.
 */
export function scrubCause(cause: unknown, token: string | undefined): unknown {
  try {
    if (!token || !holdsToken(cause, token)) return cause;
    return summarise(cause, token, 0);
  } catch {
    // A Proxy or a getter that throws: nothing of it is kept.
    return new Error('a cause that could not be read safely');
  }
}

const MAX_NODES = 1000;
const MAX_DEPTH = 8;

function holdsToken(root: unknown, token: string): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes(token)) return true;
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    // Past this many objects the search stops and the cause is summarised instead.
    if (seen.size >= MAX_NODES) return true;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'symbol' && key.description?.includes(token)) return true;
      if (typeof key === 'string' && key.includes(token)) return true;
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) stack.push(descriptor.value);
    }
    const proto = Object.getPrototypeOf(value);
    // Objects of odd prototypes (class instances of a library) are searched as well;
    // only the built-in prototypes are skipped.
    if (proto !== null && proto !== Object.prototype && proto !== Function.prototype && !isBuiltinProto(proto)) stack.push(proto);
  }
  return false;
}

const isBuiltinProto = (proto: object) => proto === Error.prototype || proto === Array.prototype || Object.getPrototypeOf(proto) === Error.prototype;

function summarise(value: unknown, token: string, depth: number): Error {
  const source = (typeof value === 'object' && value !== null ? value : {}) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    code?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  const text = (x: unknown) => (typeof x === 'string' ? redact(x, token) : undefined);
  const message =
    text(source.message) ??
    (typeof value === 'object' && value !== null ? `a rejected ${Object.prototype.toString.call(value).slice(8, -1)}` : redact(String(value), token));
  const summary = new Error(message);
  summary.name = text(source.name) ?? 'Error';
  summary.stack = text(source.stack) ?? `${summary.name}: ${message}`;
  const code = text(source.code);
  if (code !== undefined) Object.assign(summary, { code });
  if (depth < MAX_DEPTH) {
    if (source.cause !== undefined) Object.assign(summary, { cause: summarise(source.cause, token, depth + 1) });
    if (Array.isArray(source.errors)) Object.assign(summary, { errors: source.errors.slice(0, 10).map((e) => summarise(e, token, depth + 1)) });
  }
  return summary;
}

/**
 * The error body the business-data examples and the workspace's mock use:
 * `{ error: { code, message } }`. The documented type (`BusinessCentralError`) stays
 * open, because the source does not show the body; this is what a caller narrows it to
 * before reading `error.code` (`target` when present).
 */
export interface BusinessCentralErrorBody {
  error: { code: string; message: string; target?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** True when `value` is `{ error: { code: string, message: string } }` (extra fields allowed). */
export function isBusinessCentralErrorBody(value: unknown): value is BusinessCentralErrorBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return false;
  const { code, message, target } = error as { code?: unknown; message?: unknown; target?: unknown };
  return typeof code === 'string' && typeof message === 'string' && (target === undefined || typeof target === 'string');
}
