// ARM's resource ids and path templates, read the way the resource-provider contract
// spells them:
//   /subscriptions/{s}[/resourceGroups/{rg}]/providers/{Namespace}/{type}/{name}[/{childType}/{childName}…]
// A template whose segments after the namespace alternate literal type and `{name}`
// parameter is an instance path when it ends with a parameter, a collection path (a list)
// when it ends with a type. The type of a resource is `{Namespace}/{type}[/{childType}…]`
// (`Provider.Sql/servers/databases`), as ARM writes it in the `type` field. ARM ids
// compare without case; a resource keeps the spelling it was created with.

const TEMPLATE = /^\/subscriptions\/\{[^}/]+\}(\/resourceGroups\/\{[^}/]+\})?\/providers\/([A-Za-z][\w.]*)\/(.+)$/;
const ID = /^\/subscriptions\/([^/]+)(?:\/resourceGroups\/([^/]+))?\/providers\/([^/]+)\/(.+)$/i;
const PARAM = /^\{[^}/]+\}$/;

/**
 * A resource's own path, whatever its scope: `…/providers/{Namespace}/{type}/{name}`, or a
 * child of one (`…/{type}/{name}/{childType}/{childName}`). What the house rules key on.
 */
export const RESOURCE_PATH = /\/providers\/[^/{}]+(\/[^/{}]+\/\{[^/{}]+\})+$/;

/**
 * @typedef {object} TemplateShape
 * @property {'resourceGroup' | 'subscription'} scope
 * @property {string} namespace
 * @property {string[]} types
 * @property {'instance' | 'collection'} kind
 * @property {string} type
 * @property {string | undefined} instancePath
 */

/**
 * The ARM shape of a path template: { scope: 'resourceGroup' | 'subscription', namespace,
 * types, kind: 'instance' | 'collection', type, instancePath } or undefined when the
 * template is not a resource path (an action such as checkNameAvailability is a
 * collection-shaped path; it is told apart by its methods, not here).
 * @param {string} template
 * @returns {TemplateShape | undefined}
 */
export function templateShape(template) {
  const found = TEMPLATE.exec(template);
  if (!found) return undefined;
  const [, group, namespace, rest] = found;
  const segments = rest.split('/');
  const types = [];
  for (const [i, segment] of segments.entries()) {
    const isParam = PARAM.test(segment);
    if (i % 2 === 0 ? isParam || !/^[A-Za-z][\w.-]*$/.test(segment) : !isParam) return undefined;
    if (i % 2 === 0) types.push(segment);
  }
  const kind = segments.length % 2 === 0 ? 'instance' : 'collection';
  return {
    scope: group ? 'resourceGroup' : 'subscription',
    namespace,
    types,
    kind,
    type: typeName(namespace, types),
    /** The template of one resource of this collection (itself for an instance path). */
    instancePath: kind === 'instance' ? template : undefined,
  };
}

/**
 * `Provider.Sql` and `['servers', 'databases']` -> `Provider.Sql/servers/databases`.
 * @param {string} namespace
 * @param {string[]} types
 */
export const typeName = (namespace, types) => [namespace, ...types].join('/');

/**
 * @typedef {object} ResourcePath
 * @property {string} subscription
 * @property {string | undefined} resourceGroup
 * @property {string} namespace
 * @property {string[]} types
 * @property {string[]} names
 * @property {'instance' | 'collection'} kind
 * @property {string} type
 * @property {string} [id]
 * @property {string} [key]
 * @property {string} [name]
 * @property {string} [parentKey]
 * @property {string | undefined} [parentType]
 */

/**
 * A resource id or a collection path as sent: { subscription, resourceGroup?, namespace,
 * types, names, type, kind, key, parentKey? }; undefined when it is neither. `key` is the
 * id in lower case (the store's key); `parentKey` that of the parent of a child resource.
 * @param {string} path
 * @returns {ResourcePath | undefined}
 */
export function parseResourcePath(path) {
  const found = ID.exec(path);
  if (!found) return undefined;
  const [, subscription, resourceGroup, namespace, rest] = found;
  const segments = rest.split('/').map(decode);
  if (segments.some((s) => s === undefined || s === '')) return undefined;
  const types = /** @type {string[]} */ (segments.filter((_, i) => i % 2 === 0));
  const names = /** @type {string[]} */ (segments.filter((_, i) => i % 2 === 1));
  const kind = segments.length % 2 === 0 ? 'instance' : 'collection';
  /** @type {ResourcePath} */
  const parsed = { subscription: /** @type {string} */ (decode(subscription)), resourceGroup: resourceGroup === undefined ? undefined : decode(resourceGroup), namespace, types, names, kind, type: typeName(namespace, types) };
  if (!parsed.subscription || (resourceGroup !== undefined && !parsed.resourceGroup)) return undefined;
  const base = `/subscriptions/${parsed.subscription}${parsed.resourceGroup === undefined ? '' : `/resourceGroups/${parsed.resourceGroup}`}/providers/${namespace}`;
  /** @param {number} count */
  const idOf = (count) => `${base}/${types.slice(0, count).flatMap((t, i) => [t, names[i]]).join('/')}`;
  if (kind === 'instance') {
    parsed.id = idOf(types.length);
    parsed.key = parsed.id.toLowerCase();
    parsed.name = names.at(-1);
  }
  // The parent resource: of an instance with a child type, or of a collection of children.
  const parentCount = types.length - 1;
  if (parentCount >= 1) parsed.parentKey = idOf(parentCount).toLowerCase();
  parsed.parentType = parentCount >= 1 ? typeName(namespace, types.slice(0, parentCount)) : undefined;
  return parsed;
}

/** @param {string} segment */
function decode(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * True when a stored resource (its parsed id) belongs to the list a collection path names.
 * @param {ResourcePath | undefined} resource
 * @param {ResourcePath} collection
 */
export function inCollection(resource, collection) {
  /** @param {unknown} a @param {unknown} b */
  const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();
  if (!resource) return false;
  if (!same(resource.type, collection.type) || !same(resource.subscription, collection.subscription)) return false;
  if (collection.resourceGroup !== undefined && !same(resource.resourceGroup, collection.resourceGroup)) return false;
  return collection.names.every((name, i) => same(name, resource.names[i]));
}

/**
 * The resource-management namespace a path names: the segment after its last literal
 * `providers` (`…/providers/Provider.Sql/servers/{name}` -> `Provider.Sql`), or null.
 * src/operations.ts derives the same (`namespaceOf`) for the clients: keep the two equal.
 * @param {string} path
 * @returns {string | null}
 */
export function namespaceOf(path) {
  const parts = path.split('/');
  const name = parts[parts.lastIndexOf('providers') + 1];
  return parts.includes('providers') && name && !name.includes('{') ? name : null;
}
