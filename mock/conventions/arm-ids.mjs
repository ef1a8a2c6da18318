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
 * The ARM shape of a path template: { scope: 'resourceGroup' | 'subscription', namespace,
 * types, kind: 'instance' | 'collection', type, instancePath } or undefined when the
 * template is not a resource path (an action such as checkNameAvailability is a
 * collection-shaped path; it is told apart by its methods, not here).
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

export const typeName = (namespace, types) => [namespace, ...types].join('/');

/**
 * A resource id or a collection path as sent: { subscription, resourceGroup?, namespace,
 * types, names, type, kind, key, parentKey? }; undefined when it is neither. `key` is the
 * id in lower case (the store's key); `parentKey` that of the parent of a child resource.
 */
export function parseResourcePath(path) {
  const found = ID.exec(path);
  if (!found) return undefined;
  const [, subscription, resourceGroup, namespace, rest] = found;
  const segments = rest.split('/').map(decode);
  if (segments.some((s) => s === undefined || s === '')) return undefined;
  const types = segments.filter((_, i) => i % 2 === 0);
  const names = segments.filter((_, i) => i % 2 === 1);
  const kind = segments.length % 2 === 0 ? 'instance' : 'collection';
  const parsed = { subscription: decode(subscription), resourceGroup: resourceGroup === undefined ? undefined : decode(resourceGroup), namespace, types, names, kind, type: typeName(namespace, types) };
  if (!parsed.subscription || (resourceGroup !== undefined && !parsed.resourceGroup)) return undefined;
  const base = `/subscriptions/${parsed.subscription}${parsed.resourceGroup === undefined ? '' : `/resourceGroups/${parsed.resourceGroup}`}/providers/${namespace}`;
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

function decode(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** True when a stored resource (its parsed id) belongs to the list a collection path names. */
export function inCollection(resource, collection) {
  const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();
  if (!same(resource.type, collection.type) || !same(resource.subscription, collection.subscription)) return false;
  if (collection.resourceGroup !== undefined && !same(resource.resourceGroup, collection.resourceGroup)) return false;
  return collection.names.every((name, i) => same(name, resource.names[i]));
}
