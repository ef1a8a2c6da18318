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
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parserFactory } = require('odata-v4-parser/lib/parser');
const Expressions = require('odata-v4-parser/lib/expressions').default;
const Query = require('odata-v4-parser/lib/query').default;

/** The options this module answers; `$skiptoken` is the mock's own paging token. */
export const QUERY_OPTIONS = ['$filter', '$orderby', '$top', '$skip', '$select', '$count', '$expand'];
export const SKIP_TOKEN = '$skiptoken';
/** The entity key every set of this family uses (the convention assigns `id` on create). */
export const KEY = 'id';
const MAX_INTEGER = 2 ** 31 - 1;

class QueryProblem extends Error {
  constructor(option, position, message) {
    super(`${option}${position === undefined ? '' : ` at position ${position}`}: ${message}`);
    this.option = option;
  }
}

const parse = (rule, text, option, offset = 0) => {
  try {
    return parserFactory(rule)(text);
  } catch (error) {
    const at = /at (\d+)$/.exec(error.message);
    const position = at ? Number(at[1]) + offset : offset;
    const rest = text.slice(Number(at?.[1] ?? 0));
    throw new QueryProblem(option, position, `not valid OData syntax${rest ? ` at ${JSON.stringify(rest.slice(0, 40))}` : ''}.`);
  }
};

/** The kind of value a property holds, from its schema: how literals compare with it. */
export function kindOf(schema) {
  if (!schema || typeof schema !== 'object') return 'any';
  const types = [schema.type].flat().filter((t) => t && t !== 'null');
  const type = types[0] ?? (Array.isArray(schema.enum) ? typeof schema.enum.find((v) => v !== null) : undefined);
  if (type === 'string') return { uuid: 'guid', date: 'date', 'date-time': 'datetime' }[schema.format] ?? 'string';
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'object' || type === 'array') return 'structured';
  return 'any';
}

/** A related entity (what $expand names): an object, or an array of objects. */
const isNavigation = (schema, deref) => {
  const kind = kindOf(schema);
  if (kind !== 'structured') return false;
  if ([schema.type].flat().includes('object')) return true;
  const items = deref(schema.items);
  return [items?.type].flat().includes('object') || Boolean(items?.properties);
};

const LITERAL_KINDS = {
  'Edm.String': 'string',
  'Edm.Guid': 'guid',
  'Edm.Date': 'date',
  'Edm.DateTimeOffset': 'datetime',
  'Edm.Boolean': 'boolean',
  'Edm.SByte': 'number',
  'Edm.Byte': 'number',
  'Edm.Int16': 'number',
  'Edm.Int32': 'number',
  'Edm.Int64': 'number',
  'Edm.Decimal': 'number',
  'Edm.Double': 'number',
  'Edm.Single': 'number',
};

const COMPARISONS = {
  EqualsExpression: 'eq',
  NotEqualsExpression: 'ne',
  GreaterThanExpression: 'gt',
  GreaterOrEqualsExpression: 'ge',
  LesserThanExpression: 'lt',
  LesserOrEqualsExpression: 'le',
};
const FUNCTIONS = {
  contains: (a, b) => a.includes(b),
  startswith: (a, b) => a.startsWith(b),
  endswith: (a, b) => a.endsWith(b),
};
const UNSUPPORTED = {
  HasExpression: 'the operator has',
  AddExpression: 'the operator add',
  SubExpression: 'the operator sub',
  MulExpression: 'the operator mul',
  DivExpression: 'the operator div',
  ModExpression: 'the operator mod',
  NegateExpression: 'negation (-)',
  AnyExpression: 'the lambda operator any',
  AllExpression: 'the lambda operator all',
  CastExpression: 'cast',
  IsOfExpression: 'isof',
  ParameterAlias: 'parameter aliases (@name)',
  RootExpression: '$root',
};

