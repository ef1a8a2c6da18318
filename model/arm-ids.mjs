// ARM's resource ids and path templates, read the way the resource-provider contract
// spells them:
//   /{scope}/providers/{Namespace}/{type}/{name}[/{childType}/{childName}…]
// where the scope is a subscription (`/subscriptions/{s}`), a resource group
// (`/subscriptions/{s}/resourceGroups/{rg}`), a resource (its id, an extension resource's
// scope), or a tenant-level resource such as a management group
// (`/providers/Microsoft.Management/managementGroups/{g}`; nothing for the tenant itself).
// A template may write the scope as one multi-segment parameter (`/{scope}/providers/…`,
// `x-ms-skip-url-encoding`). The resource's own part starts after the LAST `providers`
// segment: its segments alternate literal type and `{name}` parameter; it is an instance
// path when it ends with a parameter, a collection path (a list) when it ends with a
// type. The type of a resource is `{Namespace}/{type}[/{childType}…]`
// (`Provider.Sql/servers/databases`), as ARM writes it in the `type` field. ARM ids
// compare without case; a resource keeps the spelling it was created with.

const PARAM = /^\{[^}/]+\}$/;
const NAMESPACE = /^[A-Za-z][\w.]*$/;
const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * A resource's own path, whatever its scope: `…/providers/{Namespace}/{type}/{name}`, or a
 * child of one (`…/{type}/{name}/{childType}/{childName}`). What the house rules key on.
 */
export const RESOURCE_PATH = /\/providers\/[^/{}]+(\/[^/{}]+\/\{[^/{}]+\})+$/;

/**
 * Where a resource lives: 'subscription', 'resourceGroup', 'resource' (below another
 * resource's id, a management group's included), 'tenant', or 'scope' (a template's one
 * `{scope}` parameter: any of them).
 * @typedef {'subscription' | 'resourceGroup' | 'resource' | 'tenant' | 'scope'} ScopeKind
 */

/**
 * @typedef {object} TemplateShape
 * @property {ScopeKind} scope
 * @property {string} namespace
 * @property {string[]} types
 * @property {'instance' | 'collection'} kind
 * @property {string} type
 * @property {string | undefined} instancePath
 */

/**
 * The ARM shape of a path template: { scope, namespace, types, kind: 'instance' |
 * 'collection', type, instancePath } or undefined when the template is not a resource
 * path (an action such as checkNameAvailability is a collection-shaped path; it is told
 * apart by its methods, not here).
 * @param {string} template
 * @returns {TemplateShape | undefined}
 */
export function templateShape(template) {
  const segments = template.split('/').slice(1);
  const at = segments.lastIndexOf('providers');
  const namespace = segments[at + 1];
  if (!template.startsWith('/') || at < 0 || !NAMESPACE.test(namespace ?? '')) return undefined;
  const rest = segments.slice(at + 2);
  const types = [];
  for (const [i, segment] of rest.entries()) {
    const isParam = PARAM.test(segment);
    if (i % 2 === 0 ? isParam || !/^[A-Za-z][\w.-]*$/.test(segment) : !isParam) return undefined;
    if (i % 2 === 0) types.push(segment);
  }
  const scope = templateScope(segments.slice(0, at));
  if (!scope || !types.length) return undefined;
  const kind = rest.length % 2 === 0 ? 'instance' : 'collection';
  return {
    scope,
    namespace,
    types,
    kind,
    type: typeName(namespace, types),
    /** The template of one resource of this collection (itself for an instance path). */
    instancePath: kind === 'instance' ? template : undefined,
  };
}

/**
 * The kind of scope a template's segments before `providers` write, or undefined.
 * @param {string[]} segments
 * @returns {ScopeKind | undefined}
 */
function templateScope(segments) {
  const [first, second, third, fourth] = segments;
  if (!segments.length) return 'tenant';
  if (segments.length === 1 && PARAM.test(first)) return 'scope';
  if (first === 'subscriptions' && PARAM.test(second ?? '') && segments.length === 2) return 'subscription';
  if (first === 'subscriptions' && PARAM.test(second ?? '') && third === 'resourceGroups' && PARAM.test(fourth ?? '') && segments.length === 4)
    return 'resourceGroup';
  return templateShape(`/${segments.join('/')}`)?.kind === 'instance' ? 'resource' : undefined;
}

/**
 * `Provider.Sql` and `['servers', 'databases']` -> `Provider.Sql/servers/databases`.
 * @param {string} namespace
 * @param {string[]} types
 */
export const typeName = (namespace, types) => [namespace, ...types].join('/');

/**
 * A scope as sent, read: its id (`/subscriptions/S/resourceGroups/RG`, '' for the
 * tenant), its kind, and the subscription and resource group it is in (if any).
 * @typedef {{ scope: string, scopeKind: Exclude<ScopeKind, 'scope'>, subscription: string | undefined, resourceGroup: string | undefined }} Scope
 */

