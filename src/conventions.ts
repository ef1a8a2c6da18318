/**
 * The shapes the conveniences key on, read from the generated types of whatever
 * operations the documents declare (never from an operation's name), so a new operation
 * of a known shape gets its convenience with no edit here:
 *   - a list: a GET whose 200 JSON body has a `value` array and a `nextLink` (resource
 *     management's paging) -> `listAll` / `listPages`;
 *   - a key PATCH with a required `If-Match` header (business data's optimistic
 *     concurrency) -> `patchWithETag`;
 *   - a long-running operation: a PUT, PATCH, POST or DELETE whose 201 or 202 answer
 *     declares an `Azure-AsyncOperation` or `Location` header (ARM's pattern, which lint
 *     requires of every operation marked `x-ms-long-running-operation`) -> `beginAndWait`.
 */
import type { HttpMethod, Result } from './types.js';
import type { Writable } from './versions.js';

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** Operation `M` of path `Path` in `P` (never when the path has no such method). */
export type OperationOf<P, Path extends keyof P, M extends HttpMethod> = P[Path] extends { [X in M]: infer O } ? O : never;

/** The JSON body of an operation's 200 answer. */
type Ok200<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** A page: an object with a `value` array and a link to the next page named `Link`. */
type PageShape<Link extends string> = { value?: readonly unknown[] | null } & { [L in Link]?: string | null };

/** The paths of `P` whose GET answers a page whose next link is named `Link`. */
type PagedPaths<P, Link extends string> = {
  [K in keyof P]: [Ok200<OperationOf<P, K, 'get'>>] extends [never]
    ? never
    : Ok200<OperationOf<P, K, 'get'>> extends PageShape<Link>
      ? 'value' extends keyof Ok200<OperationOf<P, K, 'get'>>
        ? Link extends keyof Ok200<OperationOf<P, K, 'get'>>
          ? K
          : never
        : never
      : never;
}[keyof P] &
  string;

/** The paths of `P` whose GET is a nextLink-paged list (resource management). */
export type ListPaths<P> = PagedPaths<P, 'nextLink'>;

/**
 * What the path method gives as `data` when `ok` for operation `O`: the same type, built
 * the same way (openapi-fetch's `Readable`, so read-only fields are plain fields of
 * their own type, no `$Read<…>` marker). Every convenience's result is spelled through
 * this, so a list item, a page, an eTag update or a long-running operation's final
 * resource has exactly the type of the same data fetched by the path method.
 */
export type DataOf<O> = O extends Record<string | number, any> ? Extract<Result<O>, { ok: true }>['data'] : never;

/** One page of the list at `Path`, as `GET(path)` gives it. */
export type PageOf<P, Path extends keyof P> = DataOf<OperationOf<P, Path, 'get'>>;
/** One item of the list at `Path`. */
export type ItemOf<P, Path extends keyof P> = NonNullable<PageOf<P, Path> extends { value?: infer V } ? V : never> extends readonly (infer E)[] ? E : never;

type ParamsOf<O> = O extends { parameters: infer Params } ? Params : {};
export type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** `params` as the path methods take it, required only when something in it is. */
type ParamsArg<Params> = [RequiredKeys<Params>] extends [never] ? { params?: Params } : { params: Params };

export interface ListOptions {
  /** Cancels the current request and ends the iteration with a ClientError `aborted`. */
  signal?: AbortSignal;
  /** Extra headers for every page request, the first and each nextLink (e.g. `Prefer`). */
  headers?: Record<string, string>;
  /** Most pages fetched (default 1000); a nextLink left after that is a ClientError `page-limit`. */
  maxPages?: number;
}

/** What `listAll(path, init)` takes: the path method's `params`, plus the paging options. */
export type ListInit<P, Path extends keyof P> = Flatten<ParamsArg<ParamsOf<OperationOf<P, Path, 'get'>>> & ListOptions>;

type HeaderOf<O> = O extends { parameters: { header?: infer H } } ? NonNullable<H> : never;
/** The paths of `P` whose PATCH declares an `If-Match` header (required or not). */
export type ETagPatchPaths<P> = {
  // A path without a PATCH, or a PATCH without headers, gives `never`, whose keys are every key: ruled out first.
  [K in keyof P]: [HeaderOf<OperationOf<P, K, 'patch'>>] extends [never] ? never : 'If-Match' extends keyof HeaderOf<OperationOf<P, K, 'patch'>> ? K : never;
}[keyof P] &
  string;

