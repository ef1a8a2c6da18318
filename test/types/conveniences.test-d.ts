// A convenience gives exactly the type the path method gives for the same data (issue 35):
// for every operation of every document version that a convenience covers (found by the
// same shapes the clients key on, from generated/versions.ts, never from a list of today's
// operations), the item or result type and the path method's `data` type are assignable
// both ways, and carry no `$Read`/`$Write` marker. A new document or operation is checked
// here with no edit; a convenience whose type is left unwrapped fails the check.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  DataOf,
  ETagPatchPaths,
  FinalOf,
  ItemOf,
  LongRunningMethod,
  ListPaths,
  LongRunningPaths,
  ODataListPaths,
  OperationOf,
  PageOf,
} from '../../src/conventions.js';
import type { Plain } from '../../src/models.js';
import type { BusinessCentralClient, PatchResult } from '../../src/business-central.js';
import type { Paths } from '../../generated/versions.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** No marker left anywhere inside `T`. */
type Unmarked<T> = Same<T, Plain<T>>;
/** The one value of a check over no paths, so an empty document checks nothing and is not false. */
type All<T> = [T] extends [never] ? true : Same<T, true>;

/** The path method's `data` when ok, for operation `M` of `Path`. */
type PathData<P, Path extends keyof P, M extends 'get' | 'put' | 'patch' | 'post' | 'delete'> = DataOf<OperationOf<P, Path, M>>;
type ValueOf<D> = D extends { value?: infer V } ? (NonNullable<V> extends readonly (infer E)[] ? E : never) : never;

// Each check distributes over a union of documents (`P extends unknown`): one result per document.
type ListCheck<P> = P extends unknown
  ? All<
      {
        [K in ListPaths<P> | ODataListPaths<P>]: Same<PageOf<P, K>, PathData<P, K, 'get'>> extends true
          ? Same<ItemOf<P, K>, ValueOf<PathData<P, K, 'get'>>> extends true
            ? Unmarked<ItemOf<P, K>>
            : false
          : false;
      }[ListPaths<P> | ODataListPaths<P>]
    >
  : never;

type LongRunningCheck<P> = P extends unknown
  ? All<
      {
        [M in LongRunningMethod]: {
          [K in LongRunningPaths<P, M>]: M extends 'DELETE'
            ? Same<FinalOf<P, K, M>, undefined>
            : Same<FinalOf<P, K, M>, PathData<P, K, Lowercase<M>>> extends true
              ? Unmarked<FinalOf<P, K, M>>
              : // A 200 beside other 2xx bodies: the final resource is the 200 one, itself unmarked and part of the path method's data.
                [FinalOf<P, K, M>] extends [PathData<P, K, Lowercase<M>>]
                ? Unmarked<FinalOf<P, K, M>>
                : false;
        }[LongRunningPaths<P, M>];
      }[LongRunningMethod]
    >
  : never;

type ETagCheck<P> = P extends unknown
  ? All<
      {
        [K in ETagPatchPaths<P>]: Same<Extract<PatchResult<P, K>, { ok: true }>['data'], PathData<P, K, 'patch'>> extends true
          ? Unmarked<PathData<P, K, 'patch'>>
          : false;
      }[ETagPatchPaths<P>]
    >
  : never;
type ListsOf<P> = P extends unknown ? ListPaths<P> | ODataListPaths<P> : never;
type ETagPathsOf<P> = P extends unknown ? ETagPatchPaths<P> : never;
type Some<T> = [T] extends [never] ? false : true;

/** Every document version of the workspace, as generated. */
type Documents = { [F in keyof Paths]: { [A in keyof Paths[F]]: Paths[F][A][keyof Paths[F][A]] }[keyof Paths[F]] }[keyof Paths];

describe("conveniences give the path methods' types", () => {
  it('every nextLink and @odata.nextLink list of every document: listAll items and listPages pages', () => {
    expectTypeOf<ListCheck<Documents>>().toEqualTypeOf<true>();
  });

  it('every long-running operation of every document: beginAndWait resolves with the 200 body as the path method types it', () => {
    expectTypeOf<LongRunningCheck<Documents>>().toEqualTypeOf<true>();
  });

  it('every If-Match PATCH of every document: patchWithETag gives the PATCH result', () => {
    expectTypeOf<ETagCheck<Documents>>().toEqualTypeOf<true>();
  });

  it('checks something: the workspace has lists and eTag updates to check', () => {
    expectTypeOf<Some<ETagPathsOf<Documents>>>().toEqualTypeOf<true>();
    expectTypeOf<Some<ListsOf<Documents>>>().toEqualTypeOf<true>();
    expectTypeOf<BusinessCentralClient['patchWithETag']>().toBeFunction();
  });
});

// The checks fail on a convenience typed from the raw generated body (the defect of issue 35).
type Marker<T> = { readonly $read: T };
type FixturePaths = {
  '/things': {
    get: {
      parameters: {};
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': { value?: { id?: Marker<string>; name?: string }[]; nextLink?: string } } };
      };
    };
  };
  '/things/{name}': {
    put: {
      parameters: {};
      requestBody: { content: { 'application/json': { id?: Marker<string>; location: string } } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': { id?: Marker<string>; location: string } } };
        201: {
          headers: { 'Azure-AsyncOperation'?: string; 'Retry-After'?: number; [name: string]: unknown };
          content: { 'application/json': { id?: Marker<string>; location: string } };
        };
      };
    };
    delete: {
      parameters: {};
      responses: {
        200: { headers: { [name: string]: unknown }; content?: never };
        202: { headers: { Location?: string; [name: string]: unknown }; content?: never };
        204: { headers: { [name: string]: unknown }; content?: never };
      };
    };
    get: {
      parameters: {};
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': { id?: Marker<string>; location: string } } } };
    };
  };
};
type RawItem = NonNullable<FixturePaths['/things']['get']['responses'][200]['content']['application/json']['value']>[number];

describe('the checks can fail', () => {
  it('finds the long-running operations by their 201/202 headers, and types the result as the path method does', () => {
    expectTypeOf<LongRunningPaths<FixturePaths, 'PUT'>>().toEqualTypeOf<'/things/{name}'>();
    expectTypeOf<LongRunningPaths<FixturePaths, 'DELETE'>>().toEqualTypeOf<'/things/{name}'>();
    expectTypeOf<LongRunningPaths<FixturePaths, 'POST'>>().toEqualTypeOf<never>();
    expectTypeOf<FinalOf<FixturePaths, '/things/{name}', 'PUT'>>().toEqualTypeOf<{ id?: string; location: string }>();
    expectTypeOf<LongRunningCheck<FixturePaths>>().toEqualTypeOf<true>();
  });

  it("a list item typed from the raw body (markers kept) is not the path method's item", () => {
    expectTypeOf<ListCheck<FixturePaths>>().toEqualTypeOf<true>();
    expectTypeOf<Same<RawItem, ValueOf<PathData<FixturePaths, '/things', 'get'>>>>().toEqualTypeOf<false>();
    expectTypeOf<Unmarked<RawItem>>().toEqualTypeOf<false>();
    expectTypeOf<ItemOf<FixturePaths, '/things'>>().toEqualTypeOf<{ id?: string; name?: string }>();
  });
});
