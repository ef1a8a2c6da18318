// override() of the test API: for the next call, the next N calls or every call of an
// operation (by operationId, optionally narrowed by `when`), answer with a given status,
// headers and body, or wait first (`delayMs`), or never answer (`fault: 'timeout'`), or
// drop the connection (`fault: 'drop'`). The newest matching override wins; one whose
// `times` are used up is gone; reset() clears them all.
//
// `when` is a function of the request (in-process only) or an object matched against it
// part by part (also over HTTP): { method, path, query, headers, body, params } -- each
// value given must equal the request's, objects compared key by key (extra keys of the
// request are fine), header names in lower case.

import { describeRule, meets, use } from '../when.mjs';

/** What an override's `fault` may be. */
export const FAULTS = ['timeout', 'drop'];
/** What an override may say (index.d.ts Override). */
export const KEYS = ['operationId', 'times', 'when', 'status', 'headers', 'body', 'delayMs', 'fault'];
/** What an override's `when` may name (index.d.ts OverrideRequest). */
export const WHEN_KEYS = ['method', 'path', 'query', 'headers', 'body', 'params', 'operationId', 'api', 'version'];
const MAX_DELAY_MS = 10 * 60_000;

/** Checks one override; returns it normalised or throws a message naming what is wrong. */
export function checkOverride(rule, operationIds) {
  const where = `override ${JSON.stringify(rule?.operationId ?? null)}`;
  if (!rule || typeof rule !== 'object' || Array.isArray(rule))
    throw new Error('override: give { operationId, status?, headers?, body?, delayMs?, fault?, times?, when? }.');
  const unknown = Object.keys(rule).filter((key) => !KEYS.includes(key));
  if (unknown.length) throw new Error(`${where}: unknown ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${KEYS.join(', ')}).`);
  const { operationId, times, when, status, headers, body, delayMs, fault } = rule;
  if (!operationIds.has(operationId)) throw new Error(`${where}: no document declares this operationId (served: ${[...operationIds].sort().join(', ')}).`);
  if (times !== undefined && !(Number.isInteger(times) && times >= 1))
    throw new Error(`${where}: "times" must be a whole number from 1 (leave it out for every call).`);
  if (when !== undefined && typeof when !== 'function' && (!when || typeof when !== 'object' || Array.isArray(when)))
    throw new Error(`${where}: "when" must be a function of the request or an object to match it against.`);
  if (when && typeof when === 'object') {
    const odd = Object.keys(when).filter((key) => !WHEN_KEYS.includes(key));
    if (odd.length)
      throw new Error(
        `${where}: "when" names ${odd.map((k) => JSON.stringify(k)).join(', ')}, which a request does not have (it has ${WHEN_KEYS.join(', ')}).`,
      );
  }
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599))
    throw new Error(`${where}: "status" must be an HTTP status from 200 to 599.`);
  if (
    headers !== undefined &&
    (!headers || typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
  ) {
    throw new Error(`${where}: "headers" must map header names to strings.`);
  }
  if (delayMs !== undefined && !(Number.isInteger(delayMs) && delayMs >= 0 && delayMs <= MAX_DELAY_MS))
    throw new Error(`${where}: "delayMs" must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
  if (fault !== undefined && !FAULTS.includes(fault)) throw new Error(`${where}: "fault" must be one of ${FAULTS.join(', ')}.`);
  if (fault !== undefined && (status !== undefined || headers !== undefined || body !== undefined))
    throw new Error(`${where}: a fault sends no answer: give "fault" or "status"/"headers"/"body", not both.`);
  if (status === undefined && fault === undefined && delayMs === undefined)
    throw new Error(`${where}: say what to do: "status" (with headers, body), "delayMs", or "fault".`);
  if (status === undefined && (headers !== undefined || body !== undefined)) throw new Error(`${where}: "headers" and "body" need a "status".`);
  return { operationId, times, when, status, headers, body, delayMs, fault };
}

export function createOverrides() {
  let rules = [];
  let sequence = 0;
  return {
    /** Adds a checked override; returns { id, calls, remove() }. */
    add(spec) {
      const rule = { id: ++sequence, spec, calls: 0 };
      rules.unshift(rule);
      return {
        id: rule.id,
        get calls() {
          return rule.calls;
        },
        remove: () => {
          rules = rules.filter((r) => r !== rule);
        },
      };
    },
    /** The override that answers `request` ({ operationId, method, path, ... }), counted as used; or undefined. */
    take(request) {
      for (const rule of rules) {
        if (rule.spec.operationId !== request.operationId) continue;
        try {
          if (meets(rule.spec.when, request)) return use(rules, rule);
        } catch (error) {
          // The test's predicate is broken: say so in the answer rather than guess.
          return { id: rule.id, failed: `the when() of override ${rule.id} (${rule.spec.operationId}) threw: ${error?.message ?? error}` };
        }
      }
      return undefined;
    },
    list: () => rules.map(describeRule),
    clear() {
      rules = [];
    },
  };
}
