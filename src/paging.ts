/**
 * Follows `nextLink` page by page, for list operations of the resource-management
 * family (cached images today).
 *
 * A nextLink comes from the service's answer, so it is data, not a destination the
 * caller chose: it is followed only when it resolves to the client's own origin
 * (scheme, host and port); anything else is refused with a ClientError
 * `foreign-next-link` before a request, and so before the bearer token, leaves.
 * A link already visited ends the iteration instead of looping forever.
 */
import type { Core } from './core.js';
import { ClientError } from './errors.js';

export interface PageOptions {
  /** Cancels the current request and ends the iteration with a ClientError `aborted`. */
  signal?: AbortSignal;
}

interface PageResult {
  ok: boolean;
  data?: unknown;
  error?: unknown;
  response: Response;
}

export async function* followNextLinks<Page extends { nextLink?: string | null }>(
  core: Core,
  first: () => Promise<PageResult>,
  what: string,
  apiVersion: string | undefined,
  options: PageOptions = {},
): AsyncGenerator<Page, void, undefined> {
  const seen = new Set<string>();
  // Called here, not by the caller: an iterator never started sends nothing and
  // leaves no promise to reject unobserved.
  let result = await first();
  for (;;) {
    if (!result.ok) {
      // An iterator cannot hand back { error }: the status and typed body go on the error.
      throw new ClientError('http', `${what} answered ${result.response.status}.`, {
        status: result.response.status,
        body: result.error,
      });
    }
    const page = result.data as Page | undefined;
    if (page === undefined || page === null) return;
    yield page;
    const next = page.nextLink;
    if (!next) return;
    // Resolved against baseUrl, so a relative link stays on the client's origin; a link
    // that does not parse gets origin "null" and is refused like a foreign one.
    const url = URL.canParse(next, `${core.base}/`) ? new URL(next, `${core.base}/`) : new URL('about:blank');
    if (url.origin !== core.origin) {
      throw new ClientError(
        'foreign-next-link',
        `${what}: nextLink to ${url.origin} refused, not the client's origin ${core.origin}.`,
      );
    }
    url.hash = '';
    if (seen.has(url.href)) return;
    seen.add(url.href);
    // ARM nextLinks normally carry api-version; add the operation's when one does not.
    if (apiVersion !== undefined && !url.searchParams.has('api-version')) url.searchParams.set('api-version', apiVersion);
    result = await core.sendUrl(url, { signal: options.signal });
  }
}
