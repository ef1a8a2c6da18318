/**
 * What both families share: one openapi-fetch client per factory call, wrapped so that
 * every call gets, in this order,
 *   1. its operation looked up in generated/client-manifest.ts (api-version, or the
 *      /api/<version> prefix of business data),
 *   2. a fresh bearer token (`getToken()` runs per attempt, so tokens can refresh),
 *   3. its own AbortSignal (timeout per attempt, joined to the caller's signal),
 *   4. bounded retries for idempotent methods only, honouring Retry-After,
 *   5. a result whose `ok` comes from the status, and an error body that is never
 *      empty or a bare string;
 *   6. no redirect followed (any 3xx is a ClientError `redirect`), and every body read
 *      under `maxBodyBytes` (src/body.ts).
 * The wrapper calls openapi-fetch directly (no middleware): middleware would cost a
 * Request clone and a random id per call, and the point is to stay within 10 % of it.
 */
import createClient from 'openapi-fetch';
import { apis } from '../generated/client-manifest.js';
import { DEFAULT_MAX_BODY_BYTES, limitBody } from './body.js';
import { ClientError, redact, scrubCause } from './errors.js';
import { serializePath } from './path-serializer.js';

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

/** What `credential` takes: the shape of Azure's `TokenCredential` (no dependency on it). */
export interface TokenCredentialLike {
  getToken(scopes: string | string[], options?: { abortSignal?: AbortSignal }): Promise<{ token: string; expiresOnTimestamp: number } | null>;
}

/** A cached token is renewed this long before it expires. */
const TOKEN_REFRESH_MARGIN_MS = 2 * 60_000;

/**
 * `getToken` over a TokenCredential: its answer is cached until shortly before it
 * expires, and calls while a request is under way share it. A failed request is not
 * cached (the next call asks again).
 */
