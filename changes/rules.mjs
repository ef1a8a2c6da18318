// The rules of the change report, one function each. A rule sees one pair of things the
// comparison has matched (two documents, two operations, two parameters, two schemas at
// the same place of a request or a response, two responses, two media types) and reports
// what that change does to a client. `scope` says which pairs a rule is shown; `level`
// may depend on the comparison (see POLICY in the README's "Change report" section).
import { finalStateVia, isLongRunning as longRunning, LONG_RUNNING as LRO, LONG_RUNNING_OPTIONS as LRO_OPTIONS } from '../model/arm.mjs';
import { RESOURCE_MANAGER } from '../model/family.mjs';
import { allows, asArray, asObject, describeTypes, enumValues, flat, isObject, stable, typeSet } from './schema.mjs';

const code = (s) => `\`${s}\``;
const values = (list) => list.map((v) => JSON.stringify(v)).join(', ');
const show = (v) => (typeof v === 'string' ? JSON.stringify(v) : stable(v));
const props = (schema) => asObject(asObject(schema).properties);
const required = (schema) => new Set(asArray(asObject(schema).required));
const readOnly = (schema) => flat(schema).readOnly === true;
const writeOnly = (schema) => flat(schema).writeOnly === true;
const isSuccess = (status) => /^2(\d\d|XX)$/i.test(String(status));

/** Resource management publishes api-versions as frozen contracts; see the README. */
const armPublished = (ctx) => ctx.family === RESOURCE_MANAGER && ctx.published;

/** The place a rule talks about, as words: "response property `city` of `updateVendor` 200". */
export function subject(at) {
  const path = at.path.reduce((s, seg) => (seg === '[]' || seg === '{}' ? s + seg : s ? `${s}.${seg}` : seg), '');
  if (at.where === 'parameter') {
    const param = `${at.param.in} parameter ${code(at.param.name)} of ${code(at.op)}`;
    return path ? `property ${code(path)} of ${param}` : param;
  }
  if (at.where === 'request') return path ? `request property ${code(path)} of ${code(at.op)}` : `request body of ${code(at.op)}`;
  return path ? `response property ${code(path)} of ${code(at.op)} ${at.status}` : `response body of ${code(at.op)} ${at.status}`;
}

const mediaSubject = (at) => (at.where === 'request' ? `request body of ${code(at.op)}` : `response ${at.status} of ${code(at.op)}`);

// ---- security ---------------------------------------------------------------------------

/** Alternatives of a security requirement list: [Map(scheme -> Set(scope))]; none = [{}]. */
const alternatives = (security) =>
  (Array.isArray(security) && security.length ? security : [{}]).map((req) => new Map(Object.entries(asObject(req)).map(([k, v]) => [k, new Set(asArray(v))])));
const satisfies = (next, before) => [...next].every(([scheme, scopes]) => before.has(scheme) && [...scopes].every((s) => before.get(scheme).has(s)));
const schemesWithin = (next, before) => [...next.keys()].every((k) => before.has(k));
const describeAlternative = (alt) => (alt.size ? [...alt].map(([k, s]) => (s.size ? `${k} (${[...s].join(', ')})` : k)).join(' + ') : 'none');

/** Old alternatives that no new alternative is satisfied by: a client using one of them is refused. */
function unsatisfied(o, n) {
  const before = alternatives(o.security);
  const after = alternatives(n.security);
  return before.filter((b) => !after.some((a) => satisfies(a, b))).map((b) => ({ before: b, after }));
}

// ---- constraints ------------------------------------------------------------------------

const DOWN = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const UP = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const num = (v) => (typeof v === 'number' ? v : undefined);

function tightenings(o, n) {
  const found = [];
  for (const k of DOWN) {
    const [a, b] = [num(o[k]), num(n[k])];
    if (b !== undefined && (a === undefined || b < a)) found.push([k, a === undefined ? `${k} ${b} was added` : `${k} went down from ${a} to ${b}`]);
  }
  for (const k of UP) {
    const [a, b] = [num(o[k]), num(n[k])];
    const floor = k.startsWith('min') && !k.startsWith('minimum') ? 0 : undefined;
    if (b !== undefined && (a === undefined ? b !== floor : b > a)) found.push([k, a === undefined ? `${k} ${b} was added` : `${k} went up from ${a} to ${b}`]);
  }
  for (const k of ['pattern', 'format', 'multipleOf']) {
    if (n[k] !== undefined && stable(n[k]) !== stable(o[k]))
      found.push([k, o[k] === undefined ? `${k} ${show(n[k])} was added` : `${k} changed from ${show(o[k])} to ${show(n[k])}`]);
  }
  if (enumValues(n) && !enumValues(o)) found.push([n.const !== undefined ? 'const' : 'enum', `it is now limited to ${values(enumValues(n))}`]);
  if (n.additionalProperties === false && o.additionalProperties !== false && typeSet(n)?.has('object'))
    found.push(['additionalProperties', 'properties it does not list are no longer accepted']);
  return found;
}

