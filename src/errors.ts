/**
 * The one error type the clients throw.
 *
 * Rule: an HTTP answer is never thrown. Whatever the status, a call resolves to
 * `{ ok, data, error, response }` (see src/index.ts). A ClientError is
 * thrown (the promise rejects) only when there is no usable HTTP answer: the request
 * was refused before sending (a bad parameter, token or option), the network failed,
 * the per-request timeout or the caller's signal fired, a success answer carried a
 * body that is not JSON, or a helper that cannot return an error value (the paging
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
  /** An error status met by a helper that throws instead of returning (paging). */
  | 'http';

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
 * request headers. If its message or stack contains the token it is not attached, so
 * attaching causes for debugging cannot leak it (its redacted message is still in ours).
 */
export function scrubCause(cause: unknown, token: string | undefined): unknown {
  const text = cause instanceof Error ? `${cause.message}${cause.stack}` : String(cause);
  return token && text.includes(token) ? undefined : cause;
}
