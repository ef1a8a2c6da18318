/**
 * The client's options: what a caller may give `createResourceManagerClient` and
 * `createBusinessCentralClient`, and their checks. Every option is refused with a
 * ClientError `invalid-argument` naming it before anything is sent; `readOptions` turns
 * what was given into the settings the core runs with.
 */
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { credentialGetToken, isToken, type TokenCredentialLike } from './credentials.js';
import { ClientError } from './errors.js';

export interface ClientOptions {
  /** Origin of the service, e.g. `https://management.example.com` (a path prefix is allowed). */
  baseUrl: string;
  /** A bearer token, used as is for every request. Give this or `getToken`. */
  token?: string;
  /** Returns a bearer token; called before every attempt, so it can refresh or cache. */
  getToken?: () => string | Promise<string>;
  /**
   * A credential shaped like Azure's `TokenCredential` (`getToken(scopes)` resolving to
   * `{ token, expiresOnTimestamp }`), asked for `scopes`. Its token is cached and reused
   * until two minutes before `expiresOnTimestamp`; concurrent calls share one request.
   * Give exactly one of `token`, `getToken` and `credential`.
   */
  credential?: TokenCredentialLike;
  /**
   * The scopes `credential` is asked for, e.g. `['https://management.example.com/user_impersonation']`.
   * The documents name only the scope `user_impersonation`; the full strings are the caller's.
   */
  scopes?: string | readonly string[];
  /**
   * A fetch to use instead of `globalThis.fetch` (e.g. `createNodeHttpFetch()`, or a test
   * double). If it has a `Request` property, requests are built with that class.
   */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers for every request (a per-request `headers` or `params.header` wins). */
  headers?: Record<string, string>;
  /**
   * Time limit of each attempt in milliseconds, `getToken()` and the body included.
   * Default 30 000; 0 turns it off. More than 2 147 483 647 (Node's largest timer,
   * about 24.8 days; `Infinity` included) is refused.
   */
  timeoutMs?: number;
  /**
   * Largest answer body read, in bytes, counted after decompression. Default 32 MiB.
   * A larger body rejects with ClientError `body-too-large`, not retried.
   */
  maxBodyBytes?: number;
  /**
   * Retries of idempotent requests (GET, HEAD, OPTIONS, PUT, DELETE) after a network
   * failure or a 408/429/500/502/503/504. Default `{ retries: 2, delayMs: 500, maxDelayMs: 30 000 }`;
   * `false` turns them off. A Retry-After longer than `maxDelayMs` is not waited for:
   * the answer is returned as is. `maxDelayMs` above 2 147 483 647 (`Infinity` included)
   * is clamped to it (Node's largest timer).
   */
  retry?: false | { retries?: number; delayMs?: number; maxDelayMs?: number };
  /**
   * The version to send per API (the key before `@` in redocly.yaml), e.g.
   * `{ sql: '2025-01-01' }`. An API left out is sent with its default: the newest
   * version that is not a preview. The client is typed by exactly these versions; the
   * types refuse a version the package does not hold. At run time (untyped callers) a
   * pin is checked by its shape only (`YYYY-MM-DD[-preview]`, `vN.N`) and sent as is.
   */
  apiVersions?: Readonly<Record<string, string>>;
}

export type Family = 'resource-manager' | 'business-central';

const MAX_RETRIES = 10;
/** Node's largest timer delay: setTimeout fires after 1 ms for anything above it. */
export const MAX_TIMER = 2 ** 31 - 1;

export function refuseOption(parameter: string, why: string): never {
  throw new ClientError('invalid-argument', `Option "${parameter}" ${why}.`, { parameter });
}

function parseBaseUrl(value: unknown): URL {
  const url = URL.canParse(String(value)) ? new URL(String(value)) : undefined;
  // Credentials, a query or a fragment in baseUrl would be sent (or lost) with every call.
  if (typeof value !== 'string' || !/^https?:$/.test(url?.protocol ?? '') || url!.username || url!.password || url!.search || url!.hash) {
    refuseOption('baseUrl', 'must be an http(s) URL without credentials, query or fragment');
  }
  return url!;
}

function retrySettings(retry: ClientOptions['retry']) {
  if (retry === false) return { retries: 0, delayMs: 0, maxDelayMs: 0 };
  const retries = retry?.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES) {
    refuseOption('retry.retries', `must be an integer, 0 to ${MAX_RETRIES}`);
  }
  const delayMs = retry?.delayMs ?? 500;
  const maxDelayMs = retry?.maxDelayMs ?? 30_000;
  if (!(delayMs >= 0)) refuseOption('retry.delayMs', 'must be 0 or more');
  if (!(maxDelayMs >= 0)) refuseOption('retry.maxDelayMs', 'must be 0 or more');
  // Clamped, not refused: "wait as long as the server asks" is a fair wish, and the
  // timer cannot express more than this anyway.
  return { retries, delayMs: Math.min(delayMs, MAX_TIMER), maxDelayMs: Math.min(maxDelayMs, MAX_TIMER) };
}

/** The settings the core runs with, every option checked. */
export function readOptions(options: ClientOptions) {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const { token, credential } = options;
  const given = [token, options.getToken, credential].filter((x) => x !== undefined).length;
  if (given !== 1) refuseOption('token', given ? 'or "getToken" or "credential": give exactly one' : 'or "getToken" or "credential" is required');
  if (token !== undefined && !isToken(token)) refuseOption('token', 'must be visible ASCII without spaces');
  if (credential !== undefined && typeof (credential as Partial<TokenCredentialLike> | null)?.getToken !== 'function')
    refuseOption('credential', 'must have a getToken(scopes) method');
  const scopes = options.scopes === undefined ? [] : typeof options.scopes === 'string' ? [options.scopes] : [...options.scopes];
  if (credential !== undefined && (!scopes.length || scopes.some((s) => typeof s !== 'string' || !s.trim()))) {
    refuseOption('scopes', 'must name the scopes to ask the credential for (one or more non-empty strings)');
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Refused, not clamped: a call that may run for 24 days is not what anyone asked for.
  if (!(timeoutMs >= 0 && timeoutMs <= MAX_TIMER)) refuseOption('timeoutMs', `must be 0 (off) to ${MAX_TIMER}`);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) refuseOption('maxBodyBytes', 'must be a positive integer');
  return {
    baseUrl,
    base: baseUrl.href.replace(/\/+$/, ''),
    token,
    getToken: credential !== undefined ? credentialGetToken(credential, scopes) : options.getToken,
    timeoutMs,
    maxBodyBytes,
    ...retrySettings(options.retry),
  };
}
