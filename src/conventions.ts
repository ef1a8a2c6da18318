/**
 * The shapes the conveniences key on, read from the generated types of whatever
 * operations the documents declare (never from an operation's name), so a new operation
 * of a known shape gets its convenience with no edit here:
 *   - a list: a GET whose 200 JSON body has a `value` array and a `nextLink` (resource
 *     management's paging) -> `listAll` / `listPages`;
 *   - a key PATCH with a required `If-Match` header (business data's optimistic
 *     concurrency) -> `patchWithETag`.
 */
import type { HttpMethod } from './types.js';
import type { Writable } from './versions.js';

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** Operation `M` of path `Path` in `P` (never when the path has no such method). */
export type OperationOf<P, Path extends keyof P, M extends HttpMethod> = P[Path] extends { [X in M]: infer O } ? O : never;

/** The JSON body of an operation's 200 answer. */
type Ok200<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** A page: an object with a `value` array and a `nextLink`. */
type PageShape = { value?: readonly unknown[] | null; nextLink?: string | null };

/** The paths of `P` whose GET is a nextLink-paged list. */
export type ListPaths<P> = {
  [K in keyof P]: [Ok200<OperationOf<P, K, 'get'>>] extends [never]
    ? never
    : Ok200<OperationOf<P, K, 'get'>> extends PageShape
      ? 'value' extends keyof Ok200<OperationOf<P, K, 'get'>>
        ? 'nextLink' extends keyof Ok200<OperationOf<P, K, 'get'>>
          ? K
          : never
        : never
      : never;
}[keyof P] &
  string;

/** One page of the list at `Path`. */
export type PageOf<P, Path extends keyof P> = Ok200<OperationOf<P, Path, 'get'>>;
/** One item of the list at `Path`. */
export type ItemOf<P, Path extends keyof P> = NonNullable<PageOf<P, Path> extends { value?: infer V } ? V : never> extends readonly (infer E)[] ? E : never;

type ParamsOf<O> = O extends { parameters: infer Params } ? Params : {};
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
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

/** The paths of `P` whose PATCH requires an `If-Match` header. */
export type ETagPatchPaths<P> = {
  [K in keyof P]: OperationOf<P, K, 'patch'> extends { parameters: { header: { 'If-Match': unknown } } } ? K : never;
}[keyof P] &
  string;

type WithoutIfMatch<Params> = Params extends { header: infer H }
  ? Flatten<Omit<Params, 'header'> & ([RequiredKeys<Omit<H, 'If-Match'>>] extends [never] ? { header?: Omit<H, 'If-Match'> } : { header: Omit<H, 'If-Match'> })>
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

/** A page of an OData entity set: an object with a `value` array and an `@odata.nextLink`. */
type ODataPageShape = { value?: readonly unknown[] | null; '@odata.nextLink'?: string | null };

/**
 * The paths of `P` whose GET lists an OData entity set a page at a time (business data):
 * a 200 JSON body with a `value` array and an `@odata.nextLink` -> `listAll` / `listPages`.
 * Its query options (`$filter`, `$top`, ...) are the operation's declared query parameters,
 * typed through `ListInit`; its pages and items are `PageOf` and `ItemOf`.
 */
export type ODataListPaths<P> = {
  [K in keyof P]: [Ok200<OperationOf<P, K, 'get'>>] extends [never]
    ? never
    : Ok200<OperationOf<P, K, 'get'>> extends ODataPageShape
      ? 'value' extends keyof Ok200<OperationOf<P, K, 'get'>>
        ? '@odata.nextLink' extends keyof Ok200<OperationOf<P, K, 'get'>>
          ? K
          : never
        : never
      : never;
}[keyof P] &
  string;
