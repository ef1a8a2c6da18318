// The business-data convention (OData entity sets), for any document of that family:
//
//   POST   …/companies({company})/<set>          create: 201, a server-assigned `id` and
//                                                `lastModifiedDateTime`, an `ETag` header
//   GET    …/companies({company})/<set>          list:   200 { value: [what the store holds] },
//                                                through the query options it declares
//                                                (odata-query.mjs), a page at a time
//   GET    …/companies({company})/<set>({key})   read:   200 with `ETag`; 404 once deleted
//   PATCH  …/companies({company})/<set>({key})   update: If-Match must be the current tag
//                                                (or `*`): merge the fields sent, new tag;
//                                                else 412 with the current `ETag`, no change
//   DELETE …/companies({company})/<set>({key})   delete: 204, then 404 for that key
//   GET    …/companies({company})/<set>/$count   count:  text/plain, the matches of its $filter
//   POST   /$batch                               the JSON batch (odata-batch.mjs)
//   POST   …/companies({company})/<set>({key})/<Namespace>.<action>
//                                                a bound action (`Microsoft.NAV.post`):
//                                                404 when the entity does not exist (or
//                                                no longer), 412 for an If-Match that is
//                                                not its tag; else the documented answer
//                                                (its lowest 2xx, first example). The
//                                                entity is left as it is: what an action
//                                                does to it is the service's own business
//
// One store per company and set, keyed by the set's name (state.mjs): every version that
// declares the set shares it. A key never seen starts as the documented example under
// that key (the example's fields, the key as `id`) with the set's initial tag: the
// If-Match example of a document, else INITIAL_ETAG. A set with no example has no
// entity until one is created or seeded (an unseen key is then 404).
// OData's JSON control information (4.01 JSON format, 4.5): where the entity's schema
// declares `@odata.etag`, every entity answered carries its current tag (the ETag header's
// value), in a list, expanded or nested too; where a schema declares `@odata.context`,
// the answer carries `<service root>/$metadata#companies(<id>)/<set>[/$entity]`. The store
// holds no annotation. `Prefer: return=minimal` on a create or update whose operation
// declares a 204: 204 with `Preference-Applied` and the new ETag. A create with related
// entities inline (deep insert) gives each its own `id` (and tag); a read by key leaves
// related entities out unless `$expand`ed.
// A 412 is HTTP's answer to a failed precondition (RFC 9110, 13.1.1); the source does
// not show it (the update operation's x-source-gap).
import { randomBytes, randomUUID } from 'node:crypto';
import { answer, describeViolations, familyError } from '../errors.mjs';
import { DELETED, normalKey } from '../state.mjs';
import {
  documentedAnswer,
  parameterExample,
  parameterNames,
  parametersOf,
  propertiesOf,
  statusFor,
  successExamples,
  successSchema,
  successStatuses,
} from './shapes.mjs';
import { deref } from '../../model/operations.mjs';
import { isQueryProblem, navigationOf, planQuery, project, runQuery } from './odata-query.mjs';
import { batchHandler } from './odata-batch.mjs';

import { INITIAL_ETAG } from '../constants.mjs';
import { BUSINESS_CENTRAL } from '../../model/family.mjs';
import { isReadOnly, withoutReadOnly } from '../../model/read-only.mjs';
import { BATCH_PATH, CONTEXT, ENTITY_SET_KINDS, ETAG, entitySetOf, ifMatchOf, isAnnotation, KEY, NEXT_LINK, queryOptionsOf } from '../../model/odata.mjs';

const FAMILY = BUSINESS_CENTRAL;
/** What routes[].convention says of the operations this convention answers. */
export const ODATA_CONVENTIONS = [...ENTITY_SET_KINDS, 'batch'].map((kind) => `odata-${kind}`);
/**
 * The server's page size of a list when no test set one (seed `pageSizes`): past it, a
 * page carries `@odata.nextLink`. A client may ask for smaller pages with
 * `Prefer: odata.maxpagesize=<n>` (OData 4.01, 8.2.8.3).
 */
