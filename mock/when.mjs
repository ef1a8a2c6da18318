// How a test's `when`, given as an object, matches a request: an override's
// (test-api/overrides.mjs) and a long-running rule's (conventions/long-running.mjs).

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
