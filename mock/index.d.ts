// Types of the mock's programmatic entry (`provider-api-clients/mock`).
// What the mock answers: docs/mock.md. How to test an app against it: docs/contract-testing.md.

/** The eTag an entity starts with when nobody chose one and no document gives If-Match an example. */
export const INITIAL_ETAG: string;
/** Where the test API answers over HTTP by default (`<url>/__mock/...`). */
export const ADMIN_PREFIX: '/__mock';

export type MockFamily = 'resource-manager' | 'business-central';

/** A document to serve instead of redocly.yaml's list (fixtures, another project's documents). */
export interface MockDocument {
  /** Lower-case name; with `version` it names the document in routes and messages. */
  api: string;
  /** The api-version a resource-management request names; the /api/vX.Y of business data comes from servers[0]. */
  version: string;
  family: MockFamily;
  /** A bundled OpenAPI 3.x document (no external `$ref`), parsed, or the path of one (YAML or JSON). */
  document: string | Record<string, unknown>;
}

export interface StartMockOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The workspace whose redocly.yaml lists the documents to serve; default: this package's own folder. */
  root?: string;
  /** Serve these documents instead of the package's own (redocly.yaml's list). */
  documents?: MockDocument[];
  /** Names the name check answers `AlreadyExists` for, besides those of the spec's `AlreadyExists` examples. */
  takenNames?: string[];
  /** Where the test API answers over HTTP; `false` turns it off. Default `/__mock`. */
  adminPrefix?: string | false;
  /** How many requests `requests` keeps (the newest). Default 1000. */
  maxRecordedRequests?: number;
  /** pino level of Prism's log on stderr; default 'silent'. */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /**
   * Host names answered besides loopback ones (localhost, 127.0.0.0/8, [::1]); any other
   * Host gets 403, against DNS rebinding. `'*'` answers every Host.
   */
  allowHosts?: string[];
  /**
   * Origins (`http://app.test:3000`) whose pages may change state (POST, PUT, PATCH,
   * DELETE); pages on any origin may read. Loopback origins always may; `'*'` allows all.
   */
  allowOrigins?: string[];
}

/**
 * How the mock answers an operation (docs/mock.md): a rule of the source for that
 * operation, a family convention, or its documented example. The names the code declares
 * (CONVENTIONS of mock/conventions/index.mjs), held equal by test/contract/declarations.test.ts.
 */
export type MockConvention =
  | 'source-rule'
  | 'odata-list'
  | 'odata-create'
  | 'odata-read'
  | 'odata-update'
  | 'odata-delete'
  | 'odata-action'
  | 'odata-count'
  | 'odata-batch'
  | 'arm-read'
  | 'arm-put'
  | 'arm-patch'
  | 'arm-delete'
  | 'arm-list'
  | 'arm-action'
  | 'arm-paging'
  | 'example';

export interface MockRoute {
  api: string;
  operationId: string;
  method: string;
  path: string;
  /** The api-version (resource management) or the /api/vX.Y prefix (business data). */
  version: string;
  convention: MockConvention;
}

/** An entity to put in place: one of a company's OData entity set (`vendors`, `shipmentMethods`, ...). */
export interface SeedEntity {
  /** The company key, as in `companies(<company>)`. */
  company: string;
  /** The entity set's name as the paths spell it, e.g. `vendors`. */
  set: string;
  /** The key in `<set>(<key>)`; default `entity.id`. */
  key?: string;
  entity: Record<string, unknown>;
  /** Its current eTag; default the set's initial tag (INITIAL_ETAG unless a document gives If-Match an example). */
  eTag?: string;
}

/** The items of a nextLink-paged list operation, with the page size (default 2). */
export type SeedList = unknown[] | { items: unknown[]; pageSize?: number };

/**
 * An ARM resource to put in place: its `id` (`/subscriptions/{s}/resourceGroups/{rg}/providers/{Namespace}/{type}/{name}`)
 * names a type whose document declares a PUT; `name` and `type` are set from it.
 */
