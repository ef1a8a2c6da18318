/**
 * The resource-management client: the three RM documents behind one openapi-fetch
 * client, with `api-version` filled in per operation from generated/operations.ts.
 */
import type { components as AuthorizationComponents, paths as AuthorizationPaths } from '../generated/types/authorization-2020-10-01.js';
import type { components as ContainerInstanceComponents, paths as ContainerInstancePaths } from '../generated/types/containerinstance-2025-09-01.js';
import type { components as SqlComponents, paths as SqlPaths } from '../generated/types/sql-2025-01-01.js';
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { followNextLinks, type PageOptions } from './paging.js';
import type { TypedClient, WithOptionalApiVersion } from './types.js';

export type ResourceManagerPaths = WithOptionalApiVersion<AuthorizationPaths & SqlPaths & ContainerInstancePaths>;

export type RoleEligibilityScheduleRequest = AuthorizationComponents['schemas']['RoleEligibilityScheduleRequest'];
export type CloudError = AuthorizationComponents['schemas']['CloudError'];
export type CheckNameAvailabilityRequest = SqlComponents['schemas']['CheckNameAvailabilityRequest'];
export type CheckNameAvailabilityResponse = SqlComponents['schemas']['CheckNameAvailabilityResponse'];
export type ErrorResponse = SqlComponents['schemas']['ErrorResponse'];
export type CachedImages = ContainerInstanceComponents['schemas']['CachedImages'];
export type CachedImagesListResult = ContainerInstanceComponents['schemas']['CachedImagesListResult'];
export type ContainerInstanceCloudError = ContainerInstanceComponents['schemas']['CloudError'];

export interface CachedImagesParams {
  subscriptionId: string;
  location: string;
}

export interface ResourceManagerClient extends TypedClient<ResourceManagerPaths> {
  /**
   * Pages of cached images, following `nextLink` on the client's origin only. Throws a
   * ClientError (`http` with status and CloudError body, `foreign-next-link`, `timeout`, ...)
   * instead of yielding an error.
   */
  listCachedImagePages(params: CachedImagesParams, options?: PageOptions): AsyncGenerator<CachedImagesListResult, void, undefined>;
  /** The cached images of every page, one by one (same rules as listCachedImagePages). */
  listCachedImages(params: CachedImagesParams, options?: PageOptions): AsyncGenerator<CachedImages, void, undefined>;
}

const CACHED_IMAGES = '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages';

export function createResourceManagerClient(options: ClientOptions): ResourceManagerClient {
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

  return Object.assign(methods, { listCachedImagePages, listCachedImages }) as unknown as ResourceManagerClient;
}
