// The `$filter` of an entity set's list (OData 4.01, URL conventions 5.1.1), read into a
// function of an entity: comparisons (eq ne gt ge lt le), and/or/not, parentheses, the
// functions contains/startswith/endswith, literals of every kind the documents' schemas
// hold (strings, numbers, booleans, GUIDs, dates, date-times, null), property names
// checked against the entity's schema. The grammar is odata-v4-parser's (docs/
// dependencies.md says why that parser); what its tree means is decided here. Also what
// the other options share: the parser's entry, QueryProblem (the 400 naming the option
// and the position, 0-based in the option's value), the kinds of properties.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parserFactory } = require('odata-v4-parser/lib/parser');
const Expressions = require('odata-v4-parser/lib/expressions').default;

const MAX_FILTER_LENGTH = 2048;
const MAX_DEPTH = 32;

/** A refused option: `option` is its name; the message names the position. */
export class QueryProblem extends Error {
  constructor(option, position, message) {
    super(`${option}${position === undefined ? '' : ` at position ${position}`}: ${message}`);
    this.option = option;
  }
}

/** A rule of the parser over `text`; a syntax error becomes a QueryProblem at its position (plus `offset`). */
export const parse = (rule, text, option, offset = 0) => {
  try {
    return parserFactory(rule)(text, {});
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
export function comparable(kind, value) {
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
  if (!kind)
    throw new QueryProblem(
      option,
      node.position + offset,
      `${node.value} literals (${raw}) are not supported by the mock (strings, numbers, booleans, GUIDs, dates, date-times and null are).`,
    );
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
export const propertyName = (node) => (node?.type === 'PropertyPathExpression' && node.value?.type === 'ODataIdentifier' ? node.value.value?.name : undefined);

export const KIND_NAMES = {
  string: 'a string',
  guid: 'a GUID',
  date: 'a date',
  datetime: 'a date-time',
  number: 'a number',
  boolean: 'a boolean',
  structured: 'a structured value',
  null: 'null',
};

/**
 * Builds the evaluator of a $filter: (entity) => true | false | null (null is "unknown",
 * OData's logic for and/or/not; only true keeps an entity).
 */
export function compileFilter(text, properties) {
  const option = '$filter';
  balanced(text, option);
  const tree = parse(Expressions.boolCommonExpr, text, option);

  /** A property path: its name, checked against the schema. */
  const property = (node) => {
    let inner = node;
    while (['FirstMemberExpression', 'MemberExpression', 'CommonExpression'].includes(inner?.type)) inner = inner.value;
    const name = propertyName(inner);
    if (name === undefined) {
      throw new QueryProblem(
        option,
        node.position,
        `${JSON.stringify(node.raw)} is not supported by the mock (a property of the entity is; paths into related entities are not).`,
      );
    }
    if (!(name in properties))
      throw new QueryProblem(option, node.position, `the entity has no property ${JSON.stringify(name)} (it has ${names(properties)}).`);
    const kind = kindOf(properties[name]);
    if (kind === 'structured')
      throw new QueryProblem(option, node.position, `the property ${JSON.stringify(name)} is structured; the mock compares primitive properties only.`);
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
    throw new QueryProblem(
      option,
      node.position,
      `${what} is not supported by the mock (eq ne gt ge lt le, and or not, parentheses, contains startswith endswith are).`,
    );
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
        if (kind !== 'boolean' && kind !== 'any')
          throw new QueryProblem(option, node.position, `${JSON.stringify(node.raw)} is not a condition (a boolean property is).`);
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
          if (!['string', 'any', 'null'].includes(arg.kind))
            throw new QueryProblem(option, arg.position, `${node.value.method} takes strings; this argument is ${KIND_NAMES[arg.kind]}.`);
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
  if (op === 'eq') return a === b;
  if (op === 'ne') return a !== b;
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
  // The parser backtracks: its time grows fast with length and nesting (300 nested
  // parentheses take 0.7 s here, 3,000 take 12 s), so the mock takes what a test needs.
  if (text.length > MAX_FILTER_LENGTH) throw new QueryProblem(option, MAX_FILTER_LENGTH, `longer than the mock reads (${MAX_FILTER_LENGTH} characters).`);
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
    } else if (c === '(') {
      if (open.push(i) > MAX_DEPTH) throw new QueryProblem(option, i, `parentheses nested deeper than the mock reads (${MAX_DEPTH}).`);
    } else if (c === ')' && open.pop() === undefined) throw new QueryProblem(option, i, 'a ")" closes nothing.');
  }
  if (open.length) throw new QueryProblem(option, open.at(-1), 'a "(" is not closed.');
}

/** The property names for a message, the first 30 when there are more. */
export const names = (properties) => {
  const all = Object.keys(properties);
  return all.length > 30 ? `${all.slice(0, 30).join(', ')} and ${all.length - 30} more` : all.join(', ');
};