export const ODATA_PAGE_SIZE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const newETag = () => `W/"${randomBytes(18).toString('base64')}"`;

/** { kind, set, companyParam, keyParam } for an operation this convention covers (model/odata.mjs), `{ kind: 'batch' }` for the batch, else undefined. */
export const odataShape = (doc, { method, docPath }) =>
  doc.family !== FAMILY ? undefined : docPath === BATCH_PATH && method === 'post' ? { kind: 'batch' } : entitySetOf(method, docPath);

/**
 * What the sets share across documents: for each set name, the example entities (in
 * document order) and the initial tag. Built once per load from every covered operation.
 */
export function catalogueSets(covered) {
  const sets = new Map();
  for (const { doc, shape, operation, pathItem } of covered) {
    if (shape.kind === 'batch') continue;
    const entry = sets.get(shape.set) ?? sets.set(shape.set, { name: shape.set, examples: [], initialETag: undefined, keyParams: new Set() }).get(shape.set);
    if (shape.keyParam) entry.keyParams.add(shape.keyParam);
    if (shape.kind === 'action') continue; // its answer is not an entity of the set, nor its If-Match the set's tag
    for (const value of successExamples(doc.document, operation)) {
      const entities = Array.isArray(value?.value) ? value.value : [value];
      for (const entity of entities) if (isObject(entity)) entry.examples.push({ doc, operation, entity });
    }
    const ifMatch = ifMatchOf(parametersOf(doc.document, pathItem, operation));
    const tag = parameterExample(doc.document, ifMatch);
    if (entry.initialETag === undefined && typeof tag === 'string' && tag.trim() && tag.trim() !== '*') entry.initialETag = tag;
  }
  for (const entry of sets.values()) entry.initialETag ??= INITIAL_ETAG;
  return sets;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The handler of one covered operation: { convention, respond, decorate? }.
 * @param {{ doc: any, shape: any, operation: any, pathItem: any, sets: Map<string, any>, [more: string]: any }} covered
 */
export function odataHandler({ doc, op, shape, operation, pathItem, sets }) {
  const { kind, set, companyParam, keyParam } = shape;
  if (kind === 'batch') return batchHandler(doc);
  const document = doc.document;
  const info = sets.get(set);
  const requestSchema = deref(document, deref(document, operation.requestBody)?.content?.['application/json']?.schema);
  const properties = { ...propertiesOf(document, requestSchema), ...propertiesOf(document, successSchema(document, operation)) };
  /** @param {any} node */
  const resolve = (node) => deref(document, node);
  // Read-only wherever the schema writes it (model/read-only.mjs): a top-level field is never stored from a body.
  const readOnly = new Set([
    'id',
    'lastModifiedDateTime',
    ...Object.entries(properties)
      .filter(([, p]) => isReadOnly(p, resolve))
      .map(([name]) => name),
  ]);
  const stamps = 'lastModifiedDateTime' in properties;
  // What a list reads its query with: the `$`-options the operation declares, the
  // properties of the entities it answers, and which of them are related entities.
  const declared = new Set(queryOptionsOf(parametersOf(document, pathItem, operation)));
  // `$count` reads the properties of its set's list (`…/<set>` beside `…/<set>/$count`).
  const listOperation = kind === 'count' ? (deref(document, document.paths[op.docPath.replace(/\/\$count$/, '')])?.get ?? {}) : operation;
  const answered = propertiesOf(document, successSchema(document, listOperation));
  const declaredProperties = propertiesOf(document, deref(document, answered.value?.items));
  // An item schema that names no property is open: any name is taken, compared as it comes.
  const itemProperties = Object.keys(declaredProperties).length ? declaredProperties : new Proxy({}, { has: () => true, get: () => undefined });
  const navigation = navigationOf(itemProperties, (node) => deref(document, node));
  const required = requiredOf(document, answered.value?.items);
  // The entity this operation answers, as its schema declares it: its annotations and related entities.
  const entityProperties = kind === 'list' ? declaredProperties : answered;
  const tagged = ETAG in entityProperties;
  const contextual = CONTEXT in answered;
  // Related entities (deep insert, left out of a read unless expanded): navigation
  // properties whose entities have a key (`id`); an object without one is a plain value.
  const related = new Map(
    [...navigationOf(entityProperties, (node) => deref(document, node))].flatMap(([name, many]) => {
      const nested = propertiesOf(document, deref(document, deref(document, entityProperties[name])?.items ?? entityProperties[name]));
      return KEY in nested ? [[name, { many: many === 'collection', tagged: ETAG in nested }]] : [];
    }),
  );
  const declaresMinimal = successStatuses(operation).includes(204);
  const keyIsUuid = parametersOf(document, pathItem, operation).some(
    (p) => p.in === 'path' && p.name === keyParam && deref(document, p.schema)?.format === 'uuid',
  );

  /** The example an unseen key starts from: this operation's, this document's, any document's. */
  const example = () => (info.examples.find((e) => e.operation === operation) ?? info.examples.find((e) => e.doc === doc) ?? info.examples[0])?.entity;

  /** The stored entry of the request's key: materialised from the example on first sight. */
  function entryOf({ state, params }) {
    const store = state.store(params[companyParam], set);
    const key = normalKey(params[keyParam]);
    let entry = store.get(key);
    if (!entry) {
      const start = example();
      if (!start) return undefined;
      entry = { key: params[keyParam], entity: { ...structuredClone(start), id: params[keyParam] }, eTag: info.initialETag };
      store.set(key, entry);
    }
    return entry === DELETED ? undefined : entry;
  }

  const notFound = ({ params, state }) => {
    const gone = state.store(params[companyParam], set).get(normalKey(params[keyParam])) === DELETED;
    return familyError(FAMILY, 404, `No ${set} entity with key '${params[keyParam]}' in company '${params[companyParam]}'${gone ? ': it was deleted' : ''}.`);
  };
  const stale = (ifMatch, entry) =>
    familyError(
      FAMILY,
      412,
      `If-Match ${ifMatch} is not the current eTag ${entry.eTag} of ${set}('${entry.key}'): nothing was changed. Read the current tag from the ETag header and retry.`,
      {
        code: 'PreconditionFailed',
        headers: { etag: entry.eTag },
      },
    );
  /** The entry a write names, if it may be written: { entry }, or { refused } (404, or 412 for an If-Match that is not its tag). */
  const writableEntry = (ctx) => {
    const entry = entryOf(ctx);
    const ifMatch = ctx.headers['if-match'];
    if (!entry) return { refused: notFound(ctx) };
    return ifMatch !== undefined && !matches(ifMatch, entry.eTag) ? { refused: stale(ifMatch, entry) } : { entry };
  };
  /** The fields of a body the entity stores: read-only values at any depth below it dropped too. @param {unknown} body */
  const writable = (body) => {
    const sent = /** @type {Record<string, any>} */ (withoutReadOnly(isObject(body) ? body : {}, requestSchema, resolve));
    return Object.fromEntries(Object.entries(sent).filter(([field]) => !readOnly.has(field) && !isAnnotation(field) && !related.has(field)));
  };
  /** A related entity created inline (deep insert): its own `id`, and tag where its schema declares one. */
  const inserted = (value, { tagged: hasTag }) => ({
    ...(hasTag ? { [ETAG]: newETag() } : {}),
    ...Object.fromEntries(Object.entries(value).filter(([field]) => field !== 'id' && !isAnnotation(field))),
    id: randomUUID(),
  });
  /** `@odata.context` where the answer's schema declares it: the set's, `/$entity` for one entity. @param {any} ctx @param {string} [entity] */
  const contextOf = (ctx, entity = '') =>
    contextual ? { [CONTEXT]: `${ctx.origin}${doc.prefix}/$metadata#companies(${ctx.params[companyParam]})/${set}${entity}` } : {};
  /** What an answer says of an entity: its context and tag where declared, then its fields (related ones only when `keep` names them). */
  const present = (ctx, entry, keep = (/** @type {string} */ _field) => true) => ({
    ...contextOf(ctx, '/$entity'),
    ...(tagged ? { [ETAG]: entry.eTag } : {}),
    ...Object.fromEntries(Object.entries(structuredClone(entry.entity)).filter(([field]) => !isAnnotation(field) && (!related.has(field) || keep(field)))),
  });
  /** The 204 of `Prefer: return=minimal` where the operation declares one, else the entity. */
  const written = (ctx, status, entry, keep = () => false) => {
    const preference = /(?:^|[,;\s])return\s*=\s*(minimal|representation)\b/i.exec(String(ctx.headers.prefer ?? ''))?.[1]?.toLowerCase();
    const applied = declaresMinimal && preference ? { 'preference-applied': `return=${preference}` } : {};
    // No body: the entity's URL says which one it is (OData 4.01, 8.3.2 and 11.4.2).
    const url = `${ctx.origin}${ctx.rawPath.replace(/\([^/]*\)$/, '')}(${entry.key})`;
    if (applied['preference-applied'] === 'return=minimal')
      return { status: 204, headers: { etag: entry.eTag, ...applied, location: url, 'odata-entityid': url }, body: undefined };
    return answer(status, present(ctx, entry, keep), { etag: entry.eTag, ...applied });
  };
  /** A list's or count's query plan: { plan }, or { refused } (400 naming the option). */
  const planned = (ctx) => {
    try {
      return { plan: planQuery(ctx.query, { declared, properties: itemProperties, deref: (node) => deref(document, node) }) };
    } catch (error) {
      if (!isQueryProblem(error)) throw error;
      return { refused: familyError(FAMILY, 400, `${error.message} (GET ${set}${kind === 'count' ? '/$count' : ''})`, { target: error.option }) };
    }
  };
  const stored = (ctx) => [...ctx.state.store(ctx.params[companyParam], set).values()].filter((entry) => entry !== DELETED);

  const respond = {
    create(ctx) {
      const id = randomUUID();
      const body = isObject(ctx.body) ? ctx.body : {};
      const nested = Object.fromEntries(
        [...related]
          .filter(([name]) => isObject(body[name]) || Array.isArray(body[name]))
          .map(([name, how]) => [
            name,
            Array.isArray(body[name]) ? body[name].filter(isObject).map((value) => inserted(value, how)) : inserted(body[name], how),
          ]),
      );
      const entity = { id, ...writable(ctx.body), ...nested, ...(stamps ? { lastModifiedDateTime: new Date().toISOString() } : {}) };
      const entry = { key: id, entity, eTag: newETag() };
      ctx.state.store(ctx.params[companyParam], set).set(normalKey(id), entry);
      return written(ctx, statusFor(operation, 201), entry, () => true);
    },
    list(ctx) {
      const { plan, refused } = planned(ctx);
      if (refused) return refused;
      const { matches, rows } = runQuery(plan, stored(ctx));
      const offset = plan.offset ?? 0;
      if (offset > rows.length)
        return familyError(
          FAMILY,
          400,
          `$skiptoken: ${offset} is past the end of this list (${rows.length} entities); take @odata.nextLink as the mock gave it.`,
          { target: '$skiptoken' },
        );
      // The client's odata.maxpagesize is a most: applied (and said so) when below the server's.
      const serverSize = ctx.state.pageSizes?.get(set) ?? ODATA_PAGE_SIZE;
      const asked = maxPageSize(ctx.headers.prefer);
      const applied = asked !== undefined && asked <= serverSize ? asked : undefined;
      const size = applied ?? serverSize;
      const page = rows.slice(offset, offset + size);
      const body = {
        ...contextOf(ctx),
        ...(plan.count ? { '@odata.count': matches } : {}),
        // The current tag first, and over any tag a seeded or documented entity holds.
        value: page.map((entry) => {
          const tag = tagged ? { [ETAG]: entry.eTag } : {};
          return { ...tag, ...project(plan, entry.entity, navigation, required), ...tag };
        }),
        ...(offset + size < rows.length ? { [NEXT_LINK]: nextLink(ctx, offset + size) } : {}),
      };
      return answer(statusFor(operation, 200), body, applied === undefined ? {} : { 'preference-applied': `odata.maxpagesize=${applied}` });
    },
    read(ctx) {
      const entry = entryOf(ctx);
      if (!entry) return notFound(ctx);
      // Related entities only when `$expand`ed (an operation that declares it).
      const expand = declared.has('$expand')
        ? String(ctx.query.$expand ?? '')
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : [];
      const unknown = expand.find((name) => !related.has(name));
      if (unknown !== undefined)
        return familyError(
          FAMILY,
          400,
          `$expand: ${JSON.stringify(unknown)} is not a navigation property of ${set} (it has ${[...related.keys()].join(', ') || 'none'}).`,
          { target: '$expand' },
        );
      const body = present(ctx, entry, (field) => expand.includes(field));
      for (const name of expand) body[name] ??= related.get(name)?.many ? [] : null;
      return answer(statusFor(operation, 200), body, { etag: entry.eTag });
    },
    update(ctx) {
      const { entry, refused } = writableEntry(ctx);
      if (refused) return refused;
      Object.assign(entry.entity, writable(ctx.body));
      if (stamps) entry.entity.lastModifiedDateTime = new Date().toISOString();
      entry.eTag = newETag();
      return written(ctx, statusFor(operation, 200), entry);
    },
    count(ctx) {
      const { plan, refused } = planned(ctx);
      if (refused) return refused;
      return { status: statusFor(operation, 200), headers: { 'content-type': 'text/plain' }, body: runQuery(plan, stored(ctx)).matches }; // written as its digits
    },
    delete(ctx) {
      const { refused } = writableEntry(ctx);
      if (refused) return refused;
      ctx.state.store(ctx.params[companyParam], set).set(normalKey(ctx.params[keyParam]), DELETED);
      const status = statusFor(operation, 204);
      return status === 204 ? { status, headers: {}, body: undefined } : answer(status, undefined);
    },
    action(ctx) {
      const { entry, refused } = writableEntry(ctx);
      if (refused) return refused;
      const status = successStatuses(operation)[0] ?? 204; // the lowest 2xx it declares
      // With the entity's tag, as every answer about an entity that exists carries it.
      return documentedAnswer(document, operation, status, { etag: entry.eTag });
    },
  }[kind];

  // Any other answer about an entity that exists (a Prefer example, a refused body) carries
  // its current tag too, as the update's answers always have.
  const decorate =
    kind === 'read' || kind === 'update'
      ? (ctx, result) => {
          if (result.headers?.etag || (keyIsUuid && !UUID.test(String(ctx.params[keyParam])))) return result;
          const entry = entryOf(ctx);
          return entry ? { ...result, headers: { ...result.headers, etag: entry.eTag } } : result;
        }
      : undefined;

  // A list's query option that Prism's validation refuses (`$top=-1` against `minimum: 0`)
  // is answered like the options this convention refuses: 400 naming the option.
  const rejected =
    kind === 'list' || kind === 'count'
      ? (ctx) => {
          const errors = (ctx.validations ?? []).filter((v) => v.severity === 0);
          const option = errors.map((v) => v.path ?? []).find((path) => path[0] === 'query' && String(path[1]).startsWith('$'))?.[1];
          const message = `The request is invalid: ${describeViolations(errors, parameterNames(ctx))}.`;
          return familyError(FAMILY, 400, option ? `${option} at position 0: ${message} (GET ${set})` : message, option ? { target: option } : {});
        }
      : undefined;

  return { convention: `odata-${kind}`, set, respond, decorate, rejected };
}

/** The property names an object schema (through `allOf`) marks required. */
function requiredOf(document, schema, depth = 0) {
  const resolved = deref(document, schema);
  if (!resolved || typeof resolved !== 'object' || depth > 8) return new Set();
  return new Set([
    ...(Array.isArray(resolved.required) ? resolved.required : []),
    ...(resolved.allOf ?? []).flatMap((part) => [...requiredOf(document, part, depth + 1)]),
  ]);
}

/** `odata.maxpagesize` of a Prefer header, when it is a positive integer. */
function maxPageSize(prefer) {
  const found = /(?:^|[,;\s])odata\.maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(String(prefer ?? ''));
  const size = found ? Number(found[1]) : 0;
  return size >= 1 ? size : undefined;
}

/**
 * The next page's link: the mock's own origin (the Host the request came in on), the path
 * as sent and the whole query again, with `$skiptoken` the offset of the next page in
 * the query's result; following it gives the next page of the same query.
 */
function nextLink({ origin, rawPath, query }, offset) {
  const encode = (text) => encodeURIComponent(text).replace(/%24/g, '$').replace(/%2C/g, ',');
  const pairs = Object.entries(query)
    .filter(([name]) => name !== '$skiptoken')
    .flatMap(([name, value]) => [value].flat().map((v) => `${encode(name)}=${encode(v)}`));
  return `${origin}${rawPath}?${[...pairs, `$skiptoken=${offset}`].join('&')}`;
}

const matches = (ifMatch, current) =>
  String(ifMatch)
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === current);

