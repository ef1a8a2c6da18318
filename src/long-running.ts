/**
 * Waits for a long-running operation of the resource-management family, reading it as
 * `@azure/core-lro` 2.7 does (http/operation.js: inferLroMode, findResourceLocation,
 * getResourceLocation, getOperationStatus; poller/operation.js), so this client and the
 * Azure SDKs resolve the same operation with the same result:
 *
 *   - the first answer is checked like any call; a 4xx/5xx rejects with ClientError `http`;
 *   - a status monitor (`Operation-Location`, else `Azure-AsyncOperation`): polled until its
 *     `status` is terminal (no `status`: 202 is running, any other 2xx is done; one that is
 *     not a string is ClientError `invalid-status`). Once it succeeded, the result is read
 *     from the monitor's `resourceLocation` when it gives one, else from where the method
 *     says, `final-state-via` (generated/client-manifest.ts) deciding only where core-lro
 *     lets it: PUT the request URL, whatever `final-state-via` says; PATCH the link
 *     `final-state-via` names (`location`, the default: the Location header; `original-uri`:
 *     the request URL; `azure-async-operation`: none), else the request URL; POST the same
 *     link without that fallback; when there is no link, the monitor's last body is the result;
 *   - else a `Location` link: polled until it answers anything but 202; that last answer is
 *     the result (its `resourceLocation`, if any, read as above), with no further GET;
 *   - else a PUT: the resource itself (the request URL), polled until its
 *     `provisioningState` is terminal; any other method is done with its first answer;
 *   - while it runs, a poll's own `Operation-Location`/`Azure-AsyncOperation` (monitor) or
 *     `Location` header, when present, is where the next poll goes, as in core-lro;
 *   - between polls: the last answer's `Retry-After`, else `pollIntervalMs`, never more than
 *     `maxDelayMs`; the whole wait ends at `maxWaitMs` (ClientError `poll-timeout`) or on
 *     the caller's signal (`aborted`);
 *   - `Failed` or `Canceled` rejects with ClientError `operation-failed` / `operation-canceled`
 *     carrying the service's error body (core-lro rejects both too).
 *
 * On purpose unlike core-lro: a DELETE resolves with nothing and reads no result (core-lro
 * hands back the last body, or reads a monitor's `resourceLocation`; the ARM SDKs type
 * `beginDeleteAndWait` as `void` anyway). Every link is data from the service: it is
 * followed only on the client's own origin (ClientError `foreign-poll-link` before
 * anything, token included, is sent elsewhere), where core-lro follows any.
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

function positive(value: number | undefined, fallback: number, name: string, what: string): number {
  const ms = value ?? fallback;
  if (!(ms >= 0 && ms <= 2 ** 31 - 1))
    throw new ClientError('invalid-argument', `${what}: "${name}" must be 0 to 2147483647 ms; nothing sent.`, { parameter: name });
  return ms;
}

/** How the operation is followed, as core-lro's inferLroMode names it. */
type Mode = 'OperationLocation' | 'ResourceLocation' | 'Body';

export async function pollUntilDone(core: Core, method: string, path: string, init: Record<string, any> & PollOptions = {}): Promise<unknown> {
  const { signal, headers, pollIntervalMs, maxDelayMs, maxWaitMs, ...request } = init ?? {};
  const what = `${method} ${path}`;
  const interval = positive(pollIntervalMs, 1000, 'pollIntervalMs', what);
  const ceiling = positive(maxDelayMs, 60_000, 'maxDelayMs', what);
  const deadline = Date.now() + positive(maxWaitMs, 1_800_000, 'maxWaitMs', what);
  const op = core.operation(method, path);
  const each = { signal, headers };

  const checked = (answer: Answer, step: string): Answer => {
    if (!answer.ok)
      throw new ClientError('http', `${what}: ${step} answered ${answer.response.status}.`, { status: answer.response.status, body: answer.error });
    return answer;
  };
  const link = (href: string | null | undefined, name: string): URL | undefined =>
    href ? ownLink(core, href, op?.apiVersion, 'foreign-poll-link', `${what}: ${name}`) : undefined;
  const header = (answer: Answer, name: string) => link(answer.response.headers.get(name), name);
  const monitorOf = (answer: Answer) => header(answer, answer.response.headers.has('Operation-Location') ? 'Operation-Location' : 'Azure-AsyncOperation');
  const get = async (url: URL, step: string) => checked(await core.sendUrl(url, each), step);
  const wait = async (last: Answer) => {
    const ms = Math.min(retryAfterMs(last.response) ?? interval, ceiling);
    if (Date.now() + ms > deadline) throw new ClientError('poll-timeout', `${what}: still running after maxWaitMs; it goes on at the service.`);
    await pause(ms, signal, what);
  };
  const steps = { OperationLocation: 'the status monitor', ResourceLocation: 'the Location link', Body: 'the resource' };
  // core-lro's getOperationStatus: the monitor's `status`, the resource's provisioningState,
  // else (and always for a Location link) the HTTP status: 202 running, other 2xx done.
  const statusOf = (answer: Answer, mode: Mode): string => {
    const body = answer.data;
    const value = mode === 'OperationLocation' ? body?.status : mode === 'Body' ? (body?.properties?.provisioningState ?? body?.provisioningState) : undefined;
    if (value != null && typeof value !== 'string') throw new ClientError('invalid-status', `${what}: ${steps[mode]} answered a status that is not a string.`);
    return value ?? (answer.response.status === 202 ? 'InProgress' : 'Succeeded');
  };

  const first = checked(await core.send(method, path, { ...request, ...each }), 'the first request');
  const original = link(first.response[SENT_URL], 'the request URL');
  const monitor = monitorOf(first);
  const location = header(first, 'Location');
  const mode: Mode | undefined = monitor ? 'OperationLocation' : location ? 'ResourceLocation' : method === 'PUT' && original ? 'Body' : undefined;
  let at = monitor ?? location ?? original;
  let last = first;
  let status = mode === 'Body' ? statusOf(first, mode) : mode ? 'InProgress' : 'Succeeded';
  while (mode && at && !TERMINAL.test(status)) {
    await wait(last);
    last = await get(at, steps[mode]);
    status = statusOf(last, mode);
    // Still running: a new monitor or Location link, when the poll names one, is where the next poll goes.
    if (!TERMINAL.test(status))
      at = (mode === 'OperationLocation' ? monitorOf(last) : mode === 'ResourceLocation' ? header(last, 'Location') : undefined) ?? at;
  }
  if (!/^succeeded$/i.test(status)) {
    const canceled = /^cancel/i.test(status);
    throw new ClientError(canceled ? 'operation-canceled' : 'operation-failed', `${what}: ${steps[mode!]} ended ${status}.`, {
      body: last.data?.error === undefined ? last.data : { error: last.data.error },
    });
  }
  // On purpose unlike core-lro: a DELETE has no result (the SDKs type it void), and none is read.
  if (method === 'DELETE') return undefined;
  if (last === first) return first.data;

  // Succeeded after polling: core-lro's getResourceLocation, then findResourceLocation.
  const given = typeof last.data?.resourceLocation === 'string' ? link(last.data.resourceLocation, 'resourceLocation') : undefined;
  const via = op?.finalStateVia;
  const byVia = via === 'azure-async-operation' ? undefined : via === 'original-uri' ? original : location;
  const from = given ?? (mode !== 'OperationLocation' ? undefined : method === 'PUT' ? original : method === 'PATCH' ? (byVia ?? original) : byVia);
  return from ? (await get(from, 'the final read')).data : last.data;
}
