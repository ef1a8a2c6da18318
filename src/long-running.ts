/**
 * Waits for a long-running operation of the resource-management family, by ARM's rules
 * (the ones `@azure/core-lro` implements):
 *
 *   - the first answer is checked like any call; a 4xx/5xx rejects with ClientError `http`;
 *   - where to poll: the `Azure-AsyncOperation` link first (a status monitor:
 *     `{ status: InProgress | Succeeded | Failed | Canceled, error? }`), else the
 *     `Location` link (202 while running, then the final answer), else, for a PUT or PATCH
 *     whose answer has a non-terminal `provisioningState`, the resource itself;
 *     an answer with none of these is already the final one;
 *   - between polls: the last answer's `Retry-After`, else `pollIntervalMs`, never more than
 *     `maxDelayMs`; the whole wait ends at `maxWaitMs` (ClientError `poll-timeout`) or on
 *     the caller's signal (`aborted`);
 *   - where the result is read once it succeeded: `final-state-via` when the document
 *     declares it (generated/client-manifest.ts), else by method: PUT reads the resource
 *     (the original URL), DELETE has none, PATCH the original URL, POST the Location link;
 *   - `Failed` or `Canceled` rejects with ClientError `operation-failed` / `operation-canceled`
 *     carrying the service's error body.
 *
 * Every link is data from the service: it is followed only on the client's own origin
 * (ClientError `foreign-poll-link` before anything, token included, is sent elsewhere).
 */
import { pause } from './attempt.js';
import { SENT_URL, type Core } from './core.js';
import { ClientError } from './errors.js';
import { ownLink } from './paging.js';
import { retryAfterMs } from './retry.js';

export interface PollOptions {
  /** Cancels the current request or wait and rejects with a ClientError `aborted`. */
  signal?: AbortSignal;
  /** Extra headers for the first request and every poll. */
  headers?: Record<string, string>;
  /** Wait between polls when the service gives no Retry-After (default 1 000 ms). */
  pollIntervalMs?: number;
  /** Longest wait between two polls, whatever Retry-After says (default 60 000 ms). */
  maxDelayMs?: number;
  /** Longest wait in all before giving up with ClientError `poll-timeout` (default 1 800 000 ms, 30 min). */
  maxWaitMs?: number;
}

interface Answer {
  ok: boolean;
  data?: any;
  error?: unknown;
  response: Response & { [SENT_URL]?: string };
}

const TERMINAL = /^(succeeded|failed|canceled|cancelled)$/i;
const stateOf = (body: any): string | undefined => {
  const state = body?.properties?.provisioningState ?? body?.provisioningState;
  return typeof state === 'string' ? state : undefined;
};

function positive(value: number | undefined, fallback: number, name: string, what: string): number {
  const ms = value ?? fallback;
  if (!(ms >= 0 && ms <= 2 ** 31 - 1)) throw new ClientError('invalid-argument', `${what}: "${name}" must be 0 to 2147483647 ms; nothing sent.`, { parameter: name });
  return ms;
}

export async function pollUntilDone(core: Core, method: string, path: string, init: Record<string, any> & PollOptions = {}): Promise<unknown> {
  const { signal, headers, pollIntervalMs, maxDelayMs, maxWaitMs, ...request } = init ?? {};
  const what = `${method} ${path}`;
  const interval = positive(pollIntervalMs, 1000, 'pollIntervalMs', what);
  const ceiling = positive(maxDelayMs, 60_000, 'maxDelayMs', what);
  const deadline = Date.now() + positive(maxWaitMs, 1_800_000, 'maxWaitMs', what);
  const op = core.operation(method, path);
  const each = { signal, headers };

  const checked = (answer: Answer, step: string): Answer => {
    if (!answer.ok) throw new ClientError('http', `${what}: ${step} answered ${answer.response.status}.`, { status: answer.response.status, body: answer.error });
    return answer;
  };
  const link = (href: string | null | undefined, name: string): URL | undefined =>
    href ? ownLink(core, href, op?.apiVersion, 'foreign-poll-link', `${what}: ${name}`) : undefined;
  const get = async (url: URL, step: string) => checked(await core.sendUrl(url, each), step);
  const wait = async (last: Answer) => {
    const ms = Math.min(retryAfterMs(last.response) ?? interval, ceiling);
    if (Date.now() + ms > deadline) throw new ClientError('poll-timeout', `${what}: still running after maxWaitMs; it goes on at the service.`);
    await pause(ms, signal, what);
  };
  const ended = (state: string, body: any, step: string): void => {
    if (/^succeeded$/i.test(state)) return;
    const canceled = /^cancel/i.test(state);
    throw new ClientError(canceled ? 'operation-canceled' : 'operation-failed', `${what}: ${step} ended ${state}.`, { body: body?.error === undefined ? body : { error: body.error } });
  };

  const first = checked(await core.send(method, path, { ...request, ...each }), 'the first request');
  const original = link(first.response[SENT_URL], 'the request URL');
  const statusLink = link(first.response.headers.get('Azure-AsyncOperation'), 'Azure-AsyncOperation');
  const location = link(first.response.headers.get('Location'), 'Location');
  const via = op?.finalStateVia;
  let last = first;

  if (statusLink) {
    for (;;) {
      await wait(last);
      last = await get(statusLink, 'the status monitor');
      const status = last.data?.status;
      if (typeof status !== 'string') throw new ClientError('invalid-status', `${what}: the status monitor answered no "status".`);
      if (TERMINAL.test(status)) {
        ended(status, last.data, 'the operation');
        break;
      }
    }
  } else if (location) {
    do {
      await wait(last);
      last = await get(location, 'the Location link');
    } while (last.response.status === 202);
  } else if ((method === 'PUT' || method === 'PATCH') && original && stateOf(first.data) !== undefined) {
    // No link: the resource's own provisioningState says when it is done.
    while (!TERMINAL.test(stateOf(last.data) ?? 'Succeeded')) {
      await wait(last);
      last = await get(original, 'the resource');
    }
    ended(stateOf(last.data) ?? 'Succeeded', last.data, 'the resource');
    return last.data;
  } else {
    return first.data;
  }

  // Succeeded: where the result is, by final-state-via or the method's rule.
  const from =
    via === 'original-uri' || (via === undefined && (method === 'PUT' || method === 'PATCH'))
      ? original
      : via === 'location' || (via === undefined && method === 'POST')
        ? statusLink && location
        : undefined;
  if (from) return (await get(from, 'the final read')).data;
  if (method === 'DELETE') return undefined;
  // final-state-via azure-async-operation, or the Location link's own last answer.
  return statusLink ? (via === 'azure-async-operation' ? last.data : undefined) : last.data;
}
