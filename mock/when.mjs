// The rules a test sets for requests to come, an override's (test-api/overrides.mjs) and
// a long-running rule's (conventions/long-running.mjs): how a `when` given as an object
// matches a request, how a rule is used up, and how it reads back (its `when` function
// as '[function]'). A rule is { id, spec, calls }, the newest first in its list.

/** True when `request` has every part `pattern` gives (deep, key by key). */
export function matchesPattern(pattern, value) {
  if (pattern === value) return true;
  if (pattern && typeof pattern === 'object' && !Array.isArray(pattern)) {
    if (!value || typeof value !== 'object') return false;
    return Object.entries(pattern).every(([key, part]) => matchesPattern(part, value[key]));
  }
  if (Array.isArray(pattern)) return Array.isArray(value) && pattern.length === value.length && pattern.every((part, i) => matchesPattern(part, value[i]));
  return false;
}

/**
 * A rule as plain JSON (a copy).
 * @param {{ id: number, spec: Record<string, any>, calls: number }} rule
 */
export function describeRule({ id, spec, calls }) {
  const { when, ...plain } = spec;
  return structuredClone({ id, ...plain, ...(when === undefined ? {} : { when: typeof when === 'function' ? '[function]' : when }), calls });
}

/**
 * True when the request meets `when`: none, an object it matches, or a function of (a
 * copy of) the request that says so; a function may throw.
 */
export const meets = (when, request) =>
  when === undefined || (typeof when === 'function' ? Boolean(when(structuredClone(request))) : matchesPattern(when, request));

/**
 * Counts `rule` as used, and takes it out of `rules` once its `times` are used up.
 * @param {any[]} rules
 * @param {{ id: number, spec: Record<string, any>, calls: number }} rule
 * @returns {Record<string, any>} { id, ...spec }
 */
export function use(rules, rule) {
  rule.calls++;
  if (rule.spec.times !== undefined && rule.calls >= rule.spec.times) rules.splice(rules.indexOf(rule), 1);
  return { id: rule.id, ...rule.spec };
}