/**
 * A test's entity put in place (seed): { company, set, key?, entity, eTag? }. The key is
 * `key`, else the entity's `id`; without an eTag it gets the set's initial tag.
 * @param {any} state
 * @param {Map<string, any>} sets
 * @param {{ company?: unknown, set?: any, key?: unknown, entity?: any, eTag?: unknown }} [given]
 */
export function seedEntity(state, sets, { company, set, key, entity, eTag } = {}) {
  const where = `seed entity ${JSON.stringify({ company, set, key })}`;
  if (typeof company !== 'string' || !company) throw new Error(`${where}: "company" must be the company key (a non-empty string).`);
  if (!sets.has(set))
    throw new Error(`${where}: no document declares an entity set "${set}" under companies({company}) (sets: ${[...sets.keys()].join(', ') || 'none'}).`);
  if (!isObject(entity)) throw new Error(`${where}: "entity" must be an object.`);
  const id = key ?? entity.id;
  if (typeof id !== 'string' || !id) throw new Error(`${where}: give "key" or an entity "id" (a non-empty string).`);
  if (eTag !== undefined && (typeof eTag !== 'string' || !eTag.trim() || eTag.trim() === '*'))
    throw new Error(`${where}: "eTag" must be a tag (not empty, not "*").`);
  const entry = {
    key: id,
    entity: { ...structuredClone(entity), ...(entity.id === undefined && key === undefined ? {} : { id }) },
    eTag: eTag ?? sets.get(set).initialETag,
  };
  state.store(company, set).set(normalKey(id), entry);
  return { company, set, key: id, entity: structuredClone(entry.entity), eTag: entry.eTag };
}

/** A test's server page size for an entity set's lists (seed `pageSizes`): 1 to 1000. */
export function seedPageSize(state, sets, set, size) {
  const where = `seed pageSizes.${set}`;
  if (!sets.has(set))
    throw new Error(`${where}: no document declares an entity set "${set}" under companies({company}) (sets: ${[...sets.keys()].join(', ') || 'none'}).`);
  if (!(Number.isInteger(size) && size >= 1 && size <= 1000)) throw new Error(`${where}: the page size must be an integer from 1 to 1000.`);
  state.pageSizes.set(set, size);
}
