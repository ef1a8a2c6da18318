// Walks shared by the house rules. Spectral hands a rule the resolved document: `$ref`s are
// replaced by what they point to, so one object can sit at many places (a shared response
// at every operation) and recursive schemas are cycles. Each walk visits an object once.

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_ONES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];

/** Yields [schema, path] for a schema and every schema inside it (by the JSON Schema keywords). */
export function* schemasIn(schema, path, seen = new Set()) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || seen.has(schema)) return;
  seen.add(schema);
  yield [schema, path];
  for (const key of SCHEMA_MAPS) {
    for (const [name, child] of Object.entries(schema[key] ?? {})) yield* schemasIn(child, [...path, key, name], seen);
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(schema[key])) for (const [i, child] of schema[key].entries()) yield* schemasIn(child, [...path, key, i], seen);
  }
  for (const key of SCHEMA_ONES) yield* schemasIn(schema[key], [...path, key], seen);
}

/** The media objects (`content.*`) of a request body, response or parameter, with their paths. */
export const mediaOf = (holder, path) =>
  Object.entries(holder?.content ?? {}).filter(([, media]) => media && typeof media === 'object').map(([type, media]) => [media, [...path, 'content', type]]);

/** Yields [schema, path] for every schema root of a document: components, parameters, bodies, responses, headers. */
export function* schemaRoots(document, operations) {
  for (const [name, schema] of Object.entries(document?.components?.schemas ?? {})) yield [schema, ['components', 'schemas', name]];
  for (const [pathKey, method, operation, pathItem] of operations) {
    const at = ['paths', pathKey, method];
    const parameters = [
      ...(pathItem.parameters ?? []).map((p, i) => [p, ['paths', pathKey, 'parameters', i]]),
      ...(operation.parameters ?? []).map((p, i) => [p, [...at, 'parameters', i]]),
    ];
    for (const [parameter, path] of parameters) if (parameter?.schema) yield [parameter.schema, [...path, 'schema']];
    for (const [media, path] of mediaOf(operation.requestBody, [...at, 'requestBody'])) if (media.schema) yield [media.schema, [...path, 'schema']];
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      for (const [media, path] of mediaOf(response, [...at, 'responses', status])) if (media.schema) yield [media.schema, [...path, 'schema']];
      for (const [name, header] of Object.entries(response?.headers ?? {})) if (header?.schema) yield [header.schema, [...at, 'responses', status, 'headers', name, 'schema']];
    }
  }
}

/** Yields [node, path] for every object of a document (each once), e.g. to find extensions wherever they are. */
export function* objectsIn(node, path = [], seen = new Set()) {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  yield [node, path];
  for (const [key, child] of Object.entries(node)) yield* objectsIn(child, [...path, Array.isArray(node) ? Number(key) : key], seen);
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