function credentialGetToken(credential: TokenCredentialLike, scopes: string[]): () => Promise<string> {
  let cached: { token: string; expiresOnTimestamp: number } | undefined;
  let pending: Promise<string> | undefined;
  return () => {
    if (cached && Date.now() < cached.expiresOnTimestamp - TOKEN_REFRESH_MARGIN_MS) return Promise.resolve(cached.token);
    pending ??= Promise.resolve()
      .then(() => credential.getToken(scopes.length === 1 ? scopes[0]! : scopes))
      .then((answer) => {
        if (!answer || typeof answer.token !== 'string') throw new Error('the credential returned no token');
        cached = { token: answer.token, expiresOnTimestamp: Number(answer.expiresOnTimestamp) || 0 };
        return answer.token;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

interface OperationInfo {
  /** The API (before `@`) and the version this client sends it with. */
  apiName: string;
  version: string;
  apiVersion?: string;
  prefix?: string;
  /** "POST https://host/path-template", for messages; built once, not per call. */
  what: string;
}

/** On each Response: the URL its request went to (the paging helper remembers it). */
export const SENT_URL = Symbol('sentUrl');

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
// RFC 6750 b64token is stricter; visible ASCII without spaces is enough to rule out
// header injection and to keep Headers from throwing a message that quotes the value.
const isToken = (value: unknown): value is string => typeof value === 'string' && /^[\x21-\x7e]+$/.test(value);
const MAX_RETRIES = 10;
/** Node's largest timer delay: setTimeout fires after 1 ms for anything above it. */
const MAX_TIMER = 2 ** 31 - 1;
// A header value the fetch Headers class accepts (a ByteString without NUL, CR or LF).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function refuseOption(parameter: string, why: string): never {
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

/** Milliseconds to wait before the next attempt, or undefined to stop retrying. */
function retryDelay(response: Response, attempt: number, delayMs: number, maxDelayMs: number): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header !== null) {
    const seconds = Number(header);
    const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (!Number.isNaN(wait)) return wait > maxDelayMs ? undefined : Math.max(0, wait);
  }
  return backoff(attempt, delayMs, maxDelayMs);
}

// Exponential backoff with jitter, so many clients do not retry in step.
function backoff(attempt: number, delayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, delayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/** Waits before a retry; the caller's signal ends the wait (and the call). */
async function pause(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  if (ms > 0) {
    const wait = attemptAbort(ms, signal, false)!;
    await new Promise((resolve) => wait.signal!.addEventListener('abort', resolve, { once: true }));
    wait.done();
  }
  if (signal?.aborted) throw aborted(what, signal);
}

const aborted = (what: string, signal: AbortSignal) =>
  new ClientError('aborted', `${what} was aborted by the caller.`, { cause: signal.reason });

/**
 * One AbortSignal per attempt: fired by the attempt's timer or by the caller's signal.
 *
 * Two Node details shape this. (1) A Request built with a signal follows it only while
 * the Request object is alive (undici keeps its inner AbortController on the Request
 * and reaches it through a WeakRef); a custom fetch that keeps just `request.signal`
 * would never see the abort once the Request is collected. So the attempt holds the
 * Request it sent (`sent`) from the timer and from the caller-signal listener.
 * (2) Likewise a plain setTimeout is used rather than AbortSignal.timeout(), whose
 * signal Node holds weakly. Timer and listener are removed as soon as the attempt
 * settles, so a long-lived caller signal does not accumulate listeners.
 */
function attemptAbort(timeoutMs: number, callerSignal: AbortSignal | undefined, requestsAbort: boolean) {
  if (timeoutMs <= 0 && !callerSignal) return undefined;
  // With a Request class that can abort itself (createNodeHttpFetch's), the timer calls
  // `sent.abort()` and the caller's signal is handed on as is: no AbortController.
  const controller = requestsAbort ? undefined : new AbortController();
  const attempt = {
    signal: controller ? controller.signal : callerSignal,
    sent: undefined as (Request & { abort?: (reason: unknown) => void }) | undefined,
    timedOut: false,
    /** Rejects the current race() (getToken), if any. */
    interrupt: undefined as (() => void) | undefined,
    callerSignal,
    done() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
  // Both closures below share this scope, so each keeps `attempt` (and `sent`) alive.
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          attempt.timedOut = true;
          attempt.interrupt?.();
          const reason = new DOMException('timeout', 'TimeoutError');
          if (controller) controller.abort(reason);
          else attempt.sent?.abort?.(reason);
        }, timeoutMs)
      : undefined;
  const onCallerAbort = () => controller!.abort(callerSignal!.reason);
  if (controller) callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return attempt;
}

/** Settles with `promise`, or rejects when the attempt's timer or the caller's signal fires first. */
function race<T>(attempt: NonNullable<ReturnType<typeof attemptAbort>>, promise: Promise<T>): Promise<T> {
  const { callerSignal } = attempt;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new DOMException('stopped', 'AbortError'));
    attempt.interrupt = stop;
    callerSignal?.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => {
      attempt.interrupt = undefined;
      callerSignal?.removeEventListener('abort', stop);
    });
  });
}

/** openapi-fetch gives `""`, `undefined` or the raw text when an error body is not JSON. */
function errorBody(error: unknown, response: Response): unknown {
  if (error !== undefined && typeof error !== 'string') return error;
  // Shaped like CloudError/ErrorResponse ({ error: { code, message } }) so code written
  // against the family's error model reads it without a special case.
  return {
    error: {
      code: error ? 'NonJsonErrorBody' : 'EmptyErrorBody',
      message: `HTTP ${response.status} ${response.statusText}: ${error ? 'the body is not JSON' : 'empty body'}.`,
    },
  };
}

/** "fetch failed (ECONNREFUSED)": undici puts the system error code on the cause. */
function describeCause(cause: any, token: string | undefined): string {
  try {
    const code = cause?.cause?.code ?? cause?.code;
    const message = typeof cause?.message === 'string' ? cause.message : Object.prototype.toString.call(cause);
    return redact(`${message}${typeof code === 'string' ? ` (${code})` : ''}`, token);
  } catch {
    return 'an unreadable error';
  }
}

