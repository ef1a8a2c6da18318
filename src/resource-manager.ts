/**
 * The resource-management client: every resource-management document behind one
 * openapi-fetch client, with `api-version` filled in per operation. Each API is sent at
 * the version pinned in `apiVersions`, else at its default (the newest non-preview
 * version), and the client is typed by exactly those versions (src/versions.ts).
 */
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { followNextLinks, type PageOptions } from './paging.js';
import type { TypedClient } from './types.js';
import type { ApiVersions, FamilyPaths, FamilySchemas, SchemaIn, SchemaOf } from './versions.js';

type Family = 'resource-manager';

/** The API versions a resource-management client may pin, e.g. `{ sql: '2025-01-01' }`. */
export type ResourceManagerApiVersions = ApiVersions<Family>;

export interface ResourceManagerOptions<Pins extends ResourceManagerApiVersions = {}> extends ClientOptions {
  apiVersions?: Pins;
}

/** The paths a client with these pins calls (default versions when none). */
export type ResourceManagerPaths<Pins extends ResourceManagerApiVersions = {}> = FamilyPaths<Family, Pins>;

// The named models, at each API's default version; `SchemaOf<api, name, version>` gives any other.
export type RoleEligibilityScheduleRequest = SchemaOf<'authorization', 'RoleEligibilityScheduleRequest'>;
export type CloudError = SchemaOf<'authorization', 'CloudError'>;
export type CheckNameAvailabilityRequest = SchemaOf<'sql', 'CheckNameAvailabilityRequest'>;
export type CheckNameAvailabilityResponse = SchemaOf<'sql', 'CheckNameAvailabilityResponse'>;
export type ErrorResponse = SchemaOf<'sql', 'ErrorResponse'>;
export type CachedImages = SchemaOf<'containerinstance', 'CachedImages'>;
export type CachedImagesListResult = SchemaOf<'containerinstance', 'CachedImagesListResult'>;
export type ContainerInstanceCloudError = SchemaOf<'containerinstance', 'CloudError'>;

type ImagesSchemas<Pins extends ResourceManagerApiVersions> = FamilySchemas<Family, Pins, 'containerinstance'>;

export interface CachedImagesParams {
  subscriptionId: string;
  location: string;
}

export interface ResourceManagerClient<Pins extends ResourceManagerApiVersions = {}> extends TypedClient<ResourceManagerPaths<Pins>> {
  /**
   * Pages of cached images, following `nextLink` on the client's origin only. Throws a
   * ClientError (`http` with status and CloudError body, `foreign-next-link`, `timeout`, ...)
   * instead of yielding an error.
   */
  listCachedImagePages(
    params: CachedImagesParams,
    options?: PageOptions,
  ): AsyncGenerator<SchemaIn<ImagesSchemas<Pins>, 'CachedImagesListResult'>, void, undefined>;
  /** The cached images of every page, one by one (same rules as listCachedImagePages). */
  listCachedImages(params: CachedImagesParams, options?: PageOptions): AsyncGenerator<SchemaIn<ImagesSchemas<Pins>, 'CachedImages'>, void, undefined>;
}

const CACHED_IMAGES = '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages';

export function createResourceManagerClient<const Pins extends ResourceManagerApiVersions = {}>(
  options: ResourceManagerOptions<Pins>,
): ResourceManagerClient<Pins> {
  const core = createCore(options, 'resource-manager');
  const methods = methodsOf(core);

  function listCachedImagePages(params: CachedImagesParams, pageOptions: PageOptions = {}) {
    const first = (init: Record<string, unknown>) =>
      core.send('GET', CACHED_IMAGES, {
        ...init,
        params: { path: { subscriptionId: params.subscriptionId, location: params.location } },
      });
    return followNextLinks<CachedImagesListResult>(core, first, `GET ${CACHED_IMAGES}`, core.operation('GET', CACHED_IMAGES)?.apiVersion, pageOptions);
  }

  async function* listCachedImages(params: CachedImagesParams, pageOptions: PageOptions = {}) {
    for await (const page of listCachedImagePages(params, pageOptions)) yield* page.value ?? [];
  }

  return Object.assign(methods, { listCachedImagePages, listCachedImages }) as unknown as ResourceManagerClient<Pins>;
}
