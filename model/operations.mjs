// A document's operations, read the one way every room walks them: each path item's
// methods in OpenAPI's order (get, put, post, delete, options, head, patch, trace).

/** The HTTP methods a path item may hold, in the order OpenAPI lists them. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Yields [pathKey, method, operation, pathItem] for every operation of a document.
 * @param {any} document a parsed OpenAPI document (resolved or bundled)
 * @returns {Generator<[string, string, any, any]>}
 */
export function* operationsOf(document) {
  for (const [pathKey, pathItem] of Object.entries(document?.paths ?? {})) {
    if (!pathItem || typeof pathItem !== 'object') continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation && typeof operation === 'object') yield [pathKey, method, operation, pathItem];
    }
  }
}

/**
 * Follows a document's local `#/…` references (a bundle holds no others), a bounded number
 * of hops.
 * @param {any} document
 * @param {any} node
 * @returns {any}
 */
export function deref(document, node) {
  let current = node;
  for (let hops = 0; typeof current?.$ref === 'string' && current.$ref.startsWith('#/') && hops < 20; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((/** @type {string} */ part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((/** @type {any} */ at, /** @type {string} */ key) => at?.[key], document);
  }
  return current;
}

/**
 * The path parameters of an operation that its document says more of than "a value in one
 * segment", by name: `segments` for `x-ms-skip-url-encoding: true` (a multi-segment
 * `{scope}`, sent with its slashes), `uuid` for a business-data key of `format: uuid` (an
 * OData key literal written bare in its parentheses, so it must be a GUID). A
 * resource-management name of `format: uuid` is one plain segment: the service checks it.
 * @param {any} document a bundled document
 * @param {any} pathItem
 * @param {any} operation
 * @param {string} family
 * @returns {Record<string, 'segments' | 'uuid'>}
 */
export function pathParameterKindsOf(document, pathItem, operation, family) {
  /** @type {Record<string, 'segments' | 'uuid'>} */
  const kinds = {};
  for (const parameter of [...(pathItem?.parameters ?? []), ...(operation?.parameters ?? [])].map((p) => deref(document, p))) {
    if (parameter?.in !== 'path') continue;
    if (parameter['x-ms-skip-url-encoding'] === true) kinds[parameter.name] = 'segments';
    else if (family === 'business-central' && deref(document, parameter.schema)?.format === 'uuid') kinds[parameter.name] = 'uuid';
  }
  return kinds;
}