/** The value a stored entity's property compares by, for its kind (null stays null). */
function comparable(kind, value) {
  if (value === undefined || value === null) return null;
  if (kind === 'guid') return String(value).toLowerCase();
  if (kind === 'datetime') {
    const time = Date.parse(String(value));
    return Number.isNaN(time) ? String(value) : time;
  }
  if (kind === 'boolean' && typeof value === 'boolean') return Number(value);
  return value;
}

/** A literal's value: { kind, value } (value compares like comparable() of that kind). */
function literal(node, option, offset) {
  const raw = node.raw;
  if (node.value === 'null') return { kind: 'null', value: null };
  const kind = LITERAL_KINDS[node.value];
  if (!kind) throw new QueryProblem(option, node.position + offset, `${node.value} literals (${raw}) are not supported by the mock (strings, numbers, booleans, GUIDs, dates, date-times and null are).`);
  if (kind === 'string') return { kind, value: raw.slice(1, -1).replaceAll("''", "'") };
  if (kind === 'number') {
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new QueryProblem(option, node.position + offset, `the number ${raw} is not supported by the mock (finite numbers are).`);
    return { kind, value };
  }
  if (kind === 'boolean') return { kind, value: Number(raw === 'true') };
  if (kind === 'guid') return { kind, value: raw.toLowerCase() };
  if (kind === 'datetime') {
    const value = Date.parse(raw);
    if (Number.isNaN(value)) throw new QueryProblem(option, node.position + offset, `${raw} is not a date-time.`);
    return { kind, value };
  }
  return { kind, value: raw };
}

/** The name of a one-segment property path (PropertyPathExpression > ODataIdentifier), else undefined. */
const propertyName = (node) => (node?.type === 'PropertyPathExpression' && node.value?.type === 'ODataIdentifier' ? node.value.value?.name : undefined);

const KIND_NAMES = { string: 'a string', guid: 'a GUID', date: 'a date', datetime: 'a date-time', number: 'a number', boolean: 'a boolean', structured: 'a structured value', null: 'null' };

/**
 * Builds the evaluator of a $filter: (entity) => true | false | null (null is "unknown",
 * OData's logic for and/or/not; only true keeps an entity).
 */
