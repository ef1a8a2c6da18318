/**
 * Several versions of one API, in types. generated/versions.ts maps, per family,
 * API -> version -> that version's generated `paths` and `components`, and names each
 * API's default version. A client is typed by the versions it sends: for each API the
 * one pinned with `apiVersions`, else the default. Nothing here names a document or a
 * version, so adding a version is a spec folder and a redocly.yaml entry, never an edit
 * in src/.
 */
import type { Components, Defaults, Paths } from '../generated/versions.js';
import type { HttpMethod } from './types.js';

export type FamilyName = keyof Paths;

/** What `apiVersions` may pin in a family: for each API, one of the versions the workspace holds. */
export type ApiVersions<F extends FamilyName> = { readonly [A in keyof Paths[F]]?: keyof Paths[F][A] & string };

/** The version API `A` is sent with: the pinned one, else its default (never: none). */
export type ChosenVersion<F extends FamilyName, Pins, A extends keyof Paths[F]> = A extends keyof Pins
  ? Pins[A] extends keyof Paths[F][A]
    ? Pins[A]
    : A extends keyof Defaults[F]
      ? Defaults[F][A]
      : never
  : A extends keyof Defaults[F]
    ? Defaults[F][A]
    : never;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

// `query` itself becomes optional only when api-version was its one required key.
type PinnedQuery<Q, V> = Flatten<Omit<Q, 'api-version'> & { 'api-version'?: V }>;
type QueryWithPinnedApiVersion<Q, V> =
  [RequiredKeysOf<Omit<Q, 'api-version'>>] extends [never] ? { query?: PinnedQuery<Q, V> } : { query: PinnedQuery<Q, V> };

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

/** The paths a client of family F with these pins can call: each API at its chosen version. */
export type FamilyPaths<F extends FamilyName, Pins> = UnionToIntersection<
  {
    [A in keyof Paths[F]]: [ChosenVersion<F, Pins, A>] extends [never]
      ? never
      : WithPinnedApiVersion<Paths[F][A][ChosenVersion<F, Pins, A> & keyof Paths[F][A]], ChosenVersion<F, Pins, A>>;
  }[keyof Paths[F]]
>;

/** The schemas of API A at the version a client with these pins sends. */
export type FamilySchemas<F extends FamilyName, Pins, A extends keyof Components[F] & keyof Paths[F]> =
  Components[F][A][ChosenVersion<F, Pins, A> & keyof Components[F][A]] extends { schemas: infer S } ? S : never;

/** Schema `Name` of `S`, or never when that version does not define it. */
export type SchemaIn<S, Name extends string> = S extends { [K in Name]: infer T } ? T : never;

type AllComponents = Components['resource-manager'] & Components['business-central'];
type AllDefaults = Defaults['resource-manager'] & Defaults['business-central'];

/** Every API the workspace holds (the key before `@` in redocly.yaml). */
export type ApiName = keyof AllComponents & string;
/** The versions of one API the workspace holds. */
export type VersionOf<A extends ApiName> = keyof AllComponents[A] & string;
/** The default version of an API. */
export type DefaultVersionOf<A extends ApiName> = A extends keyof AllDefaults ? AllDefaults[A] : never;

/**
 * A schema of one API's document, at its default version or the one given:
 * `SchemaOf<'vendors', 'Vendor'>`, `SchemaOf<'sql', 'CheckNameAvailabilityResponse', '2025-01-01'>`.
 */
export type SchemaOf<
  A extends ApiName,
  Name extends string,
  V extends VersionOf<A> = DefaultVersionOf<A> & VersionOf<A>,
> = SchemaIn<AllComponents[A][V] extends { schemas: infer S } ? S : never, Name>;

// openapi-typescript's read/write markers (--read-write-markers), structurally: every
// generated file declares the same two, so they are matched by shape, not imported from
// one document.
type ReadMarker<T = unknown> = { readonly $read: T };
type WriteMarker<T = unknown> = { readonly $write: T };

/** A schema as sent in a request: read-only fields dropped (as openapi-fetch does for bodies). */
export type Writable<T> = T extends ReadMarker<any>
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
