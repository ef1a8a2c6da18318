/**
 * The resource-management client: every resource-management document behind one
 * openapi-fetch client, with `api-version` filled in per operation. Each operation is
 * sent at the version of its API pinned in `apiVersions`, else at the newest non-preview
 * version that declares it, and the client is typed by exactly that (src/versions.ts).
 */
import { apis } from '../generated/client-manifest.js';
import { createCore, methodsOf, type ClientOptions } from './core.js';
import { heldOf, type HeldApi, type ManifestApi } from './operations.js';
import { listsOf, type PageOptions } from './paging.js';
import { pollUntilDone } from './long-running.js';
import type { FinalOf, ItemOf, ListInit, ListPaths, LongRunningMethod, LongRunningPaths, PageOf, PollInit } from './conventions.js';
import type { TypedClient } from './types.js';
import type { ApiVersions, FamilyPaths, SchemaOf } from './versions.js';

type Family = 'resource-manager';

/** A resource-management API the package holds, by name (the key before `@` in redocly.yaml). */
export type ResourceManagerApiName = keyof ApiVersions<Family>;

/** The API versions a resource-management client (of `Apis`, when it names them) may pin, e.g. `{ sql: '2025-01-01' }`. */
export type ResourceManagerApiVersions<Apis extends ResourceManagerApiName = ResourceManagerApiName> = ApiVersions<Family, Apis>;

export interface ResourceManagerOptions<Pins extends ResourceManagerApiVersions = {}> extends ClientOptions {
  apiVersions?: Pins;
}

/** The paths a client with these pins (default versions when none) holding `Apis` (every API unless named) calls. */
export type ResourceManagerPaths<Pins extends ResourceManagerApiVersions = {}, Apis extends ResourceManagerApiName = ResourceManagerApiName> = FamilyPaths<
  Family,
  Pins,
  Apis
>;

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

export interface ResourceManagerClient<Pins extends ResourceManagerApiVersions = {}, Apis extends ResourceManagerApiName = ResourceManagerApiName>
  extends TypedClient<ResourceManagerPaths<Pins, Apis>> {
  /**
   * The pages of any nextLink-paged list (a GET whose 200 body has `value` and
   * `nextLink`), following `nextLink` on the client's origin only. Throws a ClientError
   * (`http` with status and error body, `foreign-next-link`, `timeout`, ...) instead of
   * yielding an error.
   */
  listPages<Path extends ListPaths<ResourceManagerPaths<Pins, Apis>>>(
    path: Path,
    init?: ListInit<ResourceManagerPaths<Pins, Apis>, Path>,
  ): AsyncGenerator<PageOf<ResourceManagerPaths<Pins, Apis>, Path>, void, undefined>;
  /** The items of every page of `listPages`, one by one. */
  listAll<Path extends ListPaths<ResourceManagerPaths<Pins, Apis>>>(
    path: Path,
    init?: ListInit<ResourceManagerPaths<Pins, Apis>, Path>,
  ): AsyncGenerator<ItemOf<ResourceManagerPaths<Pins, Apis>, Path>, void, undefined>;
  /**
   * Starts a long-running operation (a PUT, PATCH, POST or DELETE whose 201/202 answer
   * declares `Azure-AsyncOperation` or `Location`) and waits until it is done, read as
   * `@azure/core-lro` reads it (src/long-running.ts): the status monitor before Location,
   * Retry-After within `maxDelayMs`, the result where core-lro reads it (a PUT's from its
   * own URL, whatever `final-state-via` says). Resolves with the final resource (typed as
   * the path method types its 200 body; nothing for DELETE); rejects with a ClientError:
   * `operation-failed` / `operation-canceled` (the service's error in `body`), `http`,
   * `poll-timeout`, `aborted`, `foreign-poll-link`.
   */
  beginAndWait<M extends LongRunningMethod, Path extends LongRunningPaths<ResourceManagerPaths<Pins, Apis>, M>>(
    method: M,
    path: Path,
    init: PollInit<ResourceManagerPaths<Pins, Apis>, Path, M>,
  ): Promise<FinalOf<ResourceManagerPaths<Pins, Apis>, Path, M>>;
  /** `listPages` of the cached images of a region. */
  listCachedImagePages(
    params: CachedImagesParams,
    options?: PageOptions,
  ): AsyncGenerator<PageOf<ResourceManagerPaths<Pins, Apis>, CachedImagesPath & keyof ResourceManagerPaths<Pins, Apis>>, void, undefined>;
  /** `listAll` of the cached images of a region. */
  listCachedImages(
    params: CachedImagesParams,
    options?: PageOptions,
  ): AsyncGenerator<ItemOf<ResourceManagerPaths<Pins, Apis>, CachedImagesPath & keyof ResourceManagerPaths<Pins, Apis>>, void, undefined>;
}

/** A client of every resource-management API the package holds. */
export function createResourceManagerClient<const Pins extends ResourceManagerApiVersions = {}>(
  options: ResourceManagerOptions<Pins>,
): ResourceManagerClient<Pins> {
  return clientOf(options, apis['resource-manager']) as ResourceManagerClient<Pins>;
}

/**
 * The same client holding only the APIs named, as the package exports them
 * (`createResourceManagerClientOf([sqlApi], options)`), and typed by their paths alone: an
 * app that names the APIs it calls bundles only their entries of the manifest, however many
 * APIs the package holds (bench/size.mjs). A path or pin of another API is refused.
 */
export function createResourceManagerClientOf<
  const Named extends readonly ManifestApi<Family, ResourceManagerApiName>[],
  const Pins extends ResourceManagerApiVersions<Named[number]['name']> = {},
>(named: Named, options: ResourceManagerOptions<Pins>): ResourceManagerClient<Pins, Named[number]['name']> {
  return clientOf(options as ClientOptions, heldOf('resource-manager', named)) as ResourceManagerClient<Pins, Named[number]['name']>;
}

function clientOf(options: ClientOptions, held: Readonly<Record<string, HeldApi>>): unknown {
  const core = createCore(options, 'resource-manager', held);
  const methods = methodsOf(core);

  const { listPages, listAll } = listsOf(core, 'nextLink');

  const imagesParams = (params: CachedImagesParams) => ({ path: { subscriptionId: params.subscriptionId, location: params.location } });
  const listCachedImagePages = (params: CachedImagesParams, pageOptions: PageOptions = {}) =>
    listPages(CACHED_IMAGES, { ...pageOptions, params: imagesParams(params) });
  const listCachedImages = (params: CachedImagesParams, pageOptions: PageOptions = {}) =>
    listAll(CACHED_IMAGES, { ...pageOptions, params: imagesParams(params) });

  const beginAndWait = (method: string, path: string, init?: Record<string, any>) => pollUntilDone(core, String(method).toUpperCase(), path, init);

  return Object.assign(methods, { listPages, listAll, beginAndWait, listCachedImagePages, listCachedImages });
}
