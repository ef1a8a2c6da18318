/**
 * The resource-management client: every resource-management document behind one
 * openapi-fetch client, with `api-version` filled in per operation. Each operation is
 * sent at the version of its API pinned in `apiVersions`, else at the newest non-preview
 * version that declares it, and the client is typed by exactly that (src/versions.ts).
 */
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { listsOf, type PageOptions } from './paging.js';
import { pollUntilDone } from './long-running.js';
import type { FinalOf, ItemOf, ListInit, ListPaths, LongRunningMethod, LongRunningPaths, PageOf, PollInit } from './conventions.js';
import type { TypedClient } from './types.js';
import type { ApiVersions, FamilyPaths, SchemaOf } from './versions.js';

type Family = 'resource-manager';

/** The API versions a resource-management client may pin, e.g. `{ sql: '2025-01-01' }`. */
export type ResourceManagerApiVersions = ApiVersions<Family>;

export interface ResourceManagerOptions<Pins extends ResourceManagerApiVersions = {}> extends ClientOptions {
  apiVersions?: Pins;
}

/** The paths a client with these pins calls (default versions when none). */
export type ResourceManagerPaths<Pins extends ResourceManagerApiVersions = {}> = FamilyPaths<Family, Pins>;

// The named models, each at the newest non-preview version that defines it; `SchemaOf<api, name, version>` gives any other.
export type RoleEligibilityScheduleRequest = SchemaOf<'authorization', 'RoleEligibilityScheduleRequest'>;
export type CloudError = SchemaOf<'authorization', 'CloudError'>;
export type CheckNameAvailabilityRequest = SchemaOf<'sql', 'CheckNameAvailabilityRequest'>;
export type CheckNameAvailabilityResponse = SchemaOf<'sql', 'CheckNameAvailabilityResponse'>;
export type ErrorResponse = SchemaOf<'sql', 'ErrorResponse'>;
export type CachedImages = SchemaOf<'containerinstance', 'CachedImages'>;
export type CachedImagesListResult = SchemaOf<'containerinstance', 'CachedImagesListResult'>;
export type ContainerInstanceCloudError = SchemaOf<'containerinstance', 'CloudError'>;

const CACHED_IMAGES = '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages';
type CachedImagesPath = typeof CACHED_IMAGES;

export interface CachedImagesParams {
  subscriptionId: string;
  location: string;
}

export interface ResourceManagerClient<Pins extends ResourceManagerApiVersions = {}> extends TypedClient<ResourceManagerPaths<Pins>> {
  /**
   * The pages of any nextLink-paged list (a GET whose 200 body has `value` and
   * `nextLink`), following `nextLink` on the client's origin only. Throws a ClientError
   * (`http` with status and error body, `foreign-next-link`, `timeout`, ...) instead of
   * yielding an error.
   */
  listPages<Path extends ListPaths<ResourceManagerPaths<Pins>>>(
    path: Path,
    init?: ListInit<ResourceManagerPaths<Pins>, Path>,
  ): AsyncGenerator<PageOf<ResourceManagerPaths<Pins>, Path>, void, undefined>;
  /** The items of every page of `listPages`, one by one. */
  listAll<Path extends ListPaths<ResourceManagerPaths<Pins>>>(
    path: Path,
    init?: ListInit<ResourceManagerPaths<Pins>, Path>,
  ): AsyncGenerator<ItemOf<ResourceManagerPaths<Pins>, Path>, void, undefined>;
  /**
   * Starts a long-running operation (a PUT, PATCH, POST or DELETE whose 201/202 answer
   * declares `Azure-AsyncOperation` or `Location`) and waits until it is done, by ARM's
   * rules: the status monitor before Location, Retry-After within `maxDelayMs`, the
   * result read where `final-state-via` says. Resolves with the final resource (typed as
   * the path method types its 200 body; nothing for DELETE); rejects with a ClientError:
   * `operation-failed` / `operation-canceled` (the service's error in `body`), `http`,
   * `poll-timeout`, `aborted`, `foreign-poll-link`.
   */
  beginAndWait<M extends LongRunningMethod, Path extends LongRunningPaths<ResourceManagerPaths<Pins>, M>>(
    method: M,
    path: Path,
    init: PollInit<ResourceManagerPaths<Pins>, Path, M>,
  ): Promise<FinalOf<ResourceManagerPaths<Pins>, Path, M>>;
  /** `listPages` of the cached images of a region. */
  listCachedImagePages(params: CachedImagesParams, options?: PageOptions): AsyncGenerator<PageOf<ResourceManagerPaths<Pins>, CachedImagesPath & keyof ResourceManagerPaths<Pins>>, void, undefined>;
  /** `listAll` of the cached images of a region. */
  listCachedImages(params: CachedImagesParams, options?: PageOptions): AsyncGenerator<ItemOf<ResourceManagerPaths<Pins>, CachedImagesPath & keyof ResourceManagerPaths<Pins>>, void, undefined>;
}

export function createResourceManagerClient<const Pins extends ResourceManagerApiVersions = {}>(
  options: ResourceManagerOptions<Pins>,
): ResourceManagerClient<Pins> {
  const core = createCore(options, 'resource-manager');
  const methods = methodsOf(core);

  const { listPages, listAll } = listsOf(core, 'nextLink');

  const imagesParams = (params: CachedImagesParams) => ({ path: { subscriptionId: params.subscriptionId, location: params.location } });
  const listCachedImagePages = (params: CachedImagesParams, pageOptions: PageOptions = {}) => listPages(CACHED_IMAGES, { ...pageOptions, params: imagesParams(params) });
  const listCachedImages = (params: CachedImagesParams, pageOptions: PageOptions = {}) => listAll(CACHED_IMAGES, { ...pageOptions, params: imagesParams(params) });

  const beginAndWait = (method: string, path: string, init?: Record<string, any>) => pollUntilDone(core, String(method).toUpperCase(), path, init);

  return Object.assign(methods, { listPages, listAll, beginAndWait, listCachedImagePages, listCachedImages }) as unknown as ResourceManagerClient<Pins>;
}