const entriesOf = (value: unknown): Array<[string, unknown]> =>
  value instanceof Headers ? [...value] : typeof value === 'object' && value !== null ? Object.entries(value) : [];

const wellFormed = (value: string) => {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * The request failed before it reached the fetch: which argument was at fault? Run only
 * after such a failure, so a good call pays nothing for it. Values are never quoted (a
 * header may hold a secret); the parameter is named.
 */
function diagnose(init: Record<string, any>, headers: unknown): [parameter: string, why: string] {
  if (init.body !== undefined && init.bodySerializer === undefined) {
    try {
      JSON.stringify(init.body);
    } catch {
      return ['body', 'cannot be serialised as JSON'];
    }
  }
  const sources: Array<[string, unknown]> = [['headers', headers], ['headers', init.headers], ['params.header', init.params?.header]];
  for (const [where, source] of sources) {
    for (const [name, value] of entriesOf(source)) {
      if (value === undefined || value === null) continue;
      if (!HEADER_NAME.test(name)) return [where, 'has a header name that is not a valid token'];
      if (!HEADER_VALUE.test(String(value))) return [`${where}.${name}`, 'is not a valid header value'];
    }
  }
  for (const [name, value] of entriesOf(init.params?.query)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && !wellFormed(v))) return [`params.query.${name}`, 'is not well-formed Unicode'];
  }
  return ['request', 'could not be built'];
}

/**
 * The shape of a version per family. Every version the workspace holds has it
 * (scripts/manifest.mjs refuses to generate otherwise, with the same expressions).
 */
export const VERSION_SHAPES: Readonly<Record<Family, RegExp>> = {
  'resource-manager': /^\d{4}-\d\d-\d\d(-preview)?$/,
  'business-central': /^v\d+\.\d+$/,
};

/**
 * One API in generated/client-manifest.ts: its default, and its operations with the version
 * an unpinned client sends each at (the newest non-preview version declaring it; null when
 * only previews declare it).
 */
interface HeldApi {
  default: string | null;
  operations: Readonly<Record<string, string | null>>;
}

/**
 * The versions pinned in `apiVersions`, checked: an API the family does not have is
 * refused, and a version not shaped like one of the family's. Which versions the package
 * holds is the types' business (compile time): that list grows with every version, and
 * an app would pay for it in bytes. A well-formed version the server does not serve is
 * sent as is, and the server says so.
 */
function pinnedVersions(family: Family, pins: ClientOptions['apiVersions']): Map<string, string> {
  if (pins !== undefined && (pins === null || typeof pins !== 'object' || Array.isArray(pins))) {
    refuseOption('apiVersions', 'must be an object');
  }
  const pinned = new Map<string, string>();
  for (const [apiName, version] of Object.entries(pins ?? {})) {
    if (!Object.hasOwn(apis[family], apiName)) refuseOption(`apiVersions.${apiName}`, `names no ${family} API (${Object.keys(apis[family]).join(', ')})`);
    if (version === undefined) continue;
    if (typeof version !== 'string' || !VERSION_SHAPES[family].test(version)) {
      refuseOption(`apiVersions.${apiName}`, `must be a ${family} version: ${family === 'resource-manager' ? 'YYYY-MM-DD or YYYY-MM-DD-preview' : 'vN.N'}`);
    }
    pinned.set(apiName, version);
  }
  return pinned;
}

export type Send = (method: string, path: string, init?: Record<string, any>) => Promise<any>;

export interface Core {
  /** Calls an operation of the manifest by its path template. */
  send: Send;
  /** Calls an absolute URL on the client's origin (for nextLink), with auth, timeout and retries. */
  sendUrl(url: URL, init?: Record<string, any>): Promise<any>;
  /** The origin every request goes to; nextLinks elsewhere are refused. */
  origin: string;
  /** The base URL without a trailing slash. */
  base: string;
  operation(method: string, path: string): OperationInfo | undefined;
  use(...middleware: any[]): void;
  eject(...middleware: any[]): void;
}

