// Business data's OData shapes, read from a document's paths and parameters: entity sets
// and the key in their paths, bound actions, the `$` query options an operation declares,
// and the optimistic concurrency of an If-Match header (etags).
//
//   …/companies({company})/<set>                          the set: GET list, POST create
//   …/companies({company})/<set>({key})                   one entity: GET, PATCH, DELETE
//   …/companies({company})/<set>({key})/<Namespace>.<action>   a bound action: POST

const ENTITY_PATH = /(?:^|\/)companies\(\{([^}]+)\}\)\/([A-Za-z_]\w*)(?:\(\{([^}]+)\}\))?(?:\/([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+))?$/;
/** @type {Record<string, Record<string, string>>} */
const KINDS = { collection: { get: 'list', post: 'create' }, entity: { get: 'read', patch: 'update', delete: 'delete' }, bound: { post: 'action' } };

/** The entity key every set of this family uses (the service assigns `id` on create). */
export const KEY = 'id';
/** The link to a list's next page. */
export const NEXT_LINK = '@odata.nextLink';
/** The annotation that carries an entity's tag in a body (the `ETag` header's value). */
export const ETAG = '@odata.etag';

/**
 * @typedef {object} EntitySetShape
 * @property {'list' | 'create' | 'read' | 'update' | 'delete' | 'action'} kind
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
  const [, companyParam, set, keyParam, action] = found;
  // A bound action is bound to one entity here (`<set>({key})/<Namespace>.<action>`).
  if (action && !keyParam) return undefined;
  const kind = KINDS[action ? 'bound' : keyParam ? 'entity' : 'collection'][method];
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
