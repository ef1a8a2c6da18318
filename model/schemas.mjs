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

/**
 * Whether a schema is read-only wherever that is written: `readOnly` on it, on the schema
 * its `$ref` names (a local `#/…` pointer of a bundled document), or on one of its `allOf`
 * parts; an array is read-only when its items are.
 * @param {any} schema
 * @param {(ref: string) => any} resolve
 * @returns {boolean}
 */
export function isReadOnly(schema, resolve, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (schema.readOnly === true) return true;
  if (typeof schema.$ref === 'string' && isReadOnly(resolve(schema.$ref), resolve, seen)) return true;
  if (hasType(schema, 'array') && isReadOnly(schema.items, resolve, seen)) return true;
  return (schema.allOf ?? []).some((/** @type {any} */ part) => isReadOnly(part, resolve, seen));
}

/**
 * A bundled document with `readOnly: true` written on every property that is read-only
 * only through what it references (`provisioningState: { $ref: …/ProvisioningState }`,
 * read-only there), under `allOf`, or through its items, at any depth: openapi-typescript
 * marks a property `$Read` only where `readOnly` sits on the property itself (OpenAPI 3.1
 * allows it beside a `$ref`). Changes `document` in place and returns it.
 * @param {any} document
 */
export function withReadOnlyMarked(document) {
  /** @param {string} ref */
  const resolve = (ref) =>
    ref.startsWith('#/') ? ref.slice(2).split('/').reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document) : undefined;
  const seen = new Set();
  /** @param {any} schema */
  const visit = (schema) => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    for (const property of Object.values(schema.properties ?? {})) {
      if (property && typeof property === 'object' && property.readOnly !== true && isReadOnly(property, resolve)) property.readOnly = true;
      visit(property);
    }
    for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), schema.items, schema.additionalProperties]) visit(part);
  };
  for (const schema of Object.values(document?.components?.schemas ?? {})) visit(schema);
  const bodies = (/** @type {any} */ holder) => {
    for (const media of Object.values(holder?.content ?? {})) visit(/** @type {any} */ (media)?.schema);
  };
  for (const item of Object.values(document?.paths ?? {})) {
    for (const operation of Object.values(/** @type {any} */ (item) ?? {})) {
      if (!operation || typeof operation !== 'object' || Array.isArray(operation)) continue;
      bodies(operation.requestBody);
      for (const response of Object.values(operation.responses ?? {})) bodies(response);
    }
  }
  for (const holder of [...Object.values(document?.components?.requestBodies ?? {}), ...Object.values(document?.components?.responses ?? {})]) bodies(holder);
  return document;
}
