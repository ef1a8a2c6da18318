/**
 * Thin typed clients for the resource-management and business-data APIs.
 *
 * Result shape (every call of GET/POST/PATCH/... and `updateVendor`):
 *   `{ ok: true, data, response }` for a 2xx answer, data typed by the success schema;
 *   `{ ok: false, error, response }` for any other status, error typed by the family's
 *   error model (CloudError, ErrorResponse, or the business-data error body). `ok` is
 *   `response.ok`; an empty or non-JSON error body becomes
 *   `{ error: { code: 'EmptyErrorBody' | 'NonJsonErrorBody', message } }`.
 * An HTTP answer never throws. Everything else rejects with a ClientError carrying a
 * `code` (see ./errors.ts): refused arguments, network failure, timeout, abort, a
 * success body that is not JSON, a foreign nextLink. Messages never contain the token.
 *
 * `createResourceManagerClient` and `createBusinessCentralClient` hold every API of their
 * family; `createResourceManagerClientOf([sqlApi], options)` and its business-data twin
 * hold only the APIs named, so an app that names what it calls bundles nothing of the rest.
 *
 * The Node transport lives in its own module (`./transport-node-http.js`) so that
 * importing this file never pulls in node:http.
 */
export { createResourceManagerClient, createResourceManagerClientOf } from './resource-manager.js';
export type {
  CachedImagesParams,
  ResourceManagerApiName,
  ResourceManagerApiVersions,
  ResourceManagerClient,
  ResourceManagerOptions,
  ResourceManagerPaths,
} from './resource-manager.js';
export { createBusinessCentralClient, createBusinessCentralClientOf } from './business-central.js';
export type {
  BusinessCentralApiName,
  BusinessCentralApiVersions,
  BusinessCentralClient,
  BusinessCentralOptions,
  BusinessCentralPaths,
  UpdateVendorArgs,
  UpdateVendorResult,
} from './business-central.js';
// Plain model and request-body types (no $Read/$Write markers), at each API's default
// version: see ./models.ts. `SchemaOf<api, name, version>` names a schema of any version.
export type {
  BusinessCentralError,
  CachedImages,
  CachedImagesListResult,
  CheckNameAvailabilityRequest,
  CheckNameAvailabilityResponse,
  CloudError,
  ContainerInstanceCloudError,
  ErrorResponse,
  Plain,
  PlainWritable,
  RoleEligibilityScheduleRequest,
  ShipmentMethod,
  ShipmentMethodCreate,
  Vendor,
  VendorUpdate,
} from './models.js';
export { ClientError, isBusinessCentralErrorBody, isClientError } from './errors.js';
export type { BusinessCentralErrorBody, ClientErrorCode, ClientErrorDetails } from './errors.js';
export type { ClientOptions, TokenCredentialLike } from './core.js';
// The manifest: `apis` (every API, per family) and one const per API (`<api>Api`), what the
// `...ClientOf` factories take so that an app bundles only the APIs it names.
export * from '../generated/client-manifest.js';
export type { ManifestApi } from './operations.js';
export type { PageOptions } from './paging.js';
export { createBatch } from './batch.js';
export type { Batch, BatchAnswer, BatchRequest, BatchRequestOptions, BatchResult } from './batch.js';
export type { PollOptions } from './long-running.js';
export type { FinalOf, LongRunningMethod, LongRunningPaths, PollInit } from './conventions.js';
export type { HttpMethod, Result, TypedClient } from './types.js';
export type { ApiName, ApiVersions, DefaultVersionOf, SchemaOf, VersionOf, WithPinnedApiVersion, Writable } from './versions.js';
