// The test API of the mock (startMock's seed, state, override, requests, reset), over the
// mock's state and its current documents. The same operations are reachable over HTTP
// under the admin prefix (admin.mjs).
import { seed, snapshot } from './seed.mjs';
import { checkOverride, createOverrides } from './overrides.mjs';
import { createRequestLog } from './requests.mjs';
import { addLongRunningRule, checkLongRunningRule } from '../conventions/long-running.mjs';

/**
 *   state         the mock's state (state.mjs)
 *   current()     the loaded documents: { catalogue, router }
 *   resetState()  the state back to start (taken names as startMock was given them)
 * @param {{ state: any, current: () => { catalogue: any, router: any }, resetState: (options: { takenNames?: string[] }) => void, maxRecordedRequests: number }} options
 */
export function createTestApi({ state, current, resetState, maxRecordedRequests }) {
  const overrides = createOverrides();
  const log = createRequestLog({ max: maxRecordedRequests });
  /** Answers held back by a `timeout` fault: dropped on reset() and close(). */
  const held = new Set();
  const operationIds = () =>
    new Set(
      current()
        .router.routes.map((r) => r.operationId)
        .filter(Boolean),
    );

  return {
    log,
    overrides,
    held,
    seed: (data) => seed(state, current().catalogue, data),
    snapshot: () => snapshot(state, current().catalogue),
    override: (rule) => overrides.add(checkOverride(rule, operationIds())),
    /** A long-running rule: polls, Retry-After and outcome of the next, every or a given operation. */
    longRunning: (rule) => addLongRunningRule(state, checkLongRunningRule(rule)),
    clearLongRunning: () => state.lroRules.splice(0),
    requests: () => log.list(),
    reset(options = {}) {
      const { takenNames } = options ?? {};
      if (takenNames !== undefined && (!Array.isArray(takenNames) || takenNames.some((n) => typeof n !== 'string')))
        throw new Error('reset: "takenNames" must be an array of strings.');
      resetState({ takenNames });
      overrides.clear();
      log.clear();
      for (const res of held) res.socket?.destroy();
      held.clear();
    },
  };
}