/**
 * @typedef {object} ResourcePath
 * @property {string} scope  the scope's id ('' for the tenant)
 * @property {Exclude<ScopeKind, 'scope'>} scopeKind
 * @property {string | undefined} subscription
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
 * A resource id or a collection path as sent, at any ARM scope: { scope, scopeKind,
 * subscription?, resourceGroup?, namespace, types, names, type, kind, key, parentKey? };
 * undefined when it is neither (its scope no ARM scope included: scopeProblem() says
 * why). `key` is the id in lower case (the store's key); `parentKey` that of the parent
 * of a child resource.
 * @param {string} path
 * @returns {ResourcePath | undefined}
 */
export function parseResourcePath(path) {
  const segments = path.split('/').slice(1).map(decode);
  if (!path.startsWith('/') || segments.some((s) => s === undefined || s === '')) return undefined;
  return readPath(/** @type {string[]} */ (segments));
}

/** @param {string[]} segments decoded, none empty @returns {ResourcePath | undefined} */
function readPath(segments) {
  const at = segments.findLastIndex((s) => same(s, 'providers'));
  const namespace = segments[at + 1];
  const rest = segments.slice(at + 2);
  if (at < 0 || !NAMESPACE.test(namespace ?? '') || !rest.length) return undefined;
  const scope = readScope(segments.slice(0, at));
  if (!scope) return undefined;
  const types = rest.filter((_, i) => i % 2 === 0);
  const names = rest.filter((_, i) => i % 2 === 1);
  const kind = rest.length % 2 === 0 ? 'instance' : 'collection';
  /** @type {ResourcePath} */
  const parsed = { ...scope, namespace, types, names, kind, type: typeName(namespace, types) };
  /** @param {number} count */
  const idOf = (count) =>
    `${scope.scope}/providers/${namespace}/${types
      .slice(0, count)
      .flatMap((t, i) => [t, names[i]])
      .join('/')}`;
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

/**
 * A scope's segments (decoded), read: a subscription, a resource group, a resource's id
 * (a tenant-level one such as a management group included), the tenant (none); else
 * undefined.
 * @param {string[]} segments
 * @returns {Scope | undefined}
 */
function readScope(segments) {
  const none = { subscription: undefined, resourceGroup: undefined };
  if (!segments.length) return { scope: '', scopeKind: 'tenant', ...none };
  const [first, subscription, third, resourceGroup] = segments;
  if (same(first, 'subscriptions') && segments.length === 2)
    return { scope: `/subscriptions/${subscription}`, scopeKind: 'subscription', ...none, subscription };
  if (same(first, 'subscriptions') && same(third, 'resourceGroups') && segments.length === 4) {
    return { scope: `/subscriptions/${subscription}/resourceGroups/${resourceGroup}`, scopeKind: 'resourceGroup', subscription, resourceGroup };
  }
  const resource = readPath(segments);
  if (resource?.kind !== 'instance') return undefined;
  return { scope: /** @type {string} */ (resource.id), scopeKind: 'resource', subscription: resource.subscription, resourceGroup: resource.resourceGroup };
}

/**
 * Why a path that names `…/providers/{Namespace}/{type}…` is no resource path: its scope
 * (the part before that last `providers`) is no ARM scope. Returns the scope as sent, or
 * undefined when the path has a valid scope or no `providers` segment at all.
 * @param {string} path
 * @returns {string | undefined}
 */
export function scopeProblem(path) {
  const at = path.toLowerCase().lastIndexOf('/providers/');
  if (at < 0) return undefined;
  const sent = path.slice(0, at);
  // The scope as a `{scope}` value carries it: its slashes sent as they are or encoded
  // (%2F), with or without a leading slash of its own (`//subscriptions/…`).
  const decoded = decode(sent.replace(/^\/+/, ''));
  if (decoded === undefined) return sent;
  if (decoded === '') return undefined; // the tenant
  const segments = decoded.split('/');
  return segments.includes('') || !readScope(segments) ? sent : undefined;
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
 * True when a stored resource (its parsed id) belongs to the list a collection path
 * names: its type, below the collection's scope (`atScope`: at that scope only, not
 * below it, as `$filter=atScope()` asks), under the same parents.
 * @param {ResourcePath | undefined} resource
 * @param {ResourcePath} collection
 * @param {{ atScope?: boolean }} [options]
 */
export function inCollection(resource, collection, { atScope = false } = {}) {
  if (!resource || !same(resource.type, collection.type)) return false;
  const [mine, theirs] = [resource.scope.toLowerCase(), collection.scope.toLowerCase()];
  if (atScope ? mine !== theirs : !(mine === theirs || mine.startsWith(`${theirs}/`))) return false;
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