export function createCore(options: ClientOptions, family: Family): Core {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const base = baseUrl.href.replace(/\/+$/, '');
  const { token, credential } = options;
  const given = [token, options.getToken, credential].filter((x) => x !== undefined).length;
  if (given !== 1) refuseOption('token', given ? 'or "getToken" or "credential": give exactly one' : 'or "getToken" or "credential" is required');
  if (token !== undefined && !isToken(token)) refuseOption('token', 'must be visible ASCII without spaces');
  if (credential !== undefined && typeof (credential as Partial<TokenCredentialLike> | null)?.getToken !== 'function') refuseOption('credential', 'must have a getToken(scopes) method');
  const scopes = options.scopes === undefined ? [] : typeof options.scopes === 'string' ? [options.scopes] : [...options.scopes];
  if (credential !== undefined && (!scopes.length || scopes.some((s) => typeof s !== 'string' || !s.trim()))) {
    refuseOption('scopes', 'must name the scopes to ask the credential for (one or more non-empty strings)');
  }
  const getToken = credential !== undefined ? credentialGetToken(credential, scopes) : options.getToken;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Refused, not clamped: a call that may run for 24 days is not what anyone asked for.
  if (!(timeoutMs >= 0 && timeoutMs <= MAX_TIMER)) refuseOption('timeoutMs', `must be 0 (off) to ${MAX_TIMER}`);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) refuseOption('maxBodyBytes', 'must be a positive integer');
  const { retries, delayMs, maxDelayMs } = retrySettings(options.retry);

  const pinned = pinnedVersions(family, options.apiVersions);
  // "METHOD path" -> the operation at the version this client sends it with: the pinned
  // version of its API, else the operation's own target (the newest non-preview version
  // that declares it); or, for an operation only previews declare on an unpinned client,
  // why not (for the error). A pinned API sends every operation of its API: the types
  // refuse one the pinned version lacks, and the server answers it otherwise.
  const ops = new Map<string, OperationInfo>();
  const unsendable = new Map<string, string>();
  for (const [apiName, held] of Object.entries(apis[family] as Record<string, HeldApi>)) {
    for (const [key, target] of Object.entries(held.operations)) {
      const version = pinned.get(apiName) ?? target;
      if (!version) {
        unsendable.set(key, `${key} is only in preview versions of ${apiName}; pin one that has it: apiVersions: { ${apiName}: '...' }.`);
        continue;
      }
      const prefix = family === 'business-central' ? `/api/${version}` : '';
      const space = key.indexOf(' ');
      ops.set(key, {
        apiName,
        version,
        apiVersion: family === 'resource-manager' ? version : undefined,
        prefix,
        what: `${key.slice(0, space)} ${base}${prefix}${key.slice(space + 1)}`,
      });
    }
  }

  // Read once, like openapi-fetch does: a test double or polyfill must be in place first.
  const baseFetch: (request: Request, ext?: any) => Promise<Response> = options.fetch ?? globalThis.fetch;
  // A fetch may bring the Request class it wants to receive (createNodeHttpFetch does).
  const RequestClass = (options.fetch as { Request?: typeof Request } | undefined)?.Request;
  const requestsAbort = typeof (RequestClass?.prototype as { abort?: unknown } | undefined)?.abort === 'function';
  const inner = createClient<any>({ baseUrl: base, pathSerializer: serializePath, fetch: baseFetch, headers: options.headers, Request: RequestClass });

  async function bearer(what: string, attempt: ReturnType<typeof attemptAbort>): Promise<string> {
    let value: unknown;
    try {
      // Bounded by the attempt's timer and the caller's signal: a getToken() that never
      // settles must not hang the call.
      const pending = Promise.resolve().then(getToken!);
      value = await (attempt ? race(attempt, pending) : pending);
    } catch (cause) {
      if (attempt?.timedOut || attempt?.signal?.aborted) throw cause; // reported by execute()
      throw new ClientError('token', `${what}: getToken() failed; nothing sent.`, { cause });
    }
    if (!isToken(value)) throw new ClientError('token', `${what}: getToken() returned no usable token; nothing sent.`);
    return value;
  }

  async function execute(method: string, path: string, init: Record<string, any>, what: string): Promise<any> {
    if (init.pathSerializer !== undefined) {
      // A serializer builds the whole URL (baseUrl included), so it could send the token
      // to any host: refused for the same reason as a per-request baseUrl.
      throw new ClientError('invalid-argument', `${what}: no per-request pathSerializer.`, { parameter: 'pathSerializer' });
    }
    const callerSignal: AbortSignal | undefined = init.signal;
    const callerFetch = init.fetch ?? baseFetch;
    const params = init.params ?? {};
    // We parse JSON success bodies ourselves (parseAs "text") to turn a non-JSON body
    // into a ClientError with its status, instead of openapi-fetch's bare SyntaxError.
    const ownParse = init.parseAs === undefined || init.parseAs === 'json';
    const maxRetries = IDEMPOTENT.has(method) ? retries : 0;
    /**
     * Every answer passes here before openapi-fetch reads it: a redirect is refused (the
     * request asks the runtime not to follow one; a fetch that followed anyway is caught
     * by `redirected`), and the body is read under maxBodyBytes.
     */
    const guard = (response: Response): void => {
      const { status } = response;
      if (response.redirected || response.type === 'opaqueredirect' || (status >= 300 && status < 400 && status !== 304)) {
        void response.body?.cancel().catch(() => {});
        const target = response.redirected ? response.url : response.headers.get('Location');
        const origin = target && URL.canParse(target, baseUrl) ? new URL(target, baseUrl).origin : 'an unknown place';
        throw new ClientError('redirect', `${what} answered a redirect (${response.redirected ? 'followed by the fetch' : status}) to ${origin}; redirects are not followed.`, { status });
      }
      limitBody(response, maxBodyBytes);
    };
    for (let attempt = 0; ; attempt++) {
      if (callerSignal?.aborted) throw aborted(what, callerSignal);
      const attemptSignal = attemptAbort(timeoutMs, callerSignal, requestsAbort);
      let result: { data?: unknown; error?: unknown; response: Response };
      let bearerToken = token;
      let dispatched = false;
      try {
        if (bearerToken === undefined) bearerToken = await bearer(what, attemptSignal);
        // One object per attempt; the caller's init is never modified.
        const attemptInit: Record<string, any> = {
          ...init,
          parseAs: ownParse ? 'text' : init.parseAs,
          // params.header is merged last by openapi-fetch, so this Authorization wins.
          params: { ...params, header: { ...params.header, Authorization: `Bearer ${bearerToken}` } },
          // The global fetch would follow a 3xx to any origin with the extra headers and
          // the body; 'manual' hands it back, and guard() refuses it.
          redirect: 'manual' as const,
          // openapi-fetch copies unknown init keys onto the Request: createNodeHttpFetch
          // reads this and enforces the limit while it reads and inflates.
          maxBodyBytes,
          signal: attemptSignal?.signal,
          fetch: (request: Request, ext?: any) => {
            dispatched = true;
            if (attemptSignal) attemptSignal.sent = request;
            return callerFetch(request, ext).then((response: Response) => {
              guard(response);
              (response as Response & { [SENT_URL]?: string })[SENT_URL] = request.url;
              return response;
            });
          },
        };
        result = await inner.request(method as 'get', path, attemptInit as any);
      } catch (cause) {
        if (cause instanceof ClientError) {
          if (cause.code !== 'body-too-large') throw cause;
          throw new ClientError('body-too-large', `${what}: ${cause.message}`, cause.status === undefined ? {} : { status: cause.status });
        }
        if (attemptSignal?.timedOut) {
          throw new ClientError('timeout', `${what} timed out after ${timeoutMs} ms.`);
        }
        if (callerSignal?.aborted) throw aborted(what, callerSignal);
        if (!dispatched) {
          // Nothing reached the fetch: a local fault of an argument, never retried.
          const [parameter, why] = diagnose(init, options.headers);
          throw new ClientError('invalid-argument', `${what}: "${parameter}" ${why}; nothing sent.`, { parameter });
        }
        if (attempt < maxRetries) {
          await pause(backoff(attempt, delayMs, maxDelayMs), callerSignal, what);
          continue;
        }
        throw new ClientError('network', `${what} failed: ${describeCause(cause, bearerToken)}.`, {
          cause: scrubCause(cause, bearerToken),
        });
      } finally {
        attemptSignal?.done();
      }
      const { response } = result;
      if (!response.ok) {
        if (attempt < maxRetries && RETRY_STATUS.has(response.status)) {
          const wait = retryDelay(response, attempt, delayMs, maxDelayMs);
          if (wait !== undefined) {
            await pause(wait, callerSignal, what);
            continue;
          }
        }
        return { ok: false, error: errorBody(result.error, response), response };
      }
      let data = result.data;
      if (ownParse && typeof data === 'string') {
        try {
          data = data === '' ? undefined : JSON.parse(data);
        } catch (cause) {
          throw new ClientError('invalid-body', `${what} answered ${response.status}, not JSON (${response.headers.get('Content-Type')}).`, {
            status: response.status,
            cause,
          });
        }
      }
      return { ok: true, data, response };
    }
  }

  const send: Send = (method, path, init = {}) => {
    const what = `${method} ${path}`;
    const op = ops.get(what);
    if (!op) return Promise.reject(new ClientError('unknown-operation', unsendable.get(what) ?? `${what} is not a ${family} operation.`));
    if (init.baseUrl !== undefined) {
      // The origin is fixed when the client is created: the token goes nowhere else.
      return Promise.reject(new ClientError('invalid-argument', `${what}: no per-request baseUrl.`, { parameter: 'baseUrl' }));
    }
    const params = init.params ?? {};
    let query = params.query;
    if (op.apiVersion !== undefined) {
      const asked = query?.['api-version'];
      // The call is typed by this version's document: sending another would check the
      // request and read the answer against the wrong types. A pinned client is the way.
      if (asked != null && asked !== op.apiVersion) {
        return Promise.reject(
          new ClientError('invalid-argument', `${what}: api-version ${String(asked)} is not ${op.apiVersion}, this client's; pin it: apiVersions: { ${op.apiName}: '${String(asked)}' }.`, { parameter: 'api-version' }),
        );
      }
      query = { ...query, 'api-version': op.apiVersion };
    }
    // An empty `path` object still runs the serializer, which refuses missing values
    // instead of leaving `{name}` in the URL.
    const request: Record<string, any> = { ...init, params: { ...params, query, path: params.path ?? {} } };
    if (op.prefix) request.baseUrl = base + op.prefix;
    return execute(method, path, request, op.what);
  };

  const sendUrl = (url: URL, init: Record<string, any> = {}) => {
    const search = url.search.slice(1);
    const link = `${url.origin}${url.pathname}`;
    // openapi-fetch builds baseUrl + path + "?" + query; give it the link in those parts.
    return execute('GET', '', { ...init, baseUrl: link, querySerializer: () => search }, `GET ${link}`);
  };

  return {
    send,
    sendUrl,
    origin: baseUrl.origin,
    base,
    operation: (method, path) => ops.get(`${method} ${path}`),
    // openapi-fetch's use/eject do not depend on `this`.
    use: inner.use,
    eject: inner.eject,
  };
}

/** The openapi-fetch method set over `send`, typed by the caller. */
export function methodsOf(core: Core): Record<string, Function> {
  const methods: Record<string, Function> = {
    request: (method: string, path: string, init?: Record<string, any>) => core.send(String(method).toUpperCase(), path, init),
    use: core.use,
    eject: core.eject,
  };
  for (const method of ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']) {
    methods[method] = (path: string, init?: Record<string, any>) => core.send(method, path, init);
  }
  return methods;
}
