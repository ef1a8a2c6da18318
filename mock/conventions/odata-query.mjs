// The OData system query options of an entity set's list (OData 4.01, URL conventions,
// section 5.1), as the business-data convention (odata.mjs) answers them over its store:
//   $filter   eq ne gt ge lt le, and or not, parentheses, contains startswith endswith;
//             literals: 'text' ('' escapes a quote), numbers, true/false, GUIDs, dates,
//             date-times, null; property names checked against the entity's schema
//   $orderby  several keys, asc (default) / desc; nulls first ascending, last descending
//   $top $skip  non-negative integers, applied after $filter and $orderby
//   $select   the named properties, plus the key (`id`) and `@odata.etag`; `*` is all
//   $count    true: `@odata.count`, the number of matches before $top/$skip
//   $expand   properties the schema declares as related entities (an object, or an array
//             of objects), as the store holds them ([] or null when it holds none);
//             without it they are left out of the answer
// The grammar is odata-v4-parser's (ABNF of OData 4.0; docs/dependencies.md says why that
// parser); what its tree means over the store is decided here. Anything the mock does not
// implement, and any option the operation does not declare, is refused with 400 naming
// the option and the position (0-based, in the option's value) where it goes wrong.
// $filter is odata-filter.mjs; this file reads the other options and applies them.
import { createRequire } from 'node:module';
import { compileFilter, comparable, KIND_NAMES, kindOf, names, parse, propertyName, QueryProblem } from './odata-filter.mjs';

const require = createRequire(import.meta.url);
const Query = require('odata-v4-parser/lib/query').default;

/** The options this module answers; `$skiptoken` is the mock's own paging token. */
export const QUERY_OPTIONS = ['$filter', '$orderby', '$top', '$skip', '$select', '$count', '$expand'];
export const SKIP_TOKEN = '$skiptoken';
/** The entity key every set of this family uses (the convention assigns `id` on create). */
import { ETAG, KEY } from '../../model/odata.mjs';

export { KEY };
const MAX_INTEGER = 2 ** 31 - 1;

/** A related entity (what $expand names): an object, or an array of objects. */
const isNavigation = (schema, deref) => {
  const kind = kindOf(schema);
  if (kind !== 'structured') return false;
  if ([schema.type].flat().includes('object')) return true;
  const items = deref(schema.items);
  return [items?.type].flat().includes('object') || Boolean(items?.properties);
};

/** The items of a comma-separated option, each with its offset in the value. */
function items(text, option) {
  const out = [];
  let at = 0;
  for (const part of text.split(',')) {
    const lead = part.length - part.trimStart().length;
    const item = part.trim();
    if (!item) throw new QueryProblem(option, at + lead, 'an empty item (two commas, or a comma at an end).');
    out.push({ item, offset: at + lead });
    at += part.length + 1;
  }
  return out;
}

const checkName = (name, properties, option, position) => {
  if (!(name in properties)) throw new QueryProblem(option, position, `the entity has no property ${JSON.stringify(name)} (it has ${names(properties)}).`);
};

function compileOrderBy(text, properties) {
  const option = '$orderby';
  return items(text, option).map(({ item, offset }) => {
    const node = parse(Query.orderbyItem, item, option, offset);
    let inner = node.value.expr;
    while (['CommonExpression', 'FirstMemberExpression', 'MemberExpression'].includes(inner?.type)) inner = inner.value;
    const name = propertyName(inner);
    if (name === undefined)
      throw new QueryProblem(option, offset, `${JSON.stringify(node.value.expr.raw)} is not supported by the mock (a property of the entity is).`);
    checkName(name, properties, option, offset);
    const kind = kindOf(properties[name]);
    if (kind === 'structured')
      throw new QueryProblem(option, offset, `the property ${JSON.stringify(name)} is structured; the mock orders by primitive properties only.`);
    return { name, kind, direction: node.value.direction };
  });
}

function compileSelect(text, properties) {
  const option = '$select';
  const names = [];
  for (const { item, offset } of items(text, option)) {
    const node = parse(Query.selectItem, item, option, offset);
    if (node.value?.value === '*') return undefined;
    // SelectItem > SelectPath > ComplexProperty { name }; a path (a/b) nests `path` instead.
    const name = node.value?.type === 'SelectPath' && node.value.value?.type === 'ComplexProperty' ? node.value.value.value?.name : undefined;
    if (name === undefined) throw new QueryProblem(option, offset, `${JSON.stringify(item)} is not supported by the mock (property names and * are).`);
    checkName(name, properties, option, offset);
    names.push(name);
  }
  return names;
}

function compileExpand(text, properties, deref) {
  const option = '$expand';
  const names = [];
  for (const { item, offset } of items(text, option)) {
    if (item.includes('(')) throw new QueryProblem(option, offset + item.indexOf('('), 'options inside $expand are not supported by the mock.');
    const node = parse(Query.expandItem, item, option, offset);
    const path = node.value.path.value;
    if (path.length !== 1)
      throw new QueryProblem(option, offset, `${JSON.stringify(item)} is not supported by the mock (a navigation property of the entity is).`);
    const name = path[0].value.name;
    checkName(name, properties, option, offset);
    if (!isNavigation(properties[name], deref))
      throw new QueryProblem(
        option,
        offset,
        `${JSON.stringify(name)} is not a navigation property (the schema declares it as ${KIND_NAMES[kindOf(properties[name])] ?? 'a primitive'}, not as an object or an array of objects).`,
      );
    names.push(name);
  }
  return names;
}

