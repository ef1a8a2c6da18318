/**
 * What both families share: one openapi-fetch client per factory call, wrapped so that
 * every call gets, in this order,
 *   1. its operation looked up in the APIs the client holds (generated/client-manifest.ts:
 *      api-version, or the /api/<version> prefix of business data),
 *   2. a fresh bearer token (`getToken()` runs per attempt, so tokens can refresh),
 *   3. its own AbortSignal (timeout per attempt, joined to the caller's signal),
 *   4. bounded retries for idempotent methods only, honouring Retry-After,
 *   5. a result whose `ok` comes from the status, and an error body that is never
 *      empty or a bare string;
 *   6. no redirect followed (any 3xx is a ClientError `redirect`), and every body read
 *      under `maxBodyBytes` (src/body.ts).
 * The wrapper calls openapi-fetch directly (no middleware): middleware would cost a
 * Request clone and a random id per call, and the point is to stay within 10 % of it.
 *
 * Each concern lives in a file of its own, composed here: options.ts (the options and
 * their checks), credentials.ts (tokens), operations.ts (operation and version lookup),
 * attempt.ts (per-attempt timers and signals), retry.ts (what is retried, how long to
 * wait), results.ts (error bodies and local faults), body.ts (bodies under a byte limit).
 * The conveniences sit on top: paging.ts, the eTag update in business-central.ts,
 * long-running.ts.
 */
import createClient from 'openapi-fetch';
import { aborted, attemptAbort, pause, race, type Attempt } from './attempt.js';
import { limitBody } from './body.js';
import { isToken } from './credentials.js';
import { ClientError, scrubCause } from './errors.js';
import { operationTable, type HeldApi, type OperationInfo } from './operations.js';
import { readOptions, type ClientOptions, type Family } from './options.js';
import { backoff, IDEMPOTENT, RETRY_STATUS, retryDelay } from './retry.js';
import { describeCause, diagnose, errorBody } from './results.js';

export type { ClientOptions, Family } from './options.js';
export type { TokenCredentialLike } from './credentials.js';
export { VERSION_SHAPES } from './operations.js';

/** On each Response: the URL its request went to (the paging helper remembers it). */
export const SENT_URL = Symbol('sentUrl');
/** Where a client keeps its core, for the conveniences an app imports on its own (`createBatch`): never enumerated, never printed. */
export const CORE = Symbol('core');

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

/** The core of a client of `family` that holds the APIs `held` (API name -> its manifest entry). */
export function createCore(options: ClientOptions, family: Family, held: Readonly<Record<string, HeldApi>>): Core {
  const { baseUrl, base, token, getToken, timeoutMs, maxBodyBytes, retries, delayMs, maxDelayMs } = readOptions(options);
  const lookup = operationTable(family, held, options.apiVersions, base);

  // Read once, like openapi-fetch does: a test double or polyfill must be in place first.
  const baseFetch: (request: Request, ext?: any) => Promise<Response> = options.fetch ?? globalThis.fetch;
  // A fetch may bring the Request class it wants to receive (createNodeHttpFetch does).
  const RequestClass = (options.fetch as { Request?: typeof Request } | undefined)?.Request;
  const requestsAbort = typeof (RequestClass?.prototype as { abort?: unknown } | undefined)?.abort === 'function';
  const inner = createClient<any>({ baseUrl: base, fetch: baseFetch, headers: options.headers, Request: RequestClass });

  async function bearer(what: string, attempt: Attempt | undefined): Promise<string> {
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

  async function execute(method: string, path: string, init: Record<string, any>, what: string, pathSerializer?: OperationInfo['serialize']): Promise<any> {
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
        throw new ClientError(
          'redirect',
          `${what} answered a redirect (${response.redirected ? 'followed by the fetch' : status}) to ${origin}; redirects are not followed.`,
          { status },
        );
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
          // The operation's API's own (which parameters are multi-segment or GUIDs); a link (sendUrl) has none to write.
          pathSerializer,
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
    const op = lookup(what);
    if (typeof op === 'string') return Promise.reject(new ClientError('unknown-operation', op));
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
          new ClientError(
            'invalid-argument',
            `${what}: api-version ${String(asked)} is not ${op.apiVersion}, this client's; pin it: apiVersions: { ${op.apiName}: '${String(asked)}' }.`,
            { parameter: 'api-version' },
          ),
        );
      }
      query = { ...query, 'api-version': op.apiVersion };
    }
    // An empty `path` object still runs the serializer, which refuses missing values
    // instead of leaving `{name}` in the URL.
    const request: Record<string, any> = { ...init, params: { ...params, query, path: params.path ?? {} } };
    if (op.prefix) request.baseUrl = base + op.prefix;
    return execute(method, path, request, op.what, op.serialize);
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
    operation: (method, path) => {
      const op = lookup(`${method} ${path}`);
      return typeof op === 'string' ? undefined : op;
    },
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
