/**
 * Follows a page's next link page by page: `nextLink` for the lists of resource
 * management, `@odata.nextLink` for business data's entity sets (the link's property
 * name is the caller's).
 *
 * A nextLink comes from the service's answer, so it is data, not a destination the
 * caller chose: it is followed only when it resolves to the client's own origin
 * (scheme, host and port); anything else is refused with a ClientError
 * `foreign-next-link` before a request, and so before the bearer token, leaves.
 * A link already visited ends the iteration instead of looping forever.
 */
import { SENT_URL, type Core } from './core.js';
import { ClientError } from './errors.js';

export interface PageOptions {
  /** Cancels the current request and ends the iteration with a ClientError `aborted`. */
  signal?: AbortSignal;
  /** Extra headers for every page request, the first and each nextLink (e.g. `Prefer`). */
  headers?: Record<string, string>;
  /**
   * Most pages fetched (default 1000). A nextLink still left after that many pages ends
   * the iteration with a ClientError `page-limit`, so a server cannot page forever.
   */
  maxPages?: number;
}

interface PageResult {
  ok: boolean;
  data?: unknown;
  error?: unknown;
  response: Response;
}

const DEFAULT_MAX_PAGES = 1000;

/** The shape every page must have; anything else is a ClientError, not a crash or a loop over characters. */
function checkPage(page: unknown, what: string, n: number, linkName: string): asserts page is Record<string, unknown> & { value?: unknown[] } {
  const bad = (why: string) => new ClientError('invalid-page', `${what}: page ${n} ${why}.`);
  if (typeof page !== 'object' || page === null || Array.isArray(page)) throw bad('is not an object');
  const { value, [linkName]: nextLink } = page as Record<string, unknown>;
  if (value !== undefined && value !== null && !Array.isArray(value)) throw bad('has a "value" that is not an array');
  if (nextLink !== undefined && nextLink !== null && typeof nextLink !== 'string') throw bad(`has a "${linkName}" that is not a string`);
}

const normal = (href: string) => {
  const url = new URL(href);
  url.hash = '';
  return url.href;
};

/**
 * The pages of a list: `first` sends the first request, then each page's `linkName`
 * property (`nextLink`, `@odata.nextLink`) is followed on the client's origin. A link
 * without `api-version` gets `apiVersion` when one is given (resource management).
 */
/**
 * A link read from an answer (a nextLink, a long-running operation's status or Location
 * link), as the clients follow it: resolved against baseUrl, so a relative link stays on
 * the client's origin; anything else, or a link that does not parse (origin "null"), is
 * refused with ClientError `code` before a request, and so the token, leaves. The fragment
 * is dropped; an ARM link without `api-version` gets the operation's.
 */
export function ownLink(core: Core, href: string, apiVersion: string | undefined, code: 'foreign-next-link' | 'foreign-poll-link', what: string): URL {
  const url = URL.canParse(href, `${core.base}/`) ? new URL(href, `${core.base}/`) : new URL('about:blank');
  if (url.origin !== core.origin) throw new ClientError(code, `${what} to ${url.origin} refused, not the client's origin ${core.origin}.`);
  url.hash = '';
  if (apiVersion !== undefined && !url.searchParams.has('api-version')) url.searchParams.set('api-version', apiVersion);
  return url;
}

export async function* followNextLinks<Page extends object>(
  core: Core,
  first: (init: Record<string, unknown>) => Promise<PageResult>,
  what: string,
  apiVersion: string | undefined,
  options: PageOptions = {},
  linkName = 'nextLink',
): AsyncGenerator<Page, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!(Number.isSafeInteger(maxPages) && maxPages > 0)) {
    throw new ClientError('invalid-argument', `${what}: "maxPages" must be a positive integer; nothing sent.`, { parameter: 'maxPages' });
  }
  // The same request options for every page, not only the first.
  const init: Record<string, unknown> = { signal: options.signal, headers: options.headers };
  // Every URL requested, the first page's included, so a link back to any of them ends
  // the iteration instead of yielding the same items again.
  const seen = new Set<string>();
  // Called here, not by the caller: an iterator never started sends nothing and
  // leaves no promise to reject unobserved.
  let result = await first(init);
  for (let pages = 1; ; pages++) {
    const sent = (result.response as Response & { [SENT_URL]?: string })[SENT_URL];
    if (sent) seen.add(normal(sent));
    if (!result.ok) {
      // An iterator cannot hand back { error }: the status and typed body go on the error.
      throw new ClientError('http', `${what} answered ${result.response.status}.`, {
        status: result.response.status,
        body: result.error,
      });
    }
    const page = result.data;
    if (page === undefined || page === null) return;
    checkPage(page, what, pages, linkName);
    yield page as unknown as Page;
    const next = page[linkName] as string | null | undefined;
    if (!next) return;
    const url = ownLink(core, next, apiVersion, 'foreign-next-link', `${what}: ${linkName}`);
    if (seen.has(url.href)) return;
    if (pages >= maxPages) {
      throw new ClientError('page-limit', `${what}: stopped after ${maxPages} pages (maxPages) with a ${linkName} left.`);
    }
    seen.add(url.href);
    result = await core.sendUrl(url, init);
  }
}

type ListInitArg = { params?: Record<string, any> } & PageOptions;

/**
 * A client's `listPages` and `listAll` over its core: pages follow `linkName` (`nextLink`
 * for resource management, `@odata.nextLink` for business data); a link without
 * `api-version` gets the operation's, when it has one (resource management).
 */
export function listsOf(core: Core, linkName: string) {
  function listPages(path: string, init: ListInitArg = {}) {
    const { params, ...pageOptions } = init ?? {};
    const first = (pageInit: Record<string, unknown>) => core.send('GET', path, { ...pageInit, params });
    return followNextLinks<{ value?: unknown[] }>(core, first, `GET ${path}`, core.operation('GET', path)?.apiVersion, pageOptions, linkName);
  }
  async function* listAll(path: string, init: ListInitArg = {}) {
    for await (const page of listPages(path, init)) yield* page.value ?? [];
  }
  return { listPages, listAll };
}