type WithoutIfMatch<Params> = Params extends { header?: infer Header }
  ? NonNullable<Header> extends infer H
    ? Flatten<
        Omit<Params, 'header'> & ([RequiredKeys<Omit<H, 'If-Match'>>] extends [never] ? { header?: Omit<H, 'If-Match'> } : { header: Omit<H, 'If-Match'> })
      >
    : never
  : Params;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? Writable<B> : never;

/** What `patchWithETag(path, init)` takes: `params` without If-Match, the eTag, the body, and per-call options. */
export type ETagPatchInit<P, Path extends keyof P> = Flatten<
  ParamsArg<WithoutIfMatch<ParamsOf<OperationOf<P, Path, 'patch'>>>> & {
    /** The entity's current eTag (its `ETag` header or `@odata.etag` from the last read). `*` is refused. */
    eTag: string;
    /** Only the fields to change. */
    body: BodyOf<OperationOf<P, Path, 'patch'>>;
    /** Extra headers for this call (they win over the client's `headers`). */
    headers?: Record<string, string>;
    signal?: AbortSignal;
  }
>;

/** The methods a long-running operation of resource management can have. */
export type LongRunningMethod = 'PUT' | 'PATCH' | 'POST' | 'DELETE';

type Responses<O> = O extends { responses: infer R } ? R : never;
/** True when the header object `H` declares `Name` (the generated index signature alone gives `unknown`). */
type Declares<H, Name extends string> = H extends { [key: string]: unknown } ? (unknown extends H[Name] ? false : true) : false;
type PollLinks<R> = R extends { headers: infer H } ? (Declares<H, 'Azure-AsyncOperation'> extends true ? true : Declares<H, 'Location'>) : false;
/** ARM's long-running shape: a 201 or 202 answer that declares an `Azure-AsyncOperation` or `Location` header. */
type IsLongRunning<O> = [O] extends [never]
  ? false
  : true extends
        | (201 extends keyof Responses<O> ? PollLinks<Responses<O>[201]> : false)
        | (202 extends keyof Responses<O> ? PollLinks<Responses<O>[202]> : false)
    ? true
    : false;

/** The paths of `P` whose `M` operation is long-running (found by its answers' headers, never by name). */
export type LongRunningPaths<P, M extends LongRunningMethod> = {
  [K in keyof P]: IsLongRunning<OperationOf<P, K, Lowercase<M>>> extends true ? K : never;
}[keyof P] &
  string;

type BodyArg<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: Writable<B> }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: Writable<B> }
    : {};

export interface PollInitOptions {
  /** Cancels the current request or wait; rejects with a ClientError `aborted`. */
  signal?: AbortSignal;
  /** Extra headers for the first request and every poll. */
  headers?: Record<string, string>;
  /** Wait between polls when the service gives no Retry-After (default 1 000 ms). */
  pollIntervalMs?: number;
  /** Longest wait between two polls, whatever Retry-After says (default 60 000 ms). */
  maxDelayMs?: number;
  /** Longest wait in all (default 30 min); then a ClientError `poll-timeout`. */
  maxWaitMs?: number;
}

/** What `beginAndWait(method, path, init)` takes: the path method's `params` and `body`, plus the polling options. */
export type PollInit<P, Path extends keyof P, M extends LongRunningMethod> = Flatten<
  ParamsArg<ParamsOf<OperationOf<P, Path, Lowercase<M>>>> & BodyArg<OperationOf<P, Path, Lowercase<M>>> & PollInitOptions
>;

type Only200<O> = Omit<O, 'responses'> & { responses: Pick<Responses<O>, 200 & keyof Responses<O>> };
/**
 * What `beginAndWait` resolves with: for DELETE nothing; else the operation's 200 body
 * (the resource when it is done), as the path method types it, or its 2xx body when it
 * declares no 200. A PUT's result is always read from the resource's own URL (as
 * `@azure/core-lro` reads it, whatever `final-state-via` says), so it is the resource.
 */
export type FinalOf<P, Path extends keyof P, M extends LongRunningMethod> = M extends 'DELETE'
  ? undefined
  : 200 extends keyof Responses<OperationOf<P, Path, Lowercase<M>>>
    ? DataOf<Only200<OperationOf<P, Path, Lowercase<M>>>>
    : DataOf<OperationOf<P, Path, Lowercase<M>>>;

/**
 * The paths of `P` whose GET lists an OData entity set a page at a time (business data):
 * a 200 JSON body with a `value` array and an `@odata.nextLink` -> `listAll` / `listPages`.
 * Its query options (`$filter`, `$top`, ...) are the operation's declared query parameters,
 * typed through `ListInit`; its pages and items are `PageOf` and `ItemOf`.
 */
export type ODataListPaths<P> = PagedPaths<P, '@odata.nextLink'>;
