// Routing pieces the mock adds around Prism: the per-document path prefix and the
// multi-segment `{scope}` that Prism's router cannot match as real clients send it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// prism-http is CommonJS without an "exports" map, so its default router can be reused.
const prismRoute = require('@stoplight/prism-http/dist/router').default;

/**
 * Names of the path parameters that carry several segments: Azure marks them with
 * `x-ms-skip-url-encoding` (the value is sent as is, its `/` kept), as it does the
 * scope. Read from the document itself: Prism's operation model drops `x-` keys.
 */
export function multiSegmentParams(document) {
  const resolve = (node) =>
    typeof node?.$ref === 'string' && node.$ref.startsWith('#/components/parameters/')
      ? document.components?.parameters?.[node.$ref.split('/').pop()]
      : node;
  const names = new Set();
  for (const item of Object.values(document.paths ?? {})) {
    const operations = Object.values(item).filter((value) => value && typeof value === 'object' && !Array.isArray(value));
    const params = [...(item.parameters ?? []), ...operations.flatMap((operation) => operation.parameters ?? [])];
    for (const param of params.map(resolve)) {
      if (param?.in === 'path' && param['x-ms-skip-url-encoding'] === true) names.add(param.name);
    }
  }
  return names;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// One template segment as a regular expression: literals as is, `{param}` one segment.
const segmentPattern = (segment) => escapeRegExp(segment).replace(/\\\{[^\\]+\\\}/g, '[^/]+');

/**
 * For each operation path with a multi-segment parameter, a regular expression that
 * captures the parameter across slashes: prefix, value, fixed tail. The value is greedy,
 * so it runs up to the last place where the tail matches.
 */
export function compileScopeMatchers(operations, names) {
  const matchers = new Map();
  for (const { path } of operations) {
    const segments = path.split('/').slice(1);
    const at = segments.findIndex((s) => /^\{[^}]+\}$/.test(s) && names.has(s.slice(1, -1)));
    if (at < 0 || matchers.has(path)) continue;
    const before = segments.slice(0, at).map(segmentPattern).join('/');
    const after = segments.slice(at + 1).map(segmentPattern).join('/');
    matchers.set(path, new RegExp(`^(/${before}${before ? '/' : ''})(.+)(${after ? `/${after}` : ''})$`));
  }
  return [...matchers.values()];
}

/** The path with a multi-segment value `%2F`-encoded, or the path unchanged. */
export function encodeScope(pathname, matchers) {
  for (const matcher of matchers) {
    const match = matcher.exec(pathname);
    if (match && match[2].includes('/')) return match[1] + match[2].replaceAll('/', '%2F') + match[3];
  }
  return pathname;
}

/**
 * A Prism `route` component: Prism's own router first; only when it finds nothing is
 * the path tried again with the scope encoded. On success the input's path is updated
 * in place, so validation and mocking see the same single-segment value Prism expects.
 */
export function scopeAwareRoute(matchers) {
  return ({ resources, input }) => {
    const asSent = prismRoute({ resources, input });
    if (asSent._tag === 'Right') return asSent;
    const encoded = encodeScope(input.url.path, matchers);
    if (encoded === input.url.path) return asSent;
    const retried = prismRoute({ resources, input: { ...input, url: { ...input.url, path: encoded } } });
    if (retried._tag === 'Right') input.url.path = encoded;
    // A path that matches only once encoded, with another method, is a 405, not a 404.
    return retried._tag === 'Right' || retried.left.status === 405 ? retried : asSent;
  };
}
