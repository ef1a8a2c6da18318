/**
 * The business-data client: every version of the business-data API behind one
 * openapi-fetch client. Paths are written without their version prefix, as in the specs;
 * the client adds `/api/<version>` per operation: the version pinned in `apiVersions`
 * (e.g. `{ businesscentral: 'v2.0' }`), else the newest non-preview version that declares
 * the operation, and is typed by exactly what it sends (src/versions.ts).
 */
import { apis } from '../generated/client-manifest.js';
import type { WithPaths } from './batch.js';
import { CORE, createCore, methodsOf, type ClientOptions } from './core.js';
import { heldOf, type HeldApi, type ManifestApi } from './operations.js';
import { ClientError } from './errors.js';
import { listsOf } from './paging.js';
import type { Result, TypedClient } from './types.js';
import type { ETagPatchInit, ETagPatchPaths, ItemOf, ListInit, ODataListPaths, OperationOf, PageOf } from './conventions.js';
import type { ApiVersions, FamilyPaths, SchemaOf } from './versions.js';

type Family = 'business-central';

/** A business-data API the package holds, by name (the key before `@` in redocly.yaml). */
export type BusinessCentralApiName = keyof ApiVersions<Family>;

/** The API versions a business-data client (of `Apis`, when it names them) may pin, e.g. `{ businesscentral: 'v2.0' }`. */
export type BusinessCentralApiVersions<Apis extends BusinessCentralApiName = BusinessCentralApiName> = ApiVersions<Family, Apis>;

export interface BusinessCentralOptions<Pins extends BusinessCentralApiVersions = {}> extends ClientOptions {
  apiVersions?: Pins;
}

/** The paths a client with these pins (default versions when none) holding `Apis` (every API unless named) calls. */
export type BusinessCentralPaths<Pins extends BusinessCentralApiVersions = {}, Apis extends BusinessCentralApiName = BusinessCentralApiName> = FamilyPaths<
  Family,
  Pins,
  Apis
>;

// The named models, each at the newest non-preview version that defines it; `SchemaOf<api, name, version>` gives any other.
export type Vendor = SchemaOf<'businesscentral', 'Vendor'>;
export type ShipmentMethod = SchemaOf<'businesscentral', 'ShipmentMethod'>;
export type BusinessCentralError = SchemaOf<'businesscentral', 'BusinessCentralError'>;

const VENDOR = '/companies({company_id})/vendors({vendor_id})';
type VendorPath = typeof VENDOR;

