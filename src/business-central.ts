/**
 * The business-data client: every business-data document (today v2.0 vendors and v1.0
 * shipment methods) behind one openapi-fetch client. Paths are written without their
 * version prefix, as in the specs; the client adds `/api/<version>` per operation, for
 * the version pinned in `apiVersions` (e.g. `{ vendors: 'v2.0' }`) or the API's default,
 * and is typed by exactly those versions (src/versions.ts).
 */
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { ClientError } from './errors.js';
import type { Result, TypedClient } from './types.js';
import type { ApiVersions, FamilyPaths, FamilySchemas, SchemaIn, SchemaOf, Writable } from './versions.js';

type Family = 'business-central';

/** The API versions a business-data client may pin, e.g. `{ vendors: 'v2.0' }`. */
export type BusinessCentralApiVersions = ApiVersions<Family>;

export interface BusinessCentralOptions<Pins extends BusinessCentralApiVersions = {}> extends ClientOptions {
  apiVersions?: Pins;
}

export type BusinessCentralPaths<Pins extends BusinessCentralApiVersions = {}> = FamilyPaths<Family, Pins>;

// The named models, at each API's default version; `SchemaOf<api, name, version>` gives any other.
export type Vendor = SchemaOf<'vendors', 'Vendor'>;
export type ShipmentMethod = SchemaOf<'shipmentmethods', 'ShipmentMethod'>;
export type BusinessCentralError = SchemaOf<'vendors', 'BusinessCentralError'>;

type VendorSchemas<Pins extends BusinessCentralApiVersions> = FamilySchemas<Family, Pins, 'vendors'>;
const VENDOR = '/companies({company_id})/vendors({vendor_id})';

export interface UpdateVendorArgs<Pins extends BusinessCentralApiVersions = {}> {
  companyId: string;
  /** The vendor's id, a GUID. */
  vendorId: string;
  /** The vendor's current eTag (`@odata.etag` of the last read). `*` is refused here. */
  eTag: string;
  /** Only the fields to change, as the pinned (or default) version of vendors takes them. */
  vendor: Writable<SchemaIn<VendorSchemas<Pins>, 'Vendor'>>;
  signal?: AbortSignal;
}

type VendorPath = typeof VENDOR;
export type UpdateVendorResult<Pins extends BusinessCentralApiVersions = {}> =
  BusinessCentralPaths<Pins> extends { [P in VendorPath]: { patch: infer O extends Record<string | number, any> } } ? Result<O> : never;

export interface BusinessCentralClient<Pins extends BusinessCentralApiVersions = {}> extends TypedClient<BusinessCentralPaths<Pins>> {
  /**
   * PATCH a vendor with an explicit eTag in If-Match. Same result shape as `PATCH`:
   * a mismatched eTag comes back as `{ ok: false, error, response }`.
   */
  updateVendor(args: UpdateVendorArgs<Pins>): Promise<UpdateVendorResult<Pins>>;
}

export function createBusinessCentralClient<const Pins extends BusinessCentralApiVersions = {}>(
  options: BusinessCentralOptions<Pins>,
): BusinessCentralClient<Pins> {
  const core = createCore(options, 'business-central');
  const methods = methodsOf(core);

  function updateVendor({ companyId, vendorId, eTag, vendor, signal }: UpdateVendorArgs<Pins>): Promise<UpdateVendorResult<Pins>> {
    // The helper exists to make optimistic concurrency explicit: a wildcard would
    // silently overwrite someone else's change. PATCH with If-Match: * stays possible.
    const tag = String(eTag).trim();
    if (!tag || tag === '*' || /[\r\n]/.test(eTag)) {
      return Promise.reject(
        new ClientError('invalid-argument', 'updateVendor: "eTag" must be the current eTag, not empty or "*"; nothing sent.', { parameter: 'eTag' }),
      );
    }
    return core.send('PATCH', VENDOR, {
      params: { path: { company_id: companyId, vendor_id: vendorId }, header: { 'If-Match': eTag } },
      body: vendor,
      signal,
    });
  }

  return Object.assign(methods, { updateVendor }) as unknown as BusinessCentralClient<Pins>;
}
