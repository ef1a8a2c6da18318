// Walks shared by the house rules. Spectral hands a rule the resolved document: `$ref`s are
// replaced by what they point to, so one object can sit at many places (a shared response
// at every operation) and recursive schemas are cycles. Each walk visits an object once.

/** The media objects (`content.*`) of a request body, response or parameter, with their paths. */
export const mediaOf = (holder, path) =>
  Object.entries(holder?.content ?? {})
    .filter(([, media]) => media && typeof media === 'object')
    .map(([type, media]) => [media, [...path, 'content', type]]);

/**
 * Calls `visit(node, path)` for every object of a document (each once), e.g. to find an
 * extension wherever it is. `path` is one array, changed as the walk goes: copy it to keep it.
 * (A plain loop, not a generator copying the path per node: it runs on every lint.)
 */
export function forEachObject(root, visit) {
  const seen = new Set();
  const path = [];
  const walk = (node) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    visit(node, path);
    const array = Array.isArray(node);
    for (const key of Object.keys(node)) {
      path.push(array ? Number(key) : key);
      walk(node[key]);
      path.pop();
    }
  };
  walk(root);
}

/**
 * Whether two resolved schemas are the same: the same object, or equal in structure
 * (a `$ref` to one file resolves to one object per use). Cycles compare as equal.
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
export function sameSchema(a, b, seen = new Set()) {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  if (seen.has(a)) return true;
  seen.add(a);
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameSchema(a[key], b[key], seen));
}
