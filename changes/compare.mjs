// The comparison of two resolved documents: it matches operations (by method and path,
// path parameter names ignored), their parameters (by `in` and name), request bodies,
// responses and media types, walks request and response schemas side by side, and shows
// each matched pair to the rules of its scope (rules.mjs).
import { RESOURCE_MANAGER } from '../model/family.mjs';
import { METHODS } from '../model/operations.mjs';
import { locationOf } from './load.mjs';
import { RULES } from './rules.mjs';
import { asArray, asObject, flat, isObject } from './schema.mjs';

const MAX_DEPTH = 48;
const BY_SCOPE = new Map();
for (const rule of RULES) for (const scope of rule.scope) BY_SCOPE.set(scope, [...(BY_SCOPE.get(scope) ?? []), rule]);

const paramKey = (p) => `${p.in}:${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
const paramSchema = (p) => (p.schema !== undefined ? p.schema : Object.values(asObject(p.content))[0]?.schema);

/** The operations of a document: `METHOD /path/{}` -> what the rules need about each. */
export function operations(document) {
  const ops = new Map();
  for (const [path, item] of Object.entries(asObject(document.paths))) {
    if (!isObject(item)) continue;
    const pathKey = path.replace(/\{[^}]*\}/g, '{}');
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const params = new Map();
      for (const p of [...asArray(item.parameters), ...asArray(op.parameters)]) if (isObject(p) && p.name !== undefined && p.in) params.set(paramKey(p), p);
      ops.set(`${method} ${pathKey}`, {
        method,
        path,
        pathKey,
        pathItem: item,
        op,
        label: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`,
        params,
        security: op.security !== undefined ? op.security : document.security,
        securityNode: op.security !== undefined ? op : document,
      });
    }
  }
  return ops;
}

/**
 * Every change from `before` to `after` (resolved documents, see load.mjs), as
 * { api, version, operation, rule, level, message, location } in the new document.
 * `meta`: { api, version, family, published } (published: the same version exists at the base).
 */
export function compareDocuments(before, after, meta) {
  const changes = [];
  const seen = new Set();
  const ctx = {
    ...meta,
    child: (at, name) => ({ ...at, path: [...at.path, name] }),
  };

  function run(scope, o, n, at) {
    for (const rule of BY_SCOPE.get(scope) ?? []) {
      const level = rule.levelIn ? rule.levelIn(ctx) : rule.level;
      const report = (message, node, key, operation = at.op) => {
        const location = locationOf(node, key) ?? locationOf(node) ?? locationOf(after);
        // One schema reached from several places reports a documentation change once.
        const id =
          rule.level === 'info' && rule.name !== 'operation-added' && rule.name.endsWith('-changed')
            ? `${operation}|${rule.name}|${location}|${key}`
            : `${operation}|${rule.name}|${location}|${message}`;
        if (seen.has(id)) return;
        seen.add(id);
        changes.push({ api: meta.api, version: meta.version, operation, rule: rule.name, level, message, location });
      };
      rule.check(o, n, { ...at, scope }, report, ctx);
    }
  }

  const stack = new Set();
  const ids = new WeakMap();
  let nextId = 0;
  const id = (x) => (isObject(x) ? (ids.get(x) ?? ids.set(x, ++nextId).get(x)) : 0);

  function walk(side, o, n, at) {
    const [fo, fn] = [flat(o), flat(n)];
    const key = `${side}:${id(fo)}:${id(fn)}`;
    if (stack.has(key) || at.path.length > MAX_DEPTH) return;
    stack.add(key);
    run(`${side}-schema`, fo, fn, at);
    if (isObject(fo.properties) || isObject(fn.properties) || fo.required || fn.required) run(`${side}-object`, fo, fn, at);
    const [op, np] = [asObject(fo.properties), asObject(fn.properties)];
    for (const name of Object.keys(np)) {
      if (!(name in op)) continue;
      const skip = side === 'request' ? flat(np[name]).readOnly === true : flat(np[name]).writeOnly === true;
      if (!skip) walk(side, op[name], np[name], ctx.child(at, name));
    }
    if (isObject(fo.items) && isObject(fn.items)) walk(side, fo.items, fn.items, ctx.child(at, '[]'));
    if (isObject(fo.additionalProperties) && isObject(fn.additionalProperties))
      walk(side, fo.additionalProperties, fn.additionalProperties, ctx.child(at, '{}'));
    stack.delete(key);
  }

  const [oldOps, newOps] = [operations(before), operations(after)];
  run('document', { document: before, operations: oldOps }, { document: after, operations: newOps }, { op: undefined, path: [] });

  for (const [key, n] of newOps) {
    const o = oldOps.get(key);
    if (!o) continue;
    const at = { op: n.label, path: [] };
    run('operation', o, n, at);

    for (const [pk, np] of n.params) {
      const op = o.params.get(pk);
      if (!op) continue;
      // Resource management's api-version is filled in by the client, and each document
      // accepts exactly its own version (a house lint rule): it differs between any two
      // versions by construction, which is not a change a caller sees.
      if (pk === 'query:api-version' && meta.family === RESOURCE_MANAGER) continue;
      const pat = { ...at, where: 'parameter', param: { in: np.in, name: np.name } };
      run('parameter', op, np, pat);
      walk('request', paramSchema(op), paramSchema(np), pat);
    }

    const [ob, nb] = [asObject(o.op.requestBody), asObject(n.op.requestBody)];
    for (const [media, nm] of Object.entries(asObject(nb.content))) {
      const om = asObject(ob.content)[media];
      if (!isObject(om) || !isObject(nm)) continue;
      const rat = { ...at, where: 'request', media };
      run('media', om, nm, rat);
      if (om.schema !== undefined || nm.schema !== undefined) walk('request', om.schema, nm.schema, rat);
    }

    const [ors, nrs] = [asObject(o.op.responses), asObject(n.op.responses)];
    for (const [status, nr] of Object.entries(nrs)) {
      const or = ors[status];
      if (!isObject(or) || !isObject(nr)) continue;
      const sat = { ...at, where: 'response', status };
      run('response', or, nr, sat);
      for (const [media, nm] of Object.entries(asObject(nr.content))) {
        const om = asObject(or.content)[media];
        if (!isObject(om) || !isObject(nm)) continue;
        run('media', om, nm, { ...sat, media });
        if (om.schema !== undefined || nm.schema !== undefined) walk('response', om.schema, nm.schema, { ...sat, media });
      }
    }
  }
  return changes;
}
