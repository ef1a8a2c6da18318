/**
 * Several versions of one API, in types. generated/versions.ts maps, per family,
 * API -> version -> that version's generated `paths` and `components`, and names each
 * operation's unpinned target (`Targets`: the newest non-preview version declaring it)
 * and each schema's (`SchemaTargets`). A client is typed by what it sends: for a pinned
 * API every operation at the pinned version; for an unpinned one each operation at its
 * own target. Nothing here names a document or a version, so adding a version, an entity
 * or an operation is a spec edit, never an edit in src/.
 */
import type { Components, Defaults, Paths, SchemaTargets, Targets } from '../generated/versions.js';
import type { HttpMethod } from './types.js';

export type FamilyName = keyof Paths;

/** What `apiVersions` may pin in a family (or in `Apis`, the APIs a client holds): for each API, one of the versions the workspace holds. */
export type ApiVersions<F extends FamilyName, Apis extends keyof Paths[F] = keyof Paths[F]> = { readonly [A in Apis]?: keyof Paths[F][A] & string };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

// `query` itself becomes optional only when api-version was its one required key.
type PinnedQuery<Q, V> = Flatten<Omit<Q, 'api-version'> & { 'api-version'?: V }>;
type QueryWithPinnedApiVersion<Q, V> = [RequiredKeysOf<Omit<Q, 'api-version'>>] extends [never] ? { query?: PinnedQuery<Q, V> } : { query: PinnedQuery<Q, V> };

/**
 * An operation whose query requires `api-version`, with it optional and typed as the one
 * version the client sends: the client fills it in, and refuses any other value.
 */
type PinnedApiVersion<O, V> = O extends { parameters: { query: infer Q } }
  ? 'api-version' extends keyof Q
    ? { [K in keyof O]: K extends 'parameters' ? Flatten<Omit<O['parameters'], 'query'> & QueryWithPinnedApiVersion<Q, V>> : O[K] }
    : O
  : O;

/** A document's `paths` with `api-version` pinned to `V` on every operation that takes it. */
export type WithPinnedApiVersion<P, V> = {
  [Path in keyof P]: { [M in keyof P[Path]]: M extends HttpMethod ? PinnedApiVersion<P[Path][M], V> : P[Path][M] };
};

type OpKey<M extends string, Path> = `${Uppercase<M>} ${Path & string}`;
type TargetsOf<F extends FamilyName, A> = A extends keyof Targets[F] ? Targets[F][A] : {};
/** Every path template any version of API A declares. */
type PathKeysOf<F extends FamilyName, A extends keyof Paths[F]> = { [V in keyof Paths[F][A]]: keyof Paths[F][A][V] }[keyof Paths[F][A]];
/** Operation `M` of `Path` in version V of API A, its api-version pinned to V. */
type OperationAt<F extends FamilyName, A extends keyof Paths[F], V, Path, M> = V extends keyof Paths[F][A]
  ? Path extends keyof Paths[F][A][V]
    ? M extends keyof Paths[F][A][V][Path]
      ? PinnedApiVersion<Paths[F][A][V][Path][M], V>
      : never
    : never
  : never;

/**
 * The paths of API A on a client that does not pin it: each operation at its own target
 * version. A method no non-preview version declares is left out (so the path methods do
 * not offer it).
 */
export type UnpinnedPaths<F extends FamilyName, A extends keyof Paths[F]> = {
  [Path in PathKeysOf<F, A> as { [M in HttpMethod]: OpKey<M, Path> extends keyof TargetsOf<F, A> ? M : never }[HttpMethod] extends never ? never : Path]: {
    [M in HttpMethod as OpKey<M, Path> extends keyof TargetsOf<F, A> ? M : never]: OperationAt<
      F,
      A,
      TargetsOf<F, A>[OpKey<M, Path> & keyof TargetsOf<F, A>],
      Path,
      M
    >;
  };
};

/** The paths API A offers on a client with these pins. */
type ApiPaths<F extends FamilyName, Pins, A extends keyof Paths[F]> = A extends keyof Pins
  ? Pins[A] extends keyof Paths[F][A]
    ? WithPinnedApiVersion<Paths[F][A][Pins[A]], Pins[A]>
    : UnpinnedPaths<F, A>
  : UnpinnedPaths<F, A>;

/** The paths a client of family F holding `Apis` (every API unless named) with these pins can call: each API as it is sent. */
export type FamilyPaths<F extends FamilyName, Pins, Apis extends keyof Paths[F] = keyof Paths[F]> = UnionToIntersection<
  { [A in Apis]: ApiPaths<F, Pins, A> }[Apis]
>;

/** Schema `Name` of `S`, or never when that version does not define it. */
export type SchemaIn<S, Name extends string> = S extends { [K in Name]: infer T } ? T : never;

type AllComponents = Components['resource-manager'] & Components['business-central'];
type AllDefaults = Defaults['resource-manager'] & Defaults['business-central'];
type AllSchemaTargets = SchemaTargets['resource-manager'] & SchemaTargets['business-central'];

/** Every API the workspace holds (the key before `@` in redocly.yaml). */
export type ApiName = keyof AllComponents & string;
/** The versions of one API the workspace holds. */
export type VersionOf<A extends ApiName> = keyof AllComponents[A] & string;
/** The default version of an API. */
export type DefaultVersionOf<A extends ApiName> = A extends keyof AllDefaults ? AllDefaults[A] : never;

/** The version a schema means without one: the newest non-preview version that defines it. */
export type SchemaVersionOf<A extends ApiName, Name extends string> = A extends keyof AllSchemaTargets
  ? Name extends keyof AllSchemaTargets[A]
    ? AllSchemaTargets[A][Name] & VersionOf<A>
    : never
  : never;

/**
 * A schema of one API, at the newest non-preview version that defines it or the version
 * given: `SchemaOf<'businesscentral', 'Vendor'>`, `SchemaOf<'sql', 'CheckNameAvailabilityResponse', '2025-01-01'>`.
 */
export type SchemaOf<A extends ApiName, Name extends string, V extends VersionOf<A> = SchemaVersionOf<A, Name>> = SchemaIn<
  AllComponents[A][V] extends { schemas: infer S } ? S : never,
  Name
>;

// openapi-typescript's read/write markers (--read-write-markers), structurally: every
// generated file declares the same two, so they are matched by shape, not imported from
// one document.
type ReadMarker<T = unknown> = { readonly $read: T };
type WriteMarker<T = unknown> = { readonly $write: T };

/** A schema as sent in a request: read-only fields dropped (as openapi-fetch does for bodies). */
export type Writable<T> =
  T extends ReadMarker<any>
    ? never
    : T extends WriteMarker<infer U>
      ? Writable<U>
      : T extends (infer E)[]
        ? Writable<E>[]
        : T extends object
          ? { [K in keyof T as NonNullable<T[K]> extends ReadMarker<any> ? never : K]: Writable<T[K]> } & {
              [K in keyof T as NonNullable<T[K]> extends ReadMarker<any> ? K : never]?: never;
            }
          : T;
