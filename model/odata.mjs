// Business data's OData shapes, read from a document's paths and parameters: entity sets
// and the key in their paths, bound actions, the `$` query options an operation declares,
// the optimistic concurrency of an If-Match header (etags), and what the values of the
// query options that name properties ($select, $orderby, $filter, $expand) name.
//
//   …/companies({company})/<set>                          the set: GET list, POST create
//   …/companies({company})/<set>({key})                   one entity: GET, PATCH, DELETE
//   …/companies({company})/<set>({key})/<Namespace>.<action>   a bound action: POST
//   …/companies({company})/<set>/$count                   how many: GET (text/plain)
//   /$batch                                               the service's JSON batch: POST

import { hasType } from './schemas.mjs';

const ENTITY_PATH = /(?:^|\/)companies\(\{([^}]+)\}\)\/([A-Za-z_]\w*)(?:\(\{([^}]+)\}\))?(?:\/([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)|\/(\$count))?$/;
/** @type {Record<string, Record<string, string>>} */
const KINDS = {
  collection: { get: 'list', post: 'create' },
  entity: { get: 'read', patch: 'update', delete: 'delete' },
  bound: { post: 'action' },
  count: { get: 'count' },
};
/** What an operation can do to an entity set: list, create, read, update, delete, action, count. */
export const ENTITY_SET_KINDS = [...new Set(Object.values(KINDS).flatMap(Object.values))];

/** The entity key every set of this family uses (the service assigns `id` on create). */
export const KEY = 'id';
/** The link to a list's next page. */
export const NEXT_LINK = '@odata.nextLink';
/** The annotation that carries an entity's tag in a body (the `ETag` header's value). */
export const ETAG = '@odata.etag';
/** The annotation that carries an answer's context URL (`<service root>/$metadata#…`). */
export const CONTEXT = '@odata.context';
/** The path (below the service root) of the service's JSON batch (OData 4.01, 19): a document declares it with a POST there. */
export const BATCH_PATH = '/$batch';

/**
 * @typedef {object} EntitySetShape
 * @property {'list' | 'create' | 'read' | 'update' | 'delete' | 'action' | 'count'} kind
 * @property {string} set the entity set's name
 * @property {string} companyParam the path parameter naming the company
 * @property {string | undefined} keyParam the path parameter naming the entity's key
 * @property {string | undefined} action a bound action's `<Namespace>.<name>`
 */

/**
 * What an operation does to an entity set, from its path template (without the
 * document's `/api/vX.Y` prefix) and method; undefined for any other path or method.
 * @param {string} method lower case
 * @param {string} docPath
 * @returns {EntitySetShape | undefined}
 */
export function entitySetOf(method, docPath) {
  const found = ENTITY_PATH.exec(docPath);
  if (!found) return undefined;
  const [, companyParam, set, keyParam, action, count] = found;
  // A bound action is bound to one entity here (`<set>({key})/<Namespace>.<action>`); `$count` counts a set.
  if ((action && !keyParam) || (count && keyParam)) return undefined;
  const kind = KINDS[count ? 'count' : action ? 'bound' : keyParam ? 'entity' : 'collection'][method];
  return kind ? /** @type {EntitySetShape} */ ({ kind, set, companyParam, keyParam, action }) : undefined;
}

/**
 * The If-Match header parameter among an operation's (dereferenced) parameters: an
 * entity's tag, checked on a write (optimistic concurrency).
 * @param {any[]} parameters
 */
export const ifMatchOf = (parameters) => parameters.find((p) => p?.in === 'header' && String(p.name).toLowerCase() === 'if-match');

/**
 * The names of the OData system query options (`$filter`, `$top`, …) among an
 * operation's (dereferenced) parameters.
 * @param {any[]} parameters
 * @returns {string[]}
 */
export const queryOptionsOf = (parameters) => parameters.filter((p) => p?.in === 'query' && String(p.name).startsWith('$')).map((p) => p.name);

/**
 * Whether a name is an instance annotation (`@odata.etag`, `@odata.context`, …): a body
 * may carry one and a schema may declare it, but it is never one of the entity's properties.
 * @param {string} name
 */
export const isAnnotation = (name) => String(name).startsWith('@');

/**
 * Whether a property is a navigation property (a related entity, what `$expand` names):
 * an object, or an array of objects.
 * @param {any} schema
 * @param {(node: any) => any} [deref] follows a `$ref` (a bundled document); a resolved one needs none
 */
export function isNavigation(schema, deref = (node) => node) {
  const resolved = deref(schema);
  const items = deref(resolved?.items);
  return hasType(resolved, 'object') || (hasType(resolved, 'array') && (hasType(items, 'object') || Boolean(items?.properties)));
}

/**
 * The schema of the entity an operation answers, which its query options name: the items
 * of its first 2xx body's `value` array (a list), else that body (one entity).
 * @param {any} operation
 * @param {(node: any) => any} [deref] follows a `$ref` (a bundled document); a resolved one needs none
 */
export function entitySchemaOf(operation, deref = (node) => node) {
  const responses = operation?.responses ?? {};
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  const body = deref(Object.values(deref(responses[String(status)])?.content ?? {})[0]?.schema);
  const value = deref(body?.properties?.value);
  return hasType(value, 'array') ? deref(value.items) : body;
}

/** The query options whose values name the entity's properties. */
export const PROPERTY_OPTIONS = ['$select', '$orderby', '$filter', '$expand'];

// A token of an option's value: a 'text' literal, a GUID, a number or date (from a digit),
// a name or path (`displayName`, `lines/any`, `@odata.etag`), or one other character.
const TOKEN = /'(?:[^']|'')*'|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9][\w.:+-]*|[@A-Za-z_$][\w.@$]*(?:\/[A-Za-z_$][\w.@$]*)*|\S/gi;
const KEYWORDS = new Set([
  'eq',
  'ne',
  'gt',
  'ge',
  'lt',
  'le',
  'and',
  'or',
  'not',
  'has',
  'in',
  'add',
  'sub',
  'mul',
  'div',
  'divby',
  'mod',
  'true',
  'false',
  'null',
  'asc',
  'desc',
  'inf',
  'nan',
  '$it',
  '$root',
  '$this',
]);