function compileFilter(text, properties) {
  const option = '$filter';
  balanced(text, option);
  const tree = parse(Expressions.boolCommonExpr, text, option);

  /** A property path: its name, checked against the schema. */
  const property = (node) => {
    let inner = node;
    while (['FirstMemberExpression', 'MemberExpression', 'CommonExpression'].includes(inner?.type)) inner = inner.value;
    const name = propertyName(inner);
    if (name === undefined) {
      throw new QueryProblem(option, node.position, `${JSON.stringify(node.raw)} is not supported by the mock (a property of the entity is; paths into related entities are not).`);
    }
    if (!(name in properties)) throw new QueryProblem(option, node.position, `the entity has no property ${JSON.stringify(name)} (it has ${names(properties)}).`);
    const kind = kindOf(properties[name]);
    if (kind === 'structured') throw new QueryProblem(option, node.position, `the property ${JSON.stringify(name)} is structured; the mock compares primitive properties only.`);
    return { kind, get: (entity) => comparable(kind, entity[name]) };
  };

  /** An operand of a comparison or a function: a property or a literal. */
  const operand = (node) => {
    let inner = node;
    while (inner?.type === 'CommonExpression' || inner?.type === 'ParenExpression') inner = inner.value;
    if (inner?.type === 'Literal') {
      const { kind, value } = literal(inner, option, 0);
      return { kind, get: () => value, position: inner.position };
    }
    if (inner?.type === 'FirstMemberExpression' || inner?.type === 'MemberExpression') return { ...property(inner), position: inner.position };
    return unsupported(inner ?? node);
  };

  const unsupported = (node) => {
    const what = node.type === 'MethodCallExpression' ? `the function ${node.value.method}` : (UNSUPPORTED[node.type] ?? `${JSON.stringify(node.raw)}`);
    throw new QueryProblem(option, node.position, `${what} is not supported by the mock (eq ne gt ge lt le, and or not, parentheses, contains startswith endswith are).`);
  };

  const sameKind = (left, right, node) => {
    if (left.kind === 'null' || right.kind === 'null' || left.kind === 'any' || right.kind === 'any' || left.kind === right.kind) return;
    throw new QueryProblem(option, right.position, `${JSON.stringify(node.raw)} compares ${KIND_NAMES[left.kind]} with ${KIND_NAMES[right.kind]}.`);
  };

  /** (entity) => true | false | null. */
  const compile = (node) => {
    switch (node.type) {
      case 'CommonExpression':
      case 'BoolParenExpression':
      case 'ParenExpression':
        return compile(node.value);
      case 'AndExpression': {
        const [left, right] = [compile(node.value.left), compile(node.value.right)];
        return (e) => {
          const [a, b] = [left(e), right(e)];
          return a === false || b === false ? false : a === null || b === null ? null : true;
        };
      }
      case 'OrExpression': {
        const [left, right] = [compile(node.value.left), compile(node.value.right)];
        return (e) => {
          const [a, b] = [left(e), right(e)];
          return a === true || b === true ? true : a === null || b === null ? null : false;
        };
      }
      case 'NotExpression': {
        const rotated = notFirst(node);
        if (rotated !== node) return compile(rotated);
        const inner = compile(node.value);
        return (e) => {
          const a = inner(e);
          return a === null ? null : !a;
        };
      }
      case 'Literal': {
        const { kind, value } = literal(node, option, 0);
        if (kind !== 'boolean') throw new QueryProblem(option, node.position, `${node.raw} is not a condition (a boolean is).`);
        return () => value === 1;
      }
      case 'FirstMemberExpression':
      case 'MemberExpression': {
        const { kind, get } = property(node);
        if (kind !== 'boolean' && kind !== 'any') throw new QueryProblem(option, node.position, `${JSON.stringify(node.raw)} is not a condition (a boolean property is).`);
        return (e) => {
          const value = get(e);
          return value === null ? null : value === 1 || value === true;
        };
      }
      case 'MethodCallExpression': {
        const test = FUNCTIONS[node.value.method];
        if (!test || node.value.parameters.length !== 2) return unsupported(node);
        const [text, part] = node.value.parameters.map(operand);
        for (const arg of [text, part]) {
          if (!['string', 'any', 'null'].includes(arg.kind)) throw new QueryProblem(option, arg.position, `${node.value.method} takes strings; this argument is ${KIND_NAMES[arg.kind]}.`);
        }
        return (e) => {
          const [a, b] = [text.get(e), part.get(e)];
          return a === null || b === null ? null : test(String(a), String(b));
        };
      }
      default: {
        const op = COMPARISONS[node.type];
        if (!op) return unsupported(node);
        const [left, right] = [operand(node.value.left), operand(node.value.right)];
        sameKind(left, right, node);
        return (e) => compare(op, left.get(e), right.get(e));
      }
    }
  };
  return compile(tree);
}

/**
 * `not` binds tighter than `and` and `or` (OData 4.01, 5.1.1.15), but odata-v4-parser
 * reads `not a and b` as `not (a and b)`: the rest of the expression becomes its operand.
 * So a `not` over an unparenthesised and/or goes down to that chain's leftmost operand:
 * `not a and b or c` is `((not a) and b) or c`. Parenthesised groups keep their own type
 * (BoolParenExpression), so `not (a and b)` is left as written.
 */
function notFirst(not) {
  const inner = not.value;
  if (inner?.type !== 'AndExpression' && inner?.type !== 'OrExpression') return not;
  return { ...inner, value: { left: notFirst({ ...not, value: inner.value.left }), right: inner.value.right } };
}