export interface UpdateVendorArgs<Pins extends BusinessCentralApiVersions = {}> {
  companyId: string;
  /** The vendor's id, a GUID. */
  vendorId: string;
  /** The vendor's current eTag (`@odata.etag` of the last read, or its `ETag` header). `*` is refused here. */
  eTag: string;
  /** Only the fields to change, as the version the client sends vendors at takes them. */
  vendor: ETagPatchInit<BusinessCentralPaths<Pins>, VendorPath & keyof BusinessCentralPaths<Pins>>['body'];
  /** Extra headers for this call (they win over the client's `headers`), e.g. `Prefer`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The result of the PATCH at `Path`, as the path method `PATCH` returns it. */
export type PatchResult<P, Path extends keyof P> = OperationOf<P, Path, 'patch'> extends infer O extends Record<string | number, any> ? Result<O> : never;
export type UpdateVendorResult<Pins extends BusinessCentralApiVersions = {}> = PatchResult<
  BusinessCentralPaths<Pins>,
  VendorPath & keyof BusinessCentralPaths<Pins>
>;

export interface BusinessCentralClient<Pins extends BusinessCentralApiVersions = {}, Apis extends BusinessCentralApiName = BusinessCentralApiName>
  extends TypedClient<BusinessCentralPaths<Pins, Apis>>,
    WithPaths<BusinessCentralPaths<Pins, Apis>> {
  /**
   * PATCH any entity whose PATCH requires `If-Match`, with the eTag given explicitly
   * (`*`, empty or multi-line tags are refused: a wildcard would silently overwrite
   * someone else's change; `PATCH` with `If-Match: *` stays possible). Same result shape
   * as `PATCH`: a stale eTag comes back as `{ ok: false, error, response }`.
   */
  patchWithETag<Path extends ETagPatchPaths<BusinessCentralPaths<Pins, Apis>>>(
    path: Path,
    init: ETagPatchInit<BusinessCentralPaths<Pins, Apis>, Path>,
  ): Promise<PatchResult<BusinessCentralPaths<Pins, Apis>, Path>>;
  /** `patchWithETag` for a vendor, by its keys. */
  updateVendor(args: UpdateVendorArgs<Pins>): Promise<UpdateVendorResult<Pins>>;
  /**
   * The pages of any entity-set list (a GET whose 200 body has `value` and
   * `@odata.nextLink`), with the query options it declares (`params.query`: `$filter`,
   * `$orderby`, `$top`, ...) sent on the first request; each `@odata.nextLink` already
   * holds them and is followed as given, on the client's origin only. Throws a
   * ClientError (`http` with status and error body, `foreign-next-link`, `page-limit`,
   * `aborted`, ...) instead of yielding an error.
   */
  listPages<Path extends ODataListPaths<BusinessCentralPaths<Pins, Apis>>>(
    path: Path,
    init?: ListInit<BusinessCentralPaths<Pins, Apis>, Path>,
  ): AsyncGenerator<PageOf<BusinessCentralPaths<Pins, Apis>, Path>, void, undefined>;
  /** The entities of every page of `listPages`, one by one. */
  listAll<Path extends ODataListPaths<BusinessCentralPaths<Pins, Apis>>>(
    path: Path,
    init?: ListInit<BusinessCentralPaths<Pins, Apis>, Path>,
  ): AsyncGenerator<ItemOf<BusinessCentralPaths<Pins, Apis>, Path>, void, undefined>;
}

/** A client of every business-data API the package holds. */
export function createBusinessCentralClient<const Pins extends BusinessCentralApiVersions = {}>(
  options: BusinessCentralOptions<Pins>,
): BusinessCentralClient<Pins> {
  return clientOf(options, apis['business-central']) as BusinessCentralClient<Pins>;
}

/**
 * The same client holding only the APIs named, as the package exports them
 * (`createBusinessCentralClientOf([businesscentralApi], options)`), and typed by their paths
 * alone: an app bundles only the manifest entries of the APIs it names (bench/size.mjs).
 */
export function createBusinessCentralClientOf<
  const Named extends readonly ManifestApi<Family, BusinessCentralApiName>[],
  const Pins extends BusinessCentralApiVersions<Named[number]['name']> = {},
>(named: Named, options: BusinessCentralOptions<Pins>): BusinessCentralClient<Pins, Named[number]['name']> {
  return clientOf(options as ClientOptions, heldOf('business-central', named)) as BusinessCentralClient<Pins, Named[number]['name']>;
}

function clientOf(options: ClientOptions, held: Readonly<Record<string, HeldApi>>): unknown {
  const core = createCore(options, 'business-central', held);
  const methods = methodsOf(core);

  type ETagInit = { params?: Record<string, any>; eTag: string; body: unknown; headers?: Record<string, string>; signal?: AbortSignal };

  function patch(path: string, init: ETagInit, what: string): Promise<any> {
    const { params = {}, eTag, body, headers, signal } = init ?? ({} as ETagInit);
    if (typeof eTag !== 'string' || !eTag.trim() || eTag.trim() === '*' || /[\r\n]/.test(eTag)) {
      return Promise.reject(
        new ClientError('invalid-argument', `${what}: "eTag" must be the current eTag, not empty or "*"; nothing sent.`, { parameter: 'eTag' }),
      );
    }
    return core.send('PATCH', path, { params: { ...params, header: { ...params.header, 'If-Match': eTag } }, body, headers, signal });
  }

  const patchWithETag = (path: string, init: ETagInit) => patch(path, init, `PATCH ${path}`);

  function updateVendor({ companyId, vendorId, eTag, vendor, headers, signal }: UpdateVendorArgs): Promise<UpdateVendorResult> {
    return patch(VENDOR, { params: { path: { company_id: companyId, vendor_id: vendorId } }, eTag, body: vendor, headers, signal }, 'updateVendor');
  }

  // OData lists: the version is in the path prefix, so a next link needs nothing added.
  const { listPages, listAll } = listsOf(core, '@odata.nextLink');

  // Its core, under a symbol: what createBatch(client) (src/batch.ts) builds on.
  return Object.defineProperty(Object.assign(methods, { patchWithETag, updateVendor, listPages, listAll }), CORE, { value: core });
}