// ---- examples ---------------------------------------------------------------------------

function exampleChanges(o, n, what, report) {
  if (stable(o.example) !== stable(n.example))
    report(`example of ${what} ${o.example === undefined ? 'was added' : n.example === undefined ? 'was removed' : 'changed'}`, n, 'example');
  if (Array.isArray(o.examples) || Array.isArray(n.examples)) {
    if (stable(o.examples) !== stable(n.examples)) report(`examples of ${what} changed`, n, 'examples');
    return;
  }
  const [oe, ne] = [asObject(o.examples), asObject(n.examples)];
  for (const key of new Set([...Object.keys(oe), ...Object.keys(ne)])) {
    if (stable(oe[key]) === stable(ne[key])) continue;
    const verb = !(key in oe) ? 'was added' : !(key in ne) ? 'was removed' : 'changed';
    report(`example ${code(key)} of ${what} ${verb}`, key in ne ? ne : n, key in ne ? key : 'examples');
  }
}

const normalized = (text) => (typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : text);

// ---- the rules --------------------------------------------------------------------------

export const RULES = [
  // Breaking: a client built from the old document can fail against the new one.
  {
    name: 'path-removed',
    level: 'breaking',
    scope: ['document'],
    why: 'every call to the path now gets 404',
    check(o, n, _at, report) {
      const paths = new Set([...n.operations.values()].map((op) => op.pathKey));
      for (const op of o.operations.values()) {
        if (!paths.has(op.pathKey))
          report(`path ${code(op.path)} was removed, and with it ${code(op.label)} (${op.method.toUpperCase()})`, n.document, 'paths', op.label);
      }
    },
  },
  {
    name: 'operation-removed',
    level: 'breaking',
    scope: ['document'],
    why: 'calls to it now get 404 or 405',
    check(o, n, _at, report) {
      const paths = new Map([...n.operations.values()].map((op) => [op.pathKey, op]));
      for (const [key, op] of o.operations) {
        if (!n.operations.has(key) && paths.has(op.pathKey))
          report(`operation ${code(op.label)} (${op.method.toUpperCase()} ${op.path}) was removed`, paths.get(op.pathKey).pathItem, undefined, op.label);
      }
    },
  },
  {
    name: 'success-status-removed',
    level: 'breaking',
    scope: ['operation'],
    why: 'a client that handles the documented success status gets another one',
    check(o, n, at, report) {
      const now = asObject(n.op.responses);
      for (const status of Object.keys(asObject(o.op.responses))) {
        if (isSuccess(status) && !(status in now)) report(`success status ${status} of ${code(at.op)} was removed`, n.op, 'responses');
      }
    },
  },
  {
    name: 'response-media-type-removed',
    level: 'breaking',
    scope: ['response'],
    why: 'a client that asks for that media type gets 406 or cannot parse the answer',
    check(o, n, at, report) {
      const now = asObject(n.content);
      for (const media of Object.keys(asObject(o.content))) {
        if (!(media in now)) report(`response media type ${media} of ${code(at.op)} ${at.status} was removed`, n, 'content');
      }
    },
  },
  {
    name: 'request-media-type-removed',
    level: 'breaking',
    scope: ['operation'],
    why: 'a client that sends that media type gets 415',
    check(o, n, at, report) {
      if (!isObject(o.op.requestBody) || !isObject(n.op.requestBody)) return;
      const now = asObject(n.op.requestBody.content);
      for (const media of Object.keys(asObject(o.op.requestBody.content))) {
        if (!(media in now)) report(`request body of ${code(at.op)} no longer accepts ${media}`, n.op.requestBody, 'content');
      }
    },
  },
  {
    name: 'new-required-parameter',
    level: 'breaking',
    scope: ['operation'],
    why: 'existing calls do not send it',
    check(o, n, at, report) {
      for (const [key, p] of n.params) {
        if (!o.params.has(key) && (p.required === true || p.in === 'path'))
          report(`${p.in} parameter ${code(p.name)} of ${code(at.op)} is new and required`, p, 'name');
      }
    },
  },
  {
    name: 'parameter-became-required',
    level: 'breaking',
    scope: ['parameter'],
    why: 'calls that left it out are now refused',
    check(o, n, at, report) {
      if (n.required === true && o.required !== true && o.in !== 'path') report(`${subject(at)} became required`, n, 'required');
    },
  },
  {
    name: 'request-body-became-required',
    level: 'breaking',
    scope: ['operation'],
    why: 'calls without a body are now refused',
    check(o, n, at, report) {
      const [ob, nb] = [o.op.requestBody, n.op.requestBody];
      if (isObject(nb) && nb.required === true && !(isObject(ob) && ob.required === true)) {
        report(isObject(ob) ? `request body of ${code(at.op)} became required` : `${code(at.op)} now requires a request body`, nb, 'required');
      }
    },
  },
  {
    name: 'new-required-request-property',
    level: 'breaking',
    scope: ['request-object'],
    why: 'existing requests do not send it',
    check(o, n, at, report, ctx) {
      const [op, np, req] = [props(o), props(n), required(n)];
      for (const name of Object.keys(np)) {
        if (!(name in op) && req.has(name) && !readOnly(np[name])) report(`${subject(ctx.child(at, name))} is new and required`, np, name);
      }
    },
  },
  {
    name: 'request-property-became-required',
    level: 'breaking',
    scope: ['request-object'],
    why: 'requests that left it out are now refused',
    check(o, n, at, report, ctx) {
      const [op, np, before, now] = [props(o), props(n), required(o), required(n)];
      for (const name of now) {
        if (name in op && !before.has(name) && !readOnly(np[name] ?? op[name])) report(`${subject(ctx.child(at, name))} became required`, n, 'required');
      }
    },
  },
  {
    name: 'request-type-changed',
    level: 'breaking',
    scope: ['request-schema'],
    why: 'values of the old type are refused (widening, e.g. integer to number, is not reported)',
    check(o, n, at, report) {
      const [before, after] = [typeSet(o), typeSet(n)];
      const lost = before ? [...before].filter((t) => !allows(after, t)) : after ? ['any'] : [];
      if (!lost.length) return;
      if (lost.length === 1 && lost[0] === 'null') report(`${subject(at)} no longer accepts null`, n, 'type');
      else report(`${subject(at)} changed type from ${describeTypes(before)} to ${describeTypes(after)}`, n, 'type');
    },
  },
  {
    name: 'request-enum-value-removed',
    level: 'breaking',
    scope: ['request-schema'],
    why: 'requests sending that value are refused',
    check(o, n, at, report) {
      const [before, after] = [enumValues(o), enumValues(n)];
      if (!before || !after) return;
      const keep = new Set(after.map(stable));
      const gone = before.filter((v) => !keep.has(stable(v)));
      if (gone.length) report(`${subject(at)} no longer accepts ${values(gone)}`, n, n.const !== undefined ? 'const' : 'enum');
    },
  },
  {
    name: 'request-constraint-tightened',
    level: 'breaking',
    scope: ['request-schema'],
    why: 'values that were valid are refused',
    check(o, n, at, report) {
      for (const [key, what] of tightenings(o, n)) report(`${subject(at)}: ${what}`, n, key);
    },
  },
  {
    name: 'parameter-default-changed',
    level: 'breaking',
    scope: ['parameter'],
    why: 'calls that leave the parameter out silently get other behaviour',
    check(o, n, at, report) {
      const [a, b] = [flat(o.schema).default, flat(n.schema).default];
      if (a === undefined || stable(a) === stable(b)) return;
      report(
        b === undefined ? `${subject(at)} no longer has a default (was ${show(a)})` : `default of ${subject(at)} changed from ${show(a)} to ${show(b)}`,
        isObject(n.schema) ? n.schema : n,
        'default',
      );
    },
  },
  {
    name: 'response-property-removed',
    level: 'breaking',
    scope: ['response-object'],
    why: 'code reading it gets undefined',
    check(o, n, at, report, ctx) {
      const np = props(n);
      for (const [name, schema] of Object.entries(props(o))) {
        if (!(name in np) && !writeOnly(schema)) report(`${subject(ctx.child(at, name))} was removed`, n, 'properties');
      }
    },
  },
  {
    name: 'response-property-type-changed',
    level: 'breaking',
    scope: ['response-schema'],
    why: 'code written for the old type gets a value of another (narrowing, e.g. number to integer, is not reported)',
    check(o, n, at, report) {
      const [before, after] = [typeSet(o), typeSet(n)];
      const gained = after ? [...after].filter((t) => t !== 'null' && !allows(before, t)) : before ? ['any'] : [];
      if (gained.length) report(`${subject(at)} changed type from ${describeTypes(before)} to ${describeTypes(after)}`, n, 'type');
    },
  },
  {
    name: 'response-property-became-nullable',
    level: 'breaking',
    scope: ['response-schema'],
    why: 'code that did not expect null gets it',
    check(o, n, at, report) {
      const [before, after] = [typeSet(o), typeSet(n)];
      if (before && !before.has('null') && after?.has('null')) report(`${subject(at)} became nullable`, n, 'type');
    },
  },
  {
    name: 'response-property-became-optional',
    level: 'breaking',
    scope: ['response-object'],
    why: 'code that relied on its presence gets undefined',
    check(o, n, at, report, ctx) {
      const [np, now] = [props(n), required(n)];
      for (const name of required(o)) {
        if (name in np && !now.has(name) && !writeOnly(np[name])) report(`${subject(ctx.child(at, name))} is no longer required`, np, name);
      }
    },
  },
  {
    name: 'security-requirement-added',
    level: 'breaking',
    scope: ['operation'],
    why: 'calls without the new credentials are refused',
    check(o, n, at, report) {
      for (const { before, after } of unsatisfied(o, n)) {
        if (after.some((a) => schemesWithin(a, before))) continue; // same schemes, more scopes: security-scope-added
        report(
          `${code(at.op)} now requires ${after.map(describeAlternative).join(' or ')} (before: ${describeAlternative(before)})`,
          n.securityNode,
          'security',
        );
      }
    },
  },
  {
    name: 'security-scope-added',
    level: 'breaking',
    scope: ['operation'],
    why: 'tokens issued for the old scopes are refused',
    check(o, n, at, report) {
      for (const { before, after } of unsatisfied(o, n)) {
        const next = after.find((a) => schemesWithin(a, before));
        if (!next) continue;
        const extra = [...next].flatMap(([scheme, scopes]) => [...scopes].filter((s) => !before.get(scheme)?.has(s)).map((s) => `${s} (${scheme})`));
        report(`${code(at.op)} now needs the scope${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`, n.securityNode, 'security');
      }
    },
  },

  // Long-running operations, marked the ARM way (`x-ms-long-running-operation`). An SDK
  // user meets the marking as the call's shape: a long-running call's first answer is 201
  // or 202 with a status monitor (Azure-AsyncOperation / Location), and the client polls
  // (begin…AndWait, pollUntilDone) until the result can be read where final-state-via says.
  {
    name: 'operation-became-long-running',
    level: 'breaking',
    scope: ['operation'],
    why: 'its first answer becomes 201/202 with a status monitor instead of the result (200/201): a client that reads the result from the first answer gets none, and must now poll',
    check(o, n, at, report) {
      if (!longRunning(o.op) && longRunning(n.op))
        report(
          `${code(at.op)} became long-running (x-ms-long-running-operation): its first answer is now 201 or 202 with a status to poll, and the result is read once it ends`,
          n.op,
          LRO,
        );
    },
  },
  {
    name: 'operation-no-longer-long-running',
    level: 'breaking',
    scope: ['operation'],
    why: 'a client that polls gets the result in the first answer and no status monitor to follow; the wait convenience of regenerated clients (begin…AndWait) is gone',
    check(o, n, at, report) {
      if (longRunning(o.op) && !longRunning(n.op))
        report(
          `${code(at.op)} is no longer long-running: it answers with the result at once, and code that waits for it (begin…AndWait, pollUntilDone) has no status to poll`,
          n.op,
          n.op[LRO] !== undefined ? LRO : undefined,
        );
    },
  },
  {
    name: 'final-state-via-changed',
    level: 'breaking',
    scope: ['operation'],
    why: 'the poller reads the final result from another place (the status monitor, the Location URL or the resource itself), so the result the wait hands back changes',
    check(o, n, at, report) {
      if (!longRunning(o.op) || !longRunning(n.op)) return;
      const [before, after] = [finalStateVia(o.method, o.op), finalStateVia(n.method, n.op)];
      if (before.value === after.value) return;
      const shown = (s) => `${s.value}${s.explicit ? '' : ` (the ${s.method.toUpperCase()} default)`}`;
      report(
        `final-state-via of ${code(at.op)} changed from ${shown(before)} to ${shown(after)}: the result of the wait is read from another place`,
        asObject(n.op[LRO_OPTIONS]),
        'final-state-via',
      );
    },
  },

  // Warnings: breaks some clients, or breaks in place under the resource-management policy.
  {
    name: 'response-enum-value-added',
    level: 'warning',
    levelIn: (ctx) => (armPublished(ctx) ? 'breaking' : 'warning'),
    scope: ['response-schema'],
    why: 'a client with an exhaustive switch meets a value it does not know; breaking inside a published resource-management api-version',
    check(o, n, at, report) {
      const [before, after] = [enumValues(o), enumValues(n)];
      if (!before || !after) return;
      const known = new Set(before.map(stable));
      const added = after.filter((v) => !known.has(stable(v)));
      if (added.length) report(`${subject(at)} can now be ${values(added)}`, n, n.const !== undefined ? 'const' : 'enum');
    },
  },
  {
    name: 'response-property-added',
    level: 'info',
    levelIn: (ctx) => (armPublished(ctx) ? 'warning' : 'info'),
    scope: ['response-object'],
    why: 'harmless to these clients (extra JSON properties are ignored); a warning inside a published resource-management api-version, where the ARM rules call it breaking',
    check(o, n, at, report, ctx) {
      const op = props(o);
      for (const [name, schema] of Object.entries(props(n))) {
        if (!(name in op) && !writeOnly(schema)) report(`${subject(ctx.child(at, name))} was added`, n.properties, name);
      }
    },
  },
  {
    name: 'request-property-removed',
    level: 'warning',
    scope: ['request-object'],
    why: 'code that sends it no longer type-checks after regenerating, and the service may ignore or refuse it',
    check(o, n, at, report, ctx) {
      const np = props(n);
      for (const [name, schema] of Object.entries(props(o))) {
        if (!(name in np) && !readOnly(schema)) report(`${subject(ctx.child(at, name))} was removed`, n, 'properties');
      }
    },
  },
  {
    name: 'parameter-removed',
    level: 'warning',
    scope: ['operation'],
    why: 'code that sends it no longer type-checks after regenerating, and the service may ignore or refuse it',
    check(o, n, at, report) {
      for (const [key, p] of o.params) {
        if (!n.params.has(key)) report(`${p.in} parameter ${code(p.name)} of ${code(at.op)} was removed`, n.op, 'parameters');
      }
    },
  },

  // Info: nothing breaks.
  {
    name: 'operation-added',
    level: 'info',
    scope: ['document'],
    why: 'new calls become possible',
    check(o, n, _at, report) {
      for (const [key, op] of n.operations) {
        if (!o.operations.has(key)) report(`operation ${code(op.label)} (${op.method.toUpperCase()} ${op.path}) was added`, op.op, undefined, op.label);
      }
    },
  },
  {
    name: 'optional-parameter-added',
    level: 'info',
    scope: ['operation'],
    why: 'existing calls stay valid',
    check(o, n, at, report) {
      for (const [key, p] of n.params) {
        if (!o.params.has(key) && p.required !== true && p.in !== 'path')
          report(`optional ${p.in} parameter ${code(p.name)} of ${code(at.op)} was added`, p, 'name');
      }
    },
  },
  {
    name: 'optional-request-property-added',
    level: 'info',
    scope: ['request-object'],
    why: 'existing requests stay valid',
    check(o, n, at, report, ctx) {
      const [op, req] = [props(o), required(n)];
      for (const [name, schema] of Object.entries(props(n))) {
        if (!(name in op) && !req.has(name) && !readOnly(schema)) report(`optional ${subject(ctx.child(at, name))} was added`, n.properties, name);
      }
    },
  },
  {
    name: 'summary-changed',
    level: 'info',
    scope: ['operation'],
    why: 'documentation only',
    check(o, n, at, report) {
      if (normalized(o.op.summary) !== normalized(n.op.summary)) report(`summary of ${code(at.op)} changed`, n.op, 'summary');
    },
  },
  {
    name: 'description-changed',
    level: 'info',
    scope: ['operation', 'parameter', 'request-schema', 'response-schema', 'response'],
    why: 'documentation only',
    check(o, n, at, report) {
      const [a, b] = at.scope === 'operation' ? [o.op, n.op] : [o, n];
      if (normalized(a.description) === normalized(b.description)) return;
      const what = at.scope === 'operation' ? code(at.op) : at.scope === 'response' ? `response ${at.status} of ${code(at.op)}` : subject(at);
      report(`description of ${what} changed`, b, 'description');
    },
  },
  {
    name: 'example-changed',
    level: 'info',
    scope: ['parameter', 'media', 'request-schema', 'response-schema'],
    why: 'documentation and mock answers only',
    check(o, n, at, report) {
      exampleChanges(o, n, at.scope === 'media' ? mediaSubject(at) : subject(at), report);
    },
  },
];

export const RULE_NAMES = new Set(RULES.map((r) => r.name));
export const LEVELS = ['breaking', 'warning', 'info'];
