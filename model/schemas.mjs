// Plain reads of a resolved schema (its `$ref`s already replaced by what they point to,
// as Spectral and the change report hand them over): the properties and required names
// of an object schema through `allOf` (ARM resources are `allOf: [TrackedResource]`).
// Recursive schemas are cycles: each schema is visited once.

/**
 * The properties of an object schema, its allOf parts' included.
 * @param {any} schema
 * @returns {Record<string, any>}
 */
export function propertiesOf(schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return {};
  seen.add(schema);
  const parts = (schema.allOf ?? []).map((/** @type {any} */ part) => propertiesOf(part, seen));
  return Object.assign({}, ...parts, schema.properties ?? {});
}

/**
 * The required property names of an object schema, its allOf parts' included.
 * @param {any} schema
 * @returns {string[]}
 */
export function requiredOf(schema, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((/** @type {any} */ part) => requiredOf(part, seen))];
}

/**
 * Whether a schema's type is (or includes) `type`: `{ type: 'array' }` or `{ type: ['array', 'null'] }`.
 * @param {any} schema
 * @param {string} type
 */
export const hasType = (schema, type) => schema?.type === type || (Array.isArray(schema?.type) && schema.type.includes(type));

/**
 * The schema of an operation's request body (its first media type), if any.
 * @param {any} operation
 */
export const requestSchemaOf = (operation) => Object.values(operation?.requestBody?.content ?? {})[0]?.schema;

/**
 * The schema of one response's body (its first media type), if any.
 * @param {any} operation
 * @param {string} status
 */
export const responseSchemaOf = (operation, status) => Object.values(operation?.responses?.[status]?.content ?? {})[0]?.schema;
