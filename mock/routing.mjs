// The mock's front router: picks the document and operation of a request before Prism
// sees it, so that each Prism call holds one document's operations only.
//   1. path template + method (the prefix /api/vX.Y is part of a business-data template),
//   2. then, for resource management, the `api-version` among the documents that declare
//      that template and method.
// Prism's own router scores every operation it is given on every request; with all
// documents in one Prism instance that cost grows with the number of documents (53 % of
// CPU at 250). Here a request costs one hash lookup per path segment plus a few regular
// expressions, whatever the number of documents.
//
// It also matches what Prism's router cannot: a multi-segment `{scope}` sent unencoded,
// as the official SDKs send it (PITFALLS.md, Prism).

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PARAM = /\{([^}]+)\}/g;

/** One template as a regular expression; multi-segment parameters may span slashes. */
function compileTemplate(template, multiSegment) {
  const names = [];
  const source = template
    .split('/')
    .map((segment) =>
      escapeRegExp(segment).replace(/\\\{([^\\]+)\\\}/g, (_, name) => {
        names.push(name);
        return multiSegment.has(name) ? '(.+)' : '([^/]+)';
      }),
    )
    .join('/');
  return { regex: new RegExp(`^${source}$`), names };
}

/** Template with parameter names dropped: two documents collide when these are equal. */
const shapeOf = (method, template) => `${method} ${template.replace(PARAM, '{}')}`;
/** A segment's literal head: `vendors7` of `vendors7({id})` or `vendors7(x)`; none for `{scope}`. */
const segmentKey = (segment) => (segment.startsWith('{') ? '' : segment.split(/[({]/)[0]);

/**
 * Builds the router over loaded documents (documents.mjs). Throws when two documents
 * define the same method and template for the same version (prefix or api-version).
 */
export function createRouter(documents) {
  const routes = new Map(); // shape -> route
  for (const doc of documents) {
    for (const operation of doc.operations) {
      const method = operation.method.toUpperCase();
      const key = shapeOf(method, operation.path);
      let route = routes.get(key);
      if (!route) {
        const { regex, names } = compileTemplate(operation.path, doc.multiSegment);
        route = { key, method, template: operation.path, regex, names, multiSegment: doc.multiSegment, family: doc.family, byVersion: new Map() };
        routes.set(key, route);
      }
      // Business data versions by prefix (already in the template): one document per route.
      const version = doc.family === 'resource-manager' ? doc.version : doc.prefix;
      const taken = route.byVersion.get(version);
      if (taken) throw new Error(`two documents define ${key} for ${version}: ${taken.doc.api.name} and ${doc.api.name}`);
      route.byVersion.set(version, { doc, operation });
    }
  }
  // An index from path segments to routes, so that a request is tested against a few
  // templates only, however many documents there are. Each route is filed under its
  // rarest literal segment key (`Provider.Sql7`, `checkNameAvailability`, `vendors7` of
  // `vendors7({vendor_id})`); a route without one is tried for every path. Candidates are
  // tried in a fixed order: fewer multi-segment parameters first, then more literal text.
  const score = (r) => [r.names.filter((n) => r.multiSegment.has(n)).length, -r.template.replace(PARAM, '').length];
  const ordered = [...routes.values()].sort((a, b) => {
    const [x, y] = [score(a), score(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
  for (const [i, route] of ordered.entries()) route.rank = i;
  const keysOf = (route) => [...new Set(route.template.split('/').map(segmentKey).filter(Boolean))];
  const counts = new Map();
  for (const route of ordered) for (const key of keysOf(route)) counts.set(key, (counts.get(key) ?? 0) + 1);
  const bySegment = new Map();
  const everywhere = [];
  for (const route of ordered) {
    const [rarest] = keysOf(route).sort((a, b) => counts.get(a) - counts.get(b));
    if (rarest === undefined) everywhere.push(route);
    else (bySegment.get(rarest) ?? bySegment.set(rarest, []).get(rarest)).push(route);
  }

  /**
   * Matches a decoded-enough path (as sent, OData parentheses normalised).
   * Returns { route, params, prismPath } or { status: 404 | 405, allow }.
   */
  function match(method, path) {
    const found = new Set(everywhere);
    for (const segment of path.split('/')) for (const route of bySegment.get(segmentKey(segment)) ?? []) found.add(route);
    const candidates = [...found].sort((a, b) => a.rank - b.rank);
    const allow = new Set();
    for (const route of candidates) {
      const found = route.regex.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allow.add(route.method);
        continue;
      }
      const params = Object.fromEntries(route.names.map((name, i) => [name, found[i + 1]]));
      // Prism's router matches one segment per parameter: hand it the multi-segment
      // value %2F-encoded, so validation and mocking see the value Prism expects.
      const prismPath = route.template.replace(PARAM, (_, name) =>
        route.multiSegment.has(name) ? params[name].replace(/^\/+/, '').replaceAll('/', '%2F') : params[name],
      );
      return { route, params, prismPath };
    }
    return allow.size ? { status: 405, allow: [...allow].sort() } : { status: 404 };
  }

  // Business data: the version is the path's /api/vX.Y prefix, so a version nobody serves
  // is a path nobody serves. The prefixes served, to say which would have matched.
  const prefixes = [...new Set([...routes.values()].filter((r) => r.family === 'business-central').flatMap((r) => [...r.byVersion.keys()]))];

  /** The served prefixes under which `path` (with another /api/vX.Y prefix) would match `method`. */
  function prefixesFor(method, path) {
    const asked = /^\/api\/v[^/]*/.exec(path)?.[0];
    if (!asked) return [];
    return prefixes.filter((prefix) => match(method, prefix + path.slice(asked.length)).route).sort();
  }

  return {
    match,
    prefixesFor,
    /** Every operation served: { api, operationId, method, path, version, convention }. */
    routes: documents.flatMap((doc) =>
      doc.operations.map((o) => ({
        api: doc.api.name,
        operationId: o.iid,
        method: o.method.toUpperCase(),
        path: o.path,
        version: doc.family === 'resource-manager' ? doc.version : doc.prefix,
        convention: o.convention,
      })),
    ),
  };
}
