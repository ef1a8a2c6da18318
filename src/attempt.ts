/**
 * One attempt's time limits: its own AbortSignal (the per-attempt timer joined to the
 * caller's signal), the race that bounds `getToken()`, and the pauses between attempts.
 */
import { ClientError } from './errors.js';

export const aborted = (what: string, signal: AbortSignal) => new ClientError('aborted', `${what} was aborted by the caller.`, { cause: signal.reason });

/** Waits before a retry or a poll; the caller's signal ends the wait (and the call). */
export async function pause(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  if (ms > 0) {
    const wait = attemptAbort(ms, signal, false)!;
    await new Promise((resolve) => wait.signal!.addEventListener('abort', resolve, { once: true }));
    wait.done();
  }
  if (signal?.aborted) throw aborted(what, signal);
}

/**
 * One AbortSignal per attempt: fired by the attempt's timer or by the caller's signal.
 *
 * Two Node details shape this. (1) A Request built with a signal follows it only while
 * the Request object is alive (undici keeps its inner AbortController on the Request
 * and reaches it through a WeakRef); a custom fetch that keeps just `request.signal`
 * would never see the abort once the Request is collected. So the attempt holds the
 * Request it sent (`sent`) from the timer and from the caller-signal listener.
 * (2) Likewise a plain setTimeout is used rather than AbortSignal.timeout(), whose
 * signal Node holds weakly. Timer and listener are removed as soon as the attempt
 * settles, so a long-lived caller signal does not accumulate listeners.
 */
export function attemptAbort(timeoutMs: number, callerSignal: AbortSignal | undefined, requestsAbort: boolean) {
  if (timeoutMs <= 0 && !callerSignal) return undefined;
  // With a Request class that can abort itself (createNodeHttpFetch's), the timer calls
  // `sent.abort()` and the caller's signal is handed on as is: no AbortController.
  const controller = requestsAbort ? undefined : new AbortController();
  const attempt = {
    signal: controller ? controller.signal : callerSignal,
    sent: undefined as (Request & { abort?: (reason: unknown) => void }) | undefined,
    timedOut: false,
    /** Rejects the current race() (getToken), if any. */
    interrupt: undefined as (() => void) | undefined,
    callerSignal,
    done() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
  // Both closures below share this scope, so each keeps `attempt` (and `sent`) alive.
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          attempt.timedOut = true;
          attempt.interrupt?.();
          const reason = new DOMException('timeout', 'TimeoutError');
          if (controller) controller.abort(reason);
          else attempt.sent?.abort?.(reason);
        }, timeoutMs)
      : undefined;
  const onCallerAbort = () => controller!.abort(callerSignal!.reason);
  if (controller) callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return attempt;
}

export type Attempt = NonNullable<ReturnType<typeof attemptAbort>>;

/** Settles with `promise`, or rejects when the attempt's timer or the caller's signal fires first. */
export function race<T>(attempt: Attempt, promise: Promise<T>): Promise<T> {
  const { callerSignal } = attempt;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new DOMException('stopped', 'AbortError'));
    attempt.interrupt = stop;
    callerSignal?.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => {
      attempt.interrupt = undefined;
      callerSignal?.removeEventListener('abort', stop);
    });
  });
}