function integer(text, option) {
  const bad = /[^0-9]/.exec(text);
  if (text === '' || bad || Number(text) > MAX_INTEGER) {
    throw new QueryProblem(option, bad ? bad.index : 0, `${JSON.stringify(text)} is not a non-negative integer (0 to ${MAX_INTEGER}).`);
  }
  return Number(text);
}

/**
 * Reads a list request's query into a plan, or throws a QueryProblem (its `option` and a
 * message naming the position). `declared` is the set of `$`-options the operation
 * declares; `properties` the entity's properties (dereferenced schemas).
 */
export function planQuery(query, { declared, properties, deref = (x) => x }) {
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith('$')) continue;
    if (Array.isArray(value)) throw new QueryProblem(name, undefined, `given ${value.length} times; give it once.`);
    if (name === SKIP_TOKEN) continue;
    if (!declared.has(name)) {
      throw new QueryProblem(
        name,
        undefined,
        `this operation does not declare the query option ${name} (it declares ${[...declared].sort().join(', ') || 'none'}).`,
      );
    }
    if (!QUERY_OPTIONS.includes(name))
      throw new QueryProblem(name, undefined, `the mock does not implement ${name} (it implements ${QUERY_OPTIONS.join(', ')}).`);
  }
  /** @type {{ filter?: (entity: any) => boolean, orderBy: any[], skip: number, top?: number, select?: any[], count: boolean, expand: any[], offset?: number }} */
  const plan = { filter: undefined, orderBy: [], skip: 0, top: undefined, select: undefined, count: false, expand: [] };
  const given = (name) => typeof query[name] === 'string';
  if (given('$filter')) plan.filter = compileFilter(query.$filter, properties);
  if (given('$orderby')) plan.orderBy = compileOrderBy(query.$orderby, properties);
  if (given('$top')) plan.top = integer(query.$top, '$top');
  if (given('$skip')) plan.skip = integer(query.$skip, '$skip');
  if (given('$select')) plan.select = compileSelect(query.$select, properties);
  if (given('$expand')) plan.expand = compileExpand(query.$expand, properties, deref);
  if (given('$count')) {
    if (!['true', 'false'].includes(query.$count)) throw new QueryProblem('$count', 0, `${JSON.stringify(query.$count)} is neither true nor false.`);
    plan.count = query.$count === 'true';
  }
  if (given(SKIP_TOKEN)) {
    const token = query[SKIP_TOKEN];
    if (!/^[0-9]{1,9}$/.test(token))
      throw new QueryProblem(SKIP_TOKEN, 0, `${JSON.stringify(token)} is not a page of this list (take @odata.nextLink as the mock gave it).`);
    plan.offset = Number(token);
  }
  return plan;
}

export const isQueryProblem = (error) => error instanceof QueryProblem;

/** Nulls first ascending (last descending); values of one kind by their natural order. */
function order(keys) {
  return (a, b) => {
    for (const { name, kind, direction } of keys) {
      const [x, y] = [comparable(kind, a[name]), comparable(kind, b[name])];
      if (x === y) continue;
      const less = x === null ? true : y === null ? false : x < y;
      const greater = x === null ? false : y === null ? true : x > y;
      if (!less && !greater) continue;
      return (less ? -1 : 1) * direction;
    }
    return 0;
  };
}

/**
 * Applies a plan to the entities of a set (in store order): { matches, rows } where rows
 * are the entities after $filter, $orderby, $skip and $top, and matches the count for
 * $count. Related entities are dropped unless expanded; $select is applied by project().
 */
export function runQuery(plan, entries) {
  let rows = plan.filter ? entries.filter((entry) => plan.filter(entry.entity) === true) : [...entries];
  if (plan.orderBy.length) {
    const compare = order(plan.orderBy);
    rows = rows
      .map((entry, i) => ({ entry, i }))
      .sort((a, b) => compare(a.entry.entity, b.entry.entity) || a.i - b.i)
      .map(({ entry }) => entry);
  }
  const matches = rows.length;
  rows = rows.slice(plan.skip, plan.top === undefined ? undefined : plan.skip + plan.top);
  return { matches, rows };
}

/**
 * One entity as the list answers it: $select's properties (plus the key, the eTag and
 * what the list's schema marks `required`, so the answer stays valid against the
 * document the mock serves), related entities only when expanded (an expanded one the entity does not hold is `[]` for a
 * collection, `null` for a single entity).
 */
export function project(plan, entity, navigation, required = new Set()) {
  const out = {};
  for (const [name, value] of Object.entries(entity)) {
    if (navigation.has(name) && !plan.expand.includes(name)) continue;
    if (plan.select && !(plan.select.includes(name) || name === KEY || name === ETAG || plan.expand.includes(name) || required.has(name))) continue;
    out[name] = structuredClone(value);
  }
  for (const name of plan.expand) if (!(name in out)) out[name] = navigation.get(name) === 'collection' ? [] : null;
  return out;
}

/** The properties $expand may name (related entities): name -> 'collection' | 'single', for project(). */
export const navigationOf = (properties, deref) =>
  new Map(
    Object.entries(properties)
      .filter(([, schema]) => isNavigation(schema, deref))
      .map(([name, schema]) => [name, [schema.type].flat().includes('array') ? 'collection' : 'single']),
  );
