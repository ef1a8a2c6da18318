/**
 * Client types: openapi-fetch's own call signatures (same path templates, same
 * `params`/`body` checking, same `Writable<>` stripping of read-only fields), with one
 * addition to the result: `ok`, the literal copy of `response.ok`.
 *
 * Why `ok`: openapi-fetch narrows `data` only on the truthiness of `error`, and
 * `error` can be falsy on a failed answer. `response.ok` is the right test but cannot
 * narrow (it is a plain boolean on `Response`). A top-level `ok: true | false`
 * discriminant can: `const { ok, data, error } = await client.GET(...)`; `if (ok)`
 * narrows `data` to the success body and `error` to the family's error model.
 *
 * Only types from `openapi-fetch` itself are imported (its helper package is not a
 * dependency of ours), so the emitted .d.ts resolves for consumers.
 */
import type { FetchResponse, MaybeOptionalInit, Middleware } from 'openapi-fetch';

/** A path method's init (params, body, headers), as openapi-fetch types it: the one place the clients take it from (test/deps/held-imports.test.ts). */
export type InitOf<P, Path extends keyof P, M extends HttpMethod> = MaybeOptionalInit<Item<P, Path, M>, M>;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type Media = `${string}/${string}`;

export type PathsWithMethod<P, M extends HttpMethod> = {
  [K in keyof P]: P[K] extends { [X in M]: unknown } ? K : never;
}[keyof P];

type RequiredKeysOfHelper<T> = { [K in keyof T]: {} extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
// As in openapi-fetch: the init argument is optional only when nothing in it is required.
export type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

// `& Record<M, unknown>` only convinces the checker that M is a key; it changes no type.
export type Item<P, Path extends keyof P, M extends HttpMethod> = P[Path] & Record<M, unknown>;
type Op<P, Path extends keyof P, M extends HttpMethod> = Extract<Item<P, Path, M>[M], Record<string | number, any>>;

type Defined<T> = [Exclude<T, undefined>] extends [never] ? undefined : Exclude<T, undefined>;

/**
 * An OData entity whose schema declares `@odata.etag` always carries it (docs/mock.md, as
 * the service's entities do), so its tag is a `string`, also on the entities of a list's
 * `value`: a list item's own tag is what `patchWithETag` takes.
 */
type Tagged<T> = '@odata.etag' extends keyof T
  ? T & { '@odata.etag': string }
  : T extends { value?: readonly (infer E)[] | null }
    ? '@odata.etag' extends keyof E
      ? Omit<T, 'value'> & { value?: Array<E & { '@odata.etag': string }> }
      : T
    : T;

/**
 * openapi-fetch's result, rebuilt from its own `data` and `error` types with `ok` as
 * the discriminant. (A conditional type over openapi-fetch's union would be resolved
 * too early inside the generic method signatures, so the members are spelled out.)
 */
export type Result<Operation extends Record<string | number, any>, Init = {}> =
  | { ok: true; data: Tagged<Defined<FetchResponse<Operation, Init, Media>['data']>>; error?: never; response: Response }
  | { ok: false; data?: never; error: Defined<FetchResponse<Operation, Init, Media>['error']>; response: Response };

export type Method<P, M extends HttpMethod> = <Path extends PathsWithMethod<P, M>, Init extends MaybeOptionalInit<Item<P, Path, M>, M>>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<Result<Op<P, Path, M>, Init>>;

export interface TypedClient<P> {
  /** Call any operation by method name (`'get'`, `'POST'`, ...). */
  request<M extends HttpMethod, Path extends PathsWithMethod<P, M>, Init extends MaybeOptionalInit<Item<P, Path, M>, M>>(
    method: M,
    url: Path,
    ...init: InitParam<Init>
  ): Promise<Result<Op<P, Path, M>, Init>>;
  GET: Method<P, 'get'>;
  PUT: Method<P, 'put'>;
  POST: Method<P, 'post'>;
  DELETE: Method<P, 'delete'>;
  OPTIONS: Method<P, 'options'>;
  HEAD: Method<P, 'head'>;
  PATCH: Method<P, 'patch'>;
  TRACE: Method<P, 'trace'>;
  /** Register openapi-fetch middleware (runs inside the client's auth, timeout and retry). */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}
