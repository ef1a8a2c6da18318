// The shapes of Azure Resource Manager's resource-provider contract that the ARM house
// rules key on, read from paths, methods and schemas (never from an operationId or a name).
import { familyOf, operationsOf, RESOURCE_MANAGER } from './family.js';
import { propertiesOf } from './walk.js';

/** A resource's own path: `…/providers/{Namespace}/{type}/{name}`, or a child of one (`…/{type}/{name}/{childType}/{childName}`). */
export const RESOURCE_PATH = /\/providers\/[^/{}]+(\/[^/{}]+\/\{[^/{}]+\})+$/;

export const isLongRunning = (operation) => operation?.['x-ms-long-running-operation'] === true;

/** The schema of an operation's JSON request body, if any. */
export const requestSchemaOf = (operation) => Object.values(operation?.requestBody?.content ?? {})[0]?.schema;

/** The schema of one response's body, if any. */
export const responseSchemaOf = (operation, status) => Object.values(operation?.responses?.[status]?.content ?? {})[0]?.schema;

/**
 * Yields [pathKey, operation, schema] for each tracked resource of a resource-management
 * document: a PUT on a resource path whose request body has a `location` property.
 */
export function* trackedResources(document) {
  if (familyOf(document) !== RESOURCE_MANAGER) return;
  for (const [pathKey, method, operation] of operationsOf(document)) {
    if (method !== 'put' || !RESOURCE_PATH.test(pathKey)) continue;
    const schema = requestSchemaOf(operation);
    if (schema && 'location' in propertiesOf(schema)) yield [pathKey, operation, schema];
  }
}

/** Yields [pathKey, method, operation] for every resource-management operation. */
export function* armOperations(document) {
  if (familyOf(document) !== RESOURCE_MANAGER) return;
  yield* operationsOf(document);
}

/**
 * Whether two resolved schemas are the same: the same object, or equal in structure
 * (a `$ref` to one file resolves to one object per use). Cycles compare as equal.
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