/** OData's comparison: null equals only null; an ordering with null is false. */
function compare(op, a, b) {
  if (op === 'eq') return a === null || b === null ? a === b : a === b;
  if (op === 'ne') return a === null || b === null ? a !== b : a !== b;
  if (a === null || b === null) return false;
  if (op === 'gt') return a > b;
  if (op === 'ge') return a >= b;
  if (op === 'lt') return a < b;
  return a <= b;
}

/**
 * Quotes and parentheses paired, checked before parsing: the parser reports an unclosed
 * one at the start of the expression, this names where it opens.
 */
function balanced(text, option) {
  const open = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      // '' inside a string is a quote: skip both and keep reading the string.
      const start = i;
      let end = text.indexOf("'", i + 1);
      while (end >= 0 && text[end + 1] === "'") end = text.indexOf("'", end + 2);
      if (end < 0) throw new QueryProblem(option, start, "a string is not closed (a quote inside a string is written twice: 'O''Neil').");
      i = end;
    } else if (c === '(') open.push(i);
    else if (c === ')' && open.pop() === undefined) throw new QueryProblem(option, i, 'a ")" closes nothing.');
  }
  if (open.length) throw new QueryProblem(option, open.at(-1), 'a "(" is not closed.');
}

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

const names = (properties) => {
  const all = Object.keys(properties);
  return all.length > 30 ? `${all.slice(0, 30).join(', ')} and ${all.length - 30} more` : all.join(', ');
};

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
    if (name === undefined) throw new QueryProblem(option, offset, `${JSON.stringify(node.value.expr.raw)} is not supported by the mock (a property of the entity is).`);
    checkName(name, properties, option, offset);
    const kind = kindOf(properties[name]);
    if (kind === 'structured') throw new QueryProblem(option, offset, `the property ${JSON.stringify(name)} is structured; the mock orders by primitive properties only.`);
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
    if (path.length !== 1) throw new QueryProblem(option, offset, `${JSON.stringify(item)} is not supported by the mock (a navigation property of the entity is).`);
    const name = path[0].value.name;
    checkName(name, properties, option, offset);
    if (!isNavigation(properties[name], deref)) throw new QueryProblem(option, offset, `${JSON.stringify(name)} is not a navigation property (the schema declares it as ${KIND_NAMES[kindOf(properties[name])] ?? 'a primitive'}, not as an object or an array of objects).`);
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
      throw new QueryProblem(name, undefined, `this operation does not declare the query option ${name} (it declares ${[...declared].sort().join(', ') || 'none'}).`);
    }
    if (!QUERY_OPTIONS.includes(name)) throw new QueryProblem(name, undefined, `the mock does not implement ${name} (it implements ${QUERY_OPTIONS.join(', ')}).`);
  }
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
    if (!/^[0-9]{1,9}$/.test(token)) throw new QueryProblem(SKIP_TOKEN, 0, `${JSON.stringify(token)} is not a page of this list (take @odata.nextLink as the mock gave it).`);
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
    rows = rows.map((entry, i) => ({ entry, i })).sort((a, b) => compare(a.entry.entity, b.entry.entity) || a.i - b.i).map(({ entry }) => entry);
  }
  const matches = rows.length;
  rows = rows.slice(plan.skip, plan.top === undefined ? undefined : plan.skip + plan.top);
  return { matches, rows };
}

/**
 * One entity as the list answers it: $select's properties (plus key and eTag), related
 * entities only when expanded (an expanded one the entity does not hold is `[]` for a
 * collection, `null` for a single entity).
 */
export function project(plan, entity, navigation) {
  const out = {};
  for (const [name, value] of Object.entries(entity)) {
    if (navigation.has(name) && !plan.expand.includes(name)) continue;
    if (plan.select && !(plan.select.includes(name) || name === KEY || name === '@odata.etag' || plan.expand.includes(name))) continue;
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