export type SeedResource = { id: string } & Record<string, unknown>;

export interface SeedData {
  entities?: SeedEntity[];
  /** Added to the names the name check answers `AlreadyExists` for. */
  takenNames?: string[];
  /** By operationId: what the list answers instead of its documented items. */
  lists?: Record<string, SeedList>;
  /**
   * By OData entity set (`customers`): the server page size of its lists (1 to 1000;
   * default 100). Past it, a page carries `@odata.nextLink` (docs/mock.md).
   */
  pageSizes?: Record<string, number>;
  /** ARM resources, added to the store (which starts from the documented resources). */
  resources?: SeedResource[];
  /** Items per page of the ARM lifecycle's lists (default 2), until reset. */
  resourcePageSize?: number;
}

export interface StoredEntity {
  company: string;
  set: string;
  key: string;
  entity: Record<string, unknown>;
  eTag: string;
}

/** An ARM resource the store holds. */
export interface StoredResource {
  id: string;
  /** `{Namespace}/{type}[/{childType}]`, as in the resource's `type` field. */
  type: string;
  resource: Record<string, unknown> & { id: string; name: string; type: string };
  /** The id of its long-running operation, while one runs. */
  operation?: string;
}

export type LongRunningStatus = 'InProgress' | 'Succeeded' | 'Failed' | 'Canceled';

/** An ARM error, as a status monitor carries it. */
export interface ArmError {
  code: string;
  message: string;
}

/** A long-running operation the mock started (docs/mock.md, "Long-running operations"). */
export interface LongRunningOperation {
  /** The last segment of its status URLs. */
  id: string;
  method: string;
  /** `action`: a POST action on the resource (its result once it succeeded). */
  phase: 'create' | 'replace' | 'update' | 'delete' | 'action';
  resourceId: string;
  status: LongRunningStatus;
  /** Polls so far, and the poll on which it ends. */
  polls: number;
  pollsNeeded: number;
  retryAfter: number;
  startTime: string;
  endTime?: string;
  error?: ArmError;
}

/** What a long-running rule's `when` sees of the request that starts an operation. */
export interface LongRunningRequest {
  method: string;
  /** As sent, without the query. */
  path: string;
  operationId: string;
  api: string;
  version: string;
}

/**
 * How long-running operations go: the next `times` operations that match `when` (every
 * one when `times` is left out, until reset), or, with `operation`, one running now.
 */
export interface LongRunningRule {
  when?: ((request: LongRunningRequest) => boolean) | Partial<LongRunningRequest>;
  times?: number;
  /** The poll on which it ends (1 to 1000; default 1): each GET of its status monitor, its Location URL or the resource is one. */
  polls?: number;
  /** Seconds in Retry-After (0 to 3600; default 1). */
  retryAfter?: number;
  /** How it ends (default Succeeded). */
  outcome?: 'Succeeded' | 'Failed' | 'Canceled';
  /** The ARM error of a Failed or Canceled operation (default OperationFailed / OperationCanceled). */
  error?: ArmError;
  /** What its Location URL answers once Failed or Canceled (400-599; default 400). */
  status?: number;
  /** The id of a running operation to change now (no `when`, no `times`). */
  operation?: string;
}

/** What the mock holds (a copy). Entities appear once seeded, created, or first read or changed. */
export interface MockState {
  entities: StoredEntity[];
  /** Keys deleted since the last reset: they answer 404. */
  deleted: Array<{ company: string; set: string; key: string }>;
  takenNames: string[];
  /** Every paged list operation: its seeded items, or its documented ones. */
  lists: Record<string, { items: unknown[]; pageSize?: number; seeded: boolean }>;
  /** The OData entity sets whose page size a test set (seed `pageSizes`). */
  pageSizes: Record<string, number>;
  /** The ARM resources: the documented ones, then those created or seeded since the last reset. */
  resources: StoredResource[];
  /** Items per page of the ARM lifecycle's lists. */
  resourcePageSize: number;
  /** The long-running operations started since the last reset. */
  operations: LongRunningOperation[];
  /** The long-running rules in force (`when` functions shown as '[function]'). */
  longRunning: Array<Omit<LongRunningRule, 'when'> & { id: number; calls: number; when?: unknown }>;
}