/**
 * The property names an expression names (`$filter`, `$orderby`, `$select`): the first
 * segment of each name or path, without operators, literals, functions (a name before
 * `(`), typed literals (`duration'P1D'`) and a lambda's variable (`lines/any(l: l/amount gt 5)`).
 * @param {string} text
 * @returns {string[]}
 */
function namesIn(text) {
  const tokens = [...text.matchAll(TOKEN)].map((match) => match[0]);
  const variables = new Set();
  const names = [];
  for (const [i, token] of tokens.entries()) {
    if (!/^[@A-Za-z_$]/.test(token) || KEYWORDS.has(token.toLowerCase())) continue;
    const next = tokens[i + 1] ?? '';
    const [head, ...path] = token.split('/');
    if (next === ':') variables.add(token);
    else if (!variables.has(head) && !(path.length === 0 && (next === '(' || next.startsWith("'")))) names.push(head);
  }
  return [...new Set(names)];
}

/**
 * What a value of `$select`, `$orderby`, `$filter` or `$expand` names that the entity does
 * not have, one phrase each: a name that is not one of its properties (an annotation
 * never is), and for `$expand` one that is not a navigation property. [] when it fits,
 * and for any other option.
 * @param {string} option the parameter's name (`$filter`)
 * @param {unknown} value
 * @param {Record<string, any>} properties the entity's properties
 * @param {(node: any) => any} [deref] follows a `$ref` (a bundled document); a resolved one needs none
 * @returns {string[]}
 */
export function queryMisfitsOf(option, value, properties, deref = (node) => node) {
  if (!PROPERTY_OPTIONS.includes(option) || typeof value !== 'string') return [];
  const has = (/** @type {string} */ name) => !isAnnotation(name) && Object.hasOwn(properties, name);
  const missing = (/** @type {string} */ name) => (isAnnotation(name) ? `${name} is an annotation, not a property` : `the entity has no property ${name}`);
  if (option !== '$expand')
    return namesIn(value)
      .filter((name) => !has(name))
      .map(missing);
  // Items at the top level (a comma inside an item's own options `lines($select=id,amount)` is not one).
  const names = value.split(/,(?![^(]*\))/).map((item) => item.split(/[(/]/)[0].trim());
  return names.flatMap((name) =>
    !has(name) ? [missing(name)] : isNavigation(properties[name], deref) ? [] : [`${name} is not a navigation property (an object or an array of objects)`],
  );
}
