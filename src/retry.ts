/**
 * Retries: which requests may be sent again (idempotent methods only), after which
 * answers, and how long to wait (Retry-After when the server gives one within bounds,
 * else exponential backoff with jitter).
 */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Retry-After in milliseconds (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (header === null) return undefined;
  const seconds = Number(header);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isNaN(wait) ? undefined : Math.max(0, wait);
}

/** Milliseconds to wait before the next attempt, or undefined to stop retrying. */
export function retryDelay(response: Response, attempt: number, delayMs: number, maxDelayMs: number): number | undefined {
  const wait = retryAfterMs(response);
  if (wait !== undefined) return wait > maxDelayMs ? undefined : wait;
  return backoff(attempt, delayMs, maxDelayMs);
}

// Exponential backoff with jitter, so many clients do not retry in step.
export function backoff(attempt: number, delayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, delayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
}