/** A request as the mock received it, credentials redacted. */
export interface RecordedRequest {
  id: number;
  /** ISO time of arrival. */
  time: string;
  method: string;
  /** As sent (OData parentheses decoded), without the query. */
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-case names; Authorization keeps only its scheme (`Bearer [redacted]`). */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (text for other media types, null when empty; undefined when never read; a note of its size over 64 KiB). */
  body: unknown;
  /** Undefined when no operation matched (a 404, 405, ...). */
  operationId?: string;
  api?: string;
  version?: string;
  /** The answer's status; null while none was sent (a time-out, a dropped connection). */
  status: number | null;
  /** The override that answered, by id. */
  override?: number;
  fault?: 'timeout' | 'drop';
}

/** What an override's `when` sees of a request. */
export interface OverrideRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The path parameters, decoded. */
  params: Record<string, string>;
  operationId: string;
  api: string;
  version: string;
}

type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface Override {
  /** The operation it answers, in every version that declares it. */
  operationId: string;
  /** Only requests for which this is true, or which have every part given (compared key by key). */
  when?: ((request: OverrideRequest) => boolean) | DeepPartial<OverrideRequest>;
  /** How many calls it answers; leave it out for every call until reset(). */
  times?: number;
  /** Answer with this status (200-599), these headers and this body (an error status without a body gets the family's error body). */
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long first (then the override's answer, or the mock's own). */
  delayMs?: number;
  /** `timeout`: never answer (until the client gives up, reset() or close()); `drop`: close the connection without an answer. */
  fault?: 'timeout' | 'drop';
}

export interface OverrideHandle {
  id: number;
  /** How many requests it answered so far. */
  readonly calls: number;
  /** Takes it away before its time. */
  remove(): void;
}

export interface Mock {
  /** `http://127.0.0.1:<port>`: the base URL for both client families. */
  url: string;
  port: number;
  /** `<url>/__mock`: the test API over HTTP (loopback clients only); undefined when turned off. */
  adminUrl: string | undefined;
  readonly routes: MockRoute[];
  /** What the mock holds now (a copy). */
  readonly state: MockState;
  /** Puts entities, taken names, list items and ARM resources in place (all or nothing); returns the seeded entities with their tags and the seeded resources. */
  seed(data: SeedData): { entities: StoredEntity[]; resources: Array<Record<string, unknown>> };
  /** Answers an operation as the test says; the newest matching override wins. */
  override(override: Override): OverrideHandle;
  /** How the next (or every, or one running) long-running operation goes; the newest matching rule wins. */
  longRunning(rule: LongRunningRule): { id: number; remove(): void };
  /** The overrides in force (`when` functions shown as '[function]'). */
  readonly overrides: Array<Omit<Override, 'when'> & { id: number; calls: number; when?: unknown }>;
  /** What the mock received, oldest first (a copy). */
  readonly requests: RecordedRequest[];
  /**
   * Back to the start: entities and seeded lists forgotten, ARM resources back to the
   * documented ones, long-running operations and rules forgotten, taken names as at start
   * (or `takenNames`), overrides and the request record cleared, held answers dropped.
   */
  reset(options?: { takenNames?: string[] }): void;
  /** Resolves when every document's Prism model is built (the mock serves before that; the first request to a document builds its own). */
  warmed: Promise<void>;
  /** Re-reads the bundled documents; on failure the previous ones stay served. */
  reload(): Promise<MockRoute[]>;
  close(options?: { graceMs?: number }): Promise<void>;
}

export function startMock(options?: StartMockOptions): Promise<Mock>;
