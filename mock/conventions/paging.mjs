// The resource-management paging convention, for any GET whose 200 answer is a page: an
// object with an item array (`value`) and a next-page link (`nextLink`, or the names of
// its `x-ms-pageable`). The items are what a test seeded for the operation (by
// operationId), else its documented items: the entries of its examples' pages, plus the
// operation's own extra items when a behaviour gives some (behaviours/). Each page but the
// last carries a link built from the origin the request came in on (its Host) and the path
// as sent, so a client that follows links on its own origin only reads to the end on any
// port. The source shows no page size and no paging parameter: the mock's pages hold
// PAGE_SIZE entries (or the seeded pageSize) and the link carries the request's query
// (its `$filter` included) with `$skiptoken=page<n>`.
import { answer, errorAnswer } from '../errors.mjs';
import { isPage, pageNamesOf } from '../../model/arm.mjs';
import { RESOURCE_MANAGER } from '../../model/family.mjs';
import { propertiesOf, successExamples, successSchema } from './shapes.mjs';

export const PAGE_SIZE = 2;

/** { itemName, nextLinkName } when the operation's answer is a page, else undefined. */
export function pagingShape(doc, { method, operation }) {
  if (doc.family !== RESOURCE_MANAGER || method !== 'get') return undefined;
  const names = pageNamesOf(operation);
  return isPage(propertiesOf(doc.document, successSchema(doc.document, operation)), names) ? names : undefined;
}

/** The documented items: every entry of the examples' pages, each once, then the extras. */
export function documentedItems(doc, operation, shape, extra = []) {
  const seen = new Map();
  for (const page of successExamples(doc.document, operation)) {
    for (const item of Array.isArray(page?.[shape.itemName]) ? page[shape.itemName] : []) {
      const id = JSON.stringify(item);
      if (!seen.has(id)) seen.set(id, item);
    }
  }
  for (const item of extra) if (!seen.has(JSON.stringify(item))) seen.set(JSON.stringify(item), item);
  return [...seen.values()];
}

export function pagingHandler({ doc, operation, shape, extraItems }) {
  let documented;
  const operationId = operation.operationId;
  const documentedOnce = () => (documented ??= documentedItems(doc, operation, shape, extraItems));
  return {
    convention: 'arm-paging',
    pageSize: PAGE_SIZE,
    documentedItems: documentedOnce,
    respond(ctx) {
      const seeded = ctx.state.lists.get(operationId);
      const { body, refused } = pageOf(seeded?.items ?? documentedOnce(), seeded?.pageSize ?? PAGE_SIZE, shape, ctx, doc.version);
      return refused ?? answer(200, body);
    },
  };
}

/**
 * The page of `items` the request's `$skiptoken` names (`page<n>`, the first without
 * one): { body } with the link to the next page but on the last, or { refused } with
 * the 400 of a token that names no page of this list.
 * @param {unknown[]} items
 * @param {number} size
 * @param {{ itemName: string, nextLinkName: string }} shape
 * @param {{ origin: string, rawPath: string, query: Record<string, unknown> }} request
 * @param {string} version
 */
export function pageOf(items, size, shape, { origin, rawPath, query }, version) {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const token = query.$skiptoken;
  const page = token === undefined ? 1 : /^page([1-9]\d{0,5})$/.test(String(token)) ? Number(String(token).slice(4)) : NaN;
  if (!(page >= 1 && page <= pages)) {
    return {
      refused: errorAnswer(400, 'InvalidSkipToken', `$skiptoken ${JSON.stringify(String(token))} is not a page of this list (page1 to page${pages}).`, {
        target: '$skiptoken',
      }),
    };
  }
  /** @type {Record<string, unknown>} */
  const body = { [shape.itemName]: structuredClone(items.slice((page - 1) * size, page * size)) };
  // The whole query again (a filter keeps filtering), the page's token the only change.
  const kept = Object.entries(query).filter(([name]) => name !== 'api-version' && name !== '$skiptoken');
  const next = [
    ['api-version', String(version)],
    ...kept.flatMap(([name, value]) => [value].flat().map((v) => [name, String(v)])),
    ['$skiptoken', `page${page + 1}`],
  ];
  if (page < pages)
    body[shape.nextLinkName] =
      `${origin}${rawPath}?${next.map(([name, value]) => `${encodeURIComponent(name).replace(/^%24/, '$')}=${encodeURIComponent(value)}`).join('&')}`;
  return { body };
}

/** A test's items for a paged list (seed): an array, or { items, pageSize }. */
export function seedList(state, pagedOperations, operationId, list) {
  const where = `seed lists.${operationId}`;
  if (!pagedOperations.has(operationId)) {
    throw new Error(
      `${where}: no document declares a nextLink-paged list operation "${operationId}" (paged: ${[...pagedOperations.keys()].join(', ') || 'none'}).`,
    );
  }
  const { items, pageSize } = Array.isArray(list) ? { items: list } : (list ?? {});
  if (!Array.isArray(items)) throw new Error(`${where}: give an array of items, or { items: [...], pageSize }.`);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000))
    throw new Error(`${where}: pageSize must be an integer from 1 to 1000.`);
  state.lists.set(operationId, { items: structuredClone(items), ...(pageSize === undefined ? {} : { pageSize }) });
}
