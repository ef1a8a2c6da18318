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
