// Read-only, read wherever a schema writes it: `readOnly: true` on the property, on the
// schema its `$ref` names (the house's provisioningState: common/resource-manager/
// schemas/ProvisioningState.yaml), on a part of its `allOf`, on the items of an array or
// the values of a map, at any depth below the body. A server ignores such values in a
// request (ARM: "read-only values are ignored at any depth"); the mock drops them before
// it stores a body, and the types step can read the same. Works on a resolved schema, or
// on a bundled one with `deref` following its internal references.

import { hasType } from './schemas.mjs';
import { deref as derefIn } from './operations.mjs';

/** @typedef {(node: any) => any} Deref */

/** @type {Deref} */
const same = (node) => node;
const isObject = (/** @type {unknown} */ value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Whether a schema is read-only: `readOnly: true` on it, on what its `$ref` names, or on
 * any part of its `allOf`.
 * @param {any} schema
 * @param {Deref} [deref]
 * @returns {boolean}
 */
export function isReadOnly(schema, deref = same, seen = new Set()) {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (schema.readOnly === true) return true;
  const resolved = deref(schema);
  if (resolved !== schema && isReadOnly(resolved, deref, seen)) return true;
  return (resolved?.allOf ?? []).some((/** @type {any} */ part) => isReadOnly(part, deref, seen));
}

/**
 * The schema's own parts, through `$ref` and `allOf`: each resolved object schema once.
 * @param {any} schema
 * @param {Deref} deref
 * @returns {any[]}
 */
function partsOf(schema, deref, seen = new Set()) {
  const resolved = deref(schema);
  if (!isObject(resolved) || seen.has(resolved)) return [];
  seen.add(resolved);
  return [resolved, ...(resolved.allOf ?? []).flatMap((/** @type {any} */ part) => partsOf(part, deref, seen))];
}

/**
 * A request body with every value its schema marks read-only left out, at any depth
 * (properties, `allOf`, array items, map values). What the schema does not describe is
 * kept as sent. Returns a new value; `value` is not changed.
 * @param {unknown} value
 * @param {any} schema
 * @param {Deref} [deref]
 * @returns {unknown}
 */
export function withoutReadOnly(value, schema, deref = same) {
  const parts = partsOf(schema, deref);
  if (Array.isArray(value)) {
    const items = parts.find((part) => part.items)?.items;
    return items ? value.map((item) => withoutReadOnly(item, items, deref)) : structuredClone(value);
  }
  if (!isObject(value)) return structuredClone(value);
  const properties = Object.assign({}, ...parts.map((part) => part.properties ?? {}).reverse());
  const extra = parts.find((part) => isObject(part.additionalProperties))?.additionalProperties;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [name, field] of Object.entries(/** @type {Record<string, unknown>} */ (value))) {
    const fieldSchema = properties[name] ?? extra;
    if (fieldSchema === undefined) out[name] = structuredClone(field);
    else if (!isReadOnly(fieldSchema, deref)) out[name] = withoutReadOnly(field, fieldSchema, deref);
  }
  return out;
}

/**
 * A bundled document with `readOnly: true` written on every property that is read-only
 * only through what it references (`provisioningState: { $ref: …/ProvisioningState }`,
 * read-only there), under `allOf`, or through its items (an array of read-only items), at any depth: openapi-typescript
 * marks a property `$Read` only where `readOnly` sits on the property itself (OpenAPI 3.1
 * allows it beside a `$ref`). Changes `document` in place and returns it.
 * @param {any} document
 */
export function withReadOnlyMarked(document) {
  /** @type {Deref} a local `#/…` reference of the bundle, followed */
  const deref = (node) => derefIn(document, node);
  const seen = new Set();
  /** @param {any} schema */
  const visit = (schema) => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    for (const property of Object.values(schema.properties ?? {})) {
      if (
        isObject(property) &&
        property.readOnly !== true &&
        (isReadOnly(property, deref) || (hasType(property, 'array') && isReadOnly(property.items, deref)))
      )
        property.readOnly = true;
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
