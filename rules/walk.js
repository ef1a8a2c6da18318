// Walks shared by the house rules. Spectral hands a rule the resolved document: `$ref`s are
// replaced by what they point to, so one object can sit at many places (a shared response
// at every operation) and recursive schemas are cycles. Each walk visits an object once.

/** The media objects (`content.*`) of a request body, response or parameter, with their paths. */
export const mediaOf = (holder, path) =>
  Object.entries(holder?.content ?? {}).filter(([, media]) => media && typeof media === 'object').map(([type, media]) => [media, [...path, 'content', type]]);

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

/** The properties of an object schema, its allOf parts' included (ARM resources are `allOf: [TrackedResource]`). */
export function propertiesOf(schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return {};
  seen.add(schema);
  const parts = (schema.allOf ?? []).map((part) => propertiesOf(part, seen));
  return Object.assign({}, ...parts, schema.properties ?? {});
}

/** The required property names of an object schema, its allOf parts' included. */
export function requiredOf(schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((part) => requiredOf(part, seen))];
}
