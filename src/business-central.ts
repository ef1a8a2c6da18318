/**
 * The business-data client: both versions (v2.0 vendors, v1.0 shipment methods)
 * behind one openapi-fetch client. Paths are written without their version prefix,
 * as in the specs; the client adds `/api/v2.0` or `/api/v1.0` per operation from
 * generated/operations.ts.
 */
import type { paths as ShipmentMethodPaths, components as ShipmentComponents } from '../generated/types/shipmentmethods-v1.0.js';
import type { components as VendorComponents, paths as VendorPaths, Writable } from '../generated/types/vendors-v2.0.js';
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { ClientError } from './errors.js';
import type { Result, TypedClient } from './types.js';

export type BusinessCentralPaths = VendorPaths & ShipmentMethodPaths;

export type Vendor = VendorComponents['schemas']['Vendor'];
/** A vendor as sent: without the read-only `id` and `lastModifiedDateTime`. */
export type VendorUpdate = Writable<Vendor>;
export type ShipmentMethod = ShipmentComponents['schemas']['ShipmentMethod'];
export type BusinessCentralError = VendorComponents['schemas']['BusinessCentralError'];

const VENDOR = '/companies({company_id})/vendors({vendor_id})';

export interface UpdateVendorArgs {
  companyId: string;
  /** The vendor's id, a GUID. */
  vendorId: string;
  /** The vendor's current eTag (`@odata.etag` of the last read). `*` is refused here. */
  eTag: string;
  /** Only the fields to change. */
  vendor: VendorUpdate;
  signal?: AbortSignal;
}

export type UpdateVendorResult = Result<BusinessCentralPaths[typeof VENDOR]['patch']>;

export interface BusinessCentralClient extends TypedClient<BusinessCentralPaths> {
  /**
   * PATCH a vendor with an explicit eTag in If-Match. Same result shape as `PATCH`:
   * a mismatched eTag comes back as `{ ok: false, error, response }`.
   */
  updateVendor(args: UpdateVendorArgs): Promise<UpdateVendorResult>;
}

export function createBusinessCentralClient(options: ClientOptions): BusinessCentralClient {
  const core = createCore(options, 'business-central');
  const methods = methodsOf(core);

  function updateVendor({ companyId, vendorId, eTag, vendor, signal }: UpdateVendorArgs): Promise<UpdateVendorResult> {
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

  return Object.assign(methods, { updateVendor }) as unknown as BusinessCentralClient;
}
