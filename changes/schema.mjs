// What a schema means, independent of how it is written: `allOf` merged into one schema,
// `anyOf`/`oneOf` of a schema and `{type: null}` read as "that schema or null", the 3.1
// `type: [x, "null"]` and the 3.0 `nullable: true` read as the same type set.
import { copyLocation } from './load.mjs';

export const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
export const asObject = (x) => (isObject(x) ? x : {});
export const asArray = (x) => (Array.isArray(x) ? x : []);

/** Key-order-independent JSON, to compare values (enums, defaults, examples). */
export function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

const FLAT = new WeakMap();
const isNullSchema = (s) =>
  isObject(s) && (s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') || (s.const === null && s.type === undefined));

/** `schema` with allOf merged and a null-alternative anyOf/oneOf folded into its type. */
export function flat(schema) {
  if (schema === true || schema === undefined || schema === null) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) return {};
  if (FLAT.has(schema)) return FLAT.get(schema);
  const alternatives = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : null;
  const nullWrapped = alternatives && schema[alternatives].length === 2 && schema[alternatives].some(isNullSchema) && !schema[alternatives].every(isNullSchema);
  const hasAllOf = Array.isArray(schema.allOf) && schema.allOf.length > 0;
  if (!hasAllOf && !nullWrapped) {
    FLAT.set(schema, schema);
    return schema;
  }
  const out = {};
  FLAT.set(schema, out);
  const own = { ...schema };
  delete own.allOf;
  const parts = [own];
  if (nullWrapped) {
    delete own[alternatives];
    const other = flat(schema[alternatives].find((s) => !isNullSchema(s)));
    const types = typeSet(other);
    parts.push({ ...other, ...(types ? { type: [...types, 'null'] } : {}) });
  }
  if (hasAllOf) parts.push(...schema.allOf.map(flat));
  merge(out, parts);
  copyLocation(out, schema, ...parts.slice(1));
  return out;
}

function merge(out, parts) {
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined) continue;
      if (key === 'properties' && isObject(value)) {
        const props = out.properties ?? {};
        for (const [name, schema] of Object.entries(value))
          props[name] = props[name] && props[name] !== schema ? flat({ allOf: [props[name], schema] }) : schema;
        if (!out.properties) copyLocation(props, value);
        else copyLocation(props, out.properties, value);
        out.properties = props;
      } else if (key === 'required' && Array.isArray(value)) {
        out.required = [...new Set([...(out.required ?? []), ...value])];
      } else if (key === 'type' && out.type !== undefined) {
        const both = [...(typeSet({ type: out.type }) ?? [])].filter((t) => (typeSet({ type: value }) ?? new Set([t])).has(t));
        if (both.length) out.type = both.length === 1 ? both[0] : both;
      } else if (key === 'enum' && Array.isArray(out.enum) && Array.isArray(value)) {
        const keep = new Set(value.map(stable));
        out.enum = out.enum.filter((v) => keep.has(stable(v)));
      } else if (!(key in out)) {
        out[key] = value;
      }
    }
  }
}

const JSON_TYPE = (v) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'integer'
            : 'number'
          : typeof v;

/** The JSON types a (flattened) schema allows, `null` included; undefined = any type. */
export function typeSet(schema) {
  const s = asObject(schema);
  let set;
  if (s.type !== undefined) set = new Set(asArray(s.type).length ? s.type : [s.type]);
  else if (s.const !== undefined) set = new Set([JSON_TYPE(s.const)]);
  else if (Array.isArray(s.enum) && s.enum.length) set = new Set(s.enum.map(JSON_TYPE));
  else if (s.properties || s.additionalProperties !== undefined || s.required) set = new Set(['object']);
  else if (s.items || s.prefixItems) set = new Set(['array']);
  else return undefined;
  if (s.nullable === true) set.add('null');
  if (Array.isArray(s.enum) && s.enum.includes(null)) set.add('null');
  return set;
}

/** Whether a value of JSON type `type` is allowed by the type set `set` (undefined = any). */
export const allows = (set, type) => !set || set.has(type) || (type === 'integer' && set.has('number'));

export const describeTypes = (set) => (set ? [...set].sort().join(' | ') : 'any type');

/** Enum values (a `const` counts as a one-value enum), or undefined when not restricted. */
export function enumValues(schema) {
  const s = asObject(schema);
  if (s.const !== undefined) return [s.const];
  return Array.isArray(s.enum) ? s.enum : undefined;
}
