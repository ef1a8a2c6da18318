// The shapes of Azure Resource Manager's resource-provider contract, read from paths,
// methods, extensions and schemas (never from an operationId or a name): tracked
// resources, long-running operations and nextLink list pages. Resource ids and path
// templates are in arm-ids.mjs. The house rules check these shapes, the mock plays them,
// the change report grades edits of them, the docs and the clients call them.
import { RESOURCE_PATH } from './arm-ids.mjs';
import { familyOf, RESOURCE_MANAGER } from './family.mjs';
import { operationsOf } from './operations.mjs';
import { propertiesOf, requestSchemaOf } from './schemas.mjs';

/**
 * Yields [pathKey, method, operation, pathItem] for every operation of a
 * resource-management document (none for another family).
 * @param {any} document
 */
export function* armOperations(document) {
  if (familyOf(document) !== RESOURCE_MANAGER) return;
  yield* operationsOf(document);
}

/**
 * Yields [pathKey, operation, schema] for each tracked resource of a resource-management
 * document: a PUT on a resource path whose request body has a `location` property.
 * @param {any} document a resolved document
 * @returns {Generator<[string, any, any]>}
 */
export function* trackedResources(document) {
  for (const [pathKey, method, operation] of armOperations(document)) {
    if (method !== 'put' || !RESOURCE_PATH.test(pathKey)) continue;
    const schema = requestSchemaOf(operation);
    if (schema && 'location' in propertiesOf(schema)) yield [pathKey, operation, schema];
  }
}

// ---- long-running operations ------------------------------------------------------------

/** The extension that marks an operation long-running. */
export const LONG_RUNNING = 'x-ms-long-running-operation';
/** Its options (`final-state-via`). */
export const LONG_RUNNING_OPTIONS = 'x-ms-long-running-operation-options';
/** Where a long-running operation's result may be read, as ARM's contract and @azure/core-lro name it. */
export const FINAL_STATE_VIA = ['azure-async-operation', 'location', 'original-uri', 'operation-location'];
/** The statuses of a long-running operation's first answer. */
export const INITIAL_STATUSES = ['201', '202'];
/** The methods that may be long-running. */
export const LONG_RUNNING_METHODS = ['put', 'patch', 'post', 'delete'];

/**
 * Whether a document marks the operation long-running (`x-ms-long-running-operation: true`).
 * @param {any} operation
 */
export const isLongRunning = (operation) => operation?.[LONG_RUNNING] === true;

/**
 * Whether a document marks the operation long-running, and where its result is read:
 * `{ finalStateVia }` (the declared string, else undefined), or undefined when it is not.
 * @param {any} operation
 * @returns {{ finalStateVia: string | undefined } | undefined}
 */
export function longRunningOf(operation) {
  if (!isLongRunning(operation)) return undefined;
  const via = operation[LONG_RUNNING_OPTIONS]?.['final-state-via'];
  return { finalStateVia: typeof via === 'string' ? via : undefined };
}

/**
 * Where the result of a long-running operation is read: its final-state-via, or the
 * default AutoRest and @azure/core-lro take when none is given (the resource itself for
 * PUT and PATCH, the Location URL for POST and DELETE), so writing the default out is
 * not a change.
 * @param {string} method lower case
 * @param {any} operation
 * @returns {{ value: string, explicit: boolean, method: string }}
 */
export function finalStateVia(method, operation) {
  const explicit = operation?.[LONG_RUNNING_OPTIONS]?.['final-state-via'];
  if (typeof explicit === 'string') return { value: explicit, explicit: true, method };
  return { value: method === 'put' || method === 'patch' ? 'original-uri' : 'location', explicit: false, method };
}

/**
 * The polling headers a response declares (names compared without case): the status
 * monitor `Azure-AsyncOperation`, the result URL `Location`, and `Retry-After`.
 * @param {any} response a response object (dereferenced)
 */
export function pollingHeadersOf(response) {
  const names = Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase());
  return { asyncOperation: names.includes('azure-asyncoperation'), location: names.includes('location'), retryAfter: names.includes('retry-after') };
}

// ---- list pages ---------------------------------------------------------------------------

/** The link to a resource-management list's next page. */
export const NEXT_LINK = 'nextLink';

/**
 * The names of a list page's item array and next-page link: those of the operation's
 * `x-ms-pageable`, else `value` and `nextLink`.
 * @param {any} operation
 * @returns {{ itemName: string, nextLinkName: string }}
 */
export function pageNamesOf(operation) {
  const pageable = operation?.['x-ms-pageable'];
  return {
    itemName: typeof pageable?.itemName === 'string' ? pageable.itemName : 'value',
    nextLinkName: typeof pageable?.nextLinkName === 'string' ? pageable.nextLinkName : NEXT_LINK,
  };
}

/**
 * Whether the properties of an answer's body (dereferenced) are a page of these names:
 * the next-page link and an item array.
 * @param {Record<string, any>} properties
 * @param {{ itemName: string, nextLinkName: string }} names
 */
export const isPage = (properties, { itemName, nextLinkName }) => nextLinkName in properties && properties[itemName]?.type === 'array';
