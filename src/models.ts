/**
 * The model types a consumer names: plain object types, without openapi-typescript's
 * `$Read<…>`/`$Write<…>` markers.
 *
 * Why: the generated schemas mark read-only fields as `id?: $Read<string>`, an object
 * type that only openapi-fetch's `Readable`/`Writable` know how to unwrap. Exported as
 * is, `const v: Vendor = result.data` and a fixture typed `Vendor` with `id: '…'` do not
 * compile. `Plain<T>` unwraps every marker and keeps every field, so a result's `data`
 * (openapi-fetch's `Readable<…>`) is assignable to these, and fixtures are written in
 * them. Request bodies are the `Writable` form: read-only fields absent.
 *
 * They are derived from the family modules' own exports (never from one generated
 * file by name), so a new document version changes nothing here.
 */
import type {
  BusinessCentralPaths,
  BusinessCentralError as RawBusinessCentralError,
  ShipmentMethod as RawShipmentMethod,
  Vendor as RawVendor,
} from './business-central.js';
import type {
  CachedImages as RawCachedImages,
  CachedImagesListResult as RawCachedImagesListResult,
  CheckNameAvailabilityRequest as RawCheckNameAvailabilityRequest,
  CheckNameAvailabilityResponse as RawCheckNameAvailabilityResponse,
  CloudError as RawCloudError,
  ContainerInstanceCloudError as RawContainerInstanceCloudError,
  ErrorResponse as RawErrorResponse,
  RoleEligibilityScheduleRequest as RawRoleEligibilityScheduleRequest,
} from './resource-manager.js';

// The markers, matched by shape: each generated file declares its own copy.
type ReadMarker<U> = { readonly $read: U };
type WriteMarker<U> = { readonly $write: U };

/** `T` with every `$Read<U>`/`$Write<U>` replaced by `U`, all fields kept. */
export type Plain<T> =
  T extends ReadMarker<infer U>
    ? Plain<U>
    : T extends WriteMarker<infer U>
      ? Plain<U>
      : T extends ReadonlyArray<infer E>
        ? Plain<E>[]
        : T extends object
          ? { [K in keyof T]: Plain<T[K]> }
          : T;

/** `T` as sent: read-only fields (`$Read`) left out, markers unwrapped. */
export type PlainWritable<T> =
  T extends ReadMarker<unknown>
    ? never
    : T extends WriteMarker<infer U>
      ? PlainWritable<U>
      : T extends ReadonlyArray<infer E>
        ? PlainWritable<E>[]
        : T extends object
          ? { [K in keyof T as NonNullable<T[K]> extends ReadMarker<unknown> ? never : K]: PlainWritable<T[K]> }
          : T;

// Resource management
export type RoleEligibilityScheduleRequest = Plain<RawRoleEligibilityScheduleRequest>;
export type CloudError = Plain<RawCloudError>;
export type CheckNameAvailabilityRequest = PlainWritable<RawCheckNameAvailabilityRequest>;
export type CheckNameAvailabilityResponse = Plain<RawCheckNameAvailabilityResponse>;
export type ErrorResponse = Plain<RawErrorResponse>;
export type CachedImages = Plain<RawCachedImages>;
export type CachedImagesListResult = Plain<RawCachedImagesListResult>;
export type ContainerInstanceCloudError = Plain<RawContainerInstanceCloudError>;

// Business data
export type Vendor = Plain<RawVendor>;
/** A vendor as sent to `updateVendor`/PATCH: without the read-only `id` and `lastModifiedDateTime`. */
export type VendorUpdate = PlainWritable<RawVendor>;
export type ShipmentMethod = Plain<RawShipmentMethod>;
/** The body of `POST /companies({company_id})/shipmentMethods`: without the read-only fields. */
export type ShipmentMethodCreate = PlainWritable<
  BusinessCentralPaths['/companies({company_id})/shipmentMethods']['post']['requestBody']['content']['application/json']
>;
export type BusinessCentralError = Plain<RawBusinessCentralError>;
