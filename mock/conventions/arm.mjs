// The resource-management convention (ARM's resource lifecycle), for any document of
// that family. A resource type has a lifecycle here when its document declares a PUT on
// its instance path (…/providers/{Namespace}/{type}/{name}, at any ARM scope: a
// subscription, a resource group, a resource, a management group, or a `{scope}`
// parameter that takes any of them; model/arm-ids.mjs); that document's operations on
// the type's paths are then answered from one store, keyed by id (which carries the
// scope). A path whose scope is no ARM scope: 400 `MissingSubscription`, naming it.
//
//   PUT    …/{type}/{name}   create 201 / replace 200 (the statuses declared): the body
//                           sent, read-only values dropped at any depth
//                           (model/read-only.mjs), `id`, `name`, `type` from the
//                           path, `systemData` and `properties.provisioningState` set by
//                           the server. Long-running (x-ms-long-running-operation):
//                           long-running.mjs.
//   GET    …/{type}/{name}   200, or 404 CloudError `ResourceNotFound`
//   PATCH  …/{type}/{name}   JSON merge patch of the writable fields (tags, properties)
//   DELETE …/{type}/{name}   200 or 204 as declared (202 when long-running); 204 when it
//                           is already absent and the document declares 204, else 404
//   GET    …/{type}          a nextLink page (the paging convention's names) of what the
//                           store holds at the path's scope and below it, or the
//                           children of one parent, as the path says; `$filter` (where
//                           declared): `atScope()` at the scope only, `<field> eq '<v>'`
//   POST   …/{type}/{name}/{action}
//                           an action on a stored resource (restart, failover,
//                           regenerateKey: any POST one segment below the instance path
//                           that is not itself a type with a lifecycle). 404
//                           `ResourceNotFound` when the resource is not stored, 409 while
//                           one of its long-running operations runs; else its documented
//                           answer. Long-running (x-ms-long-running-operation, with a 202
//                           declared): 202 with the declared polling headers, and once the
//                           operation succeeds its result: 200 with the documented 200
//                           example, or 204 when the action declares no 200. The resource's
//                           provisioningState is left as it is (an action is not a write
//                           of the resource).
//
// A child type (…/{type}/{name}/{childType}/{childName}) whose parent type has a
// lifecycle answers 404 `ParentResourceNotFound` while the parent does not exist.
// A write to a resource whose long-running operation is still running: 409
// `AnotherOperationInProgress`. Types whose documents declare no PUT (the role
// eligibility GET, the cached-images list) keep the other conventions.
import { answer, armScopeError, errorAnswer } from '../errors.mjs';
import { deref } from '../../model/operations.mjs';
import { inCollection, parseResourcePath, scopeProblem, templateShape, typeName } from '../../model/arm-ids.mjs';
import { longRunningOf, pollingHeadersOf } from '../../model/arm.mjs';
import { RESOURCE_MANAGER } from '../../model/family.mjs';
import { withoutReadOnly } from '../../model/read-only.mjs';
import { pollEntry, removeResource, setProvisioningState, startOperation, stateValue } from './long-running.mjs';
import { PAGE_SIZE, pageOf, pagingShape } from './paging.mjs';
import {
  documentedAnswer,
  jsonMedia,
  parameterExample,
  parametersOf,
  pathInDocument,
  propertiesOf,
  successExamples,
  successSchema,
  successStatuses,
  statusFor,
} from './shapes.mjs';

const FAMILY = RESOURCE_MANAGER;
const KINDS = { instance: { get: 'read', put: 'put', patch: 'patch', delete: 'delete' }, collection: { get: 'list' }, action: { post: 'action' } };
/** What routes[].convention says of the operations this convention answers. */
export const ARM_CONVENTIONS = [...new Set(Object.values(KINDS).flatMap(Object.values))].map((kind) => `arm-${kind}`);
/** Set by the server whatever the body says (ARM's read-only envelope). */
const SERVER_FIELDS = ['id', 'name', 'type', 'systemData'];
export const MOCK_IDENTITY = 'provider-api-clients-mock';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const lower = (text) => String(text).toLowerCase();

/** The types with a lifecycle in one document: lower-case type -> the PUT's { path, operation }. */
function lifecycleTypes(doc) {
  const types = new Map();
  for (const op of doc.operations) {
    if (op.method !== 'put') continue;
    const shape = templateShape(op.docPath);
    if (shape?.kind === 'instance' && !types.has(lower(shape.type))) types.set(lower(shape.type), { op, operation: doc.document.paths[op.docPath].put });
  }
  return types;
}

/**
 * { kind, shape, paging?, target? } for an operation this convention covers, else
 * undefined. An action (kind 'action') is a POST on …/{type}/{name}/{segment} where
 * {type} has a lifecycle and {type}/{segment} has none; `target` is {type}'s name.
 */
export function armShape(doc, op, lifecycle = lifecycleTypes(doc)) {
  if (doc.family !== FAMILY) return undefined;
  const shape = templateShape(op.docPath);
  if (!shape) return undefined;
  if (op.method === 'post' && shape.kind === 'collection' && shape.types.length >= 2 && !lifecycle.has(lower(shape.type))) {
    const target = typeName(shape.namespace, shape.types.slice(0, -1));
    return lifecycle.has(lower(target)) ? { kind: 'action', shape, target } : undefined;
  }
  if (!lifecycle.has(lower(shape.type))) return undefined;
  const kind = KINDS[shape.kind][op.method];
  if (!kind) return undefined;
  if (kind !== 'list') return { kind, shape };
  const operation = doc.document.paths[op.docPath][op.method];
  const paging = pagingShape(doc, { method: op.method, operation });
  return paging ? { kind, shape, paging } : undefined;
}

/** What a type's schema says the server sets: read-only fields, provisioningState, systemData. */
function typeInfo(document, put) {
  const requestSchema = deref(document, deref(document, put.requestBody)?.content?.['application/json']?.schema);
  const top = { ...propertiesOf(document, requestSchema), ...propertiesOf(document, successSchema(document, put)) };
  const inner = propertiesOf(document, top.properties);
  const readOnly = (properties) =>
    new Set(
      Object.entries(properties)
        .filter(([, p]) => p?.readOnly === true)
        .map(([name]) => name),
    );
  const stateOf = (p) => (p ? { enum: Array.isArray(deref(document, p)?.enum) ? [...deref(document, p).enum] : undefined } : undefined);
  const stateField = inner.provisioningState
    ? { where: 'properties', ...stateOf(inner.provisioningState) }
    : top.provisioningState
      ? { where: 'top', ...stateOf(top.provisioningState) }
      : undefined;
  return {
    requestSchema,
    readOnlyTop: new Set([...SERVER_FIELDS, ...readOnly(top), ...(stateField?.where === 'top' ? ['provisioningState'] : [])]),
    readOnlyInner: new Set([...readOnly(inner), ...(stateField?.where === 'properties' ? ['provisioningState'] : [])]),
    stateField,
    systemData: 'systemData' in top,
  };
}

/**
 * Attaches the handlers; returns what seeding and the state need: { types, resources }
 * (types: lower-case type -> its info; resources: the documented resources, the store's
 * start). `covered` is [{ doc, op }] of every operation armShape() covers.
 */
export function armCatalogue(documents) {
  const types = new Map();
  const covered = [];
  for (const doc of documents) {
    if (doc.family !== FAMILY) continue;
    const lifecycle = lifecycleTypes(doc);
    for (const [type, { op: put, operation }] of lifecycle)
      if (!types.has(type)) types.set(type, { name: templateShape(put.docPath)?.type, ...typeInfo(doc.document, operation) });
    for (const op of doc.operations) {
      const found = armShape(doc, op, lifecycle);
      if (found) covered.push({ doc, op, ...found });
    }
  }
  // The store starts from the documented resources: the examples of reads and lists first
  // (a resource at rest), then those of writes (which may show it mid-operation), each id once.
  const resources = new Map();
  const rank = { read: 0, list: 1, put: 2, patch: 3 };
  for (const { doc, op, kind, shape, paging } of [...covered].filter((c) => c.kind in rank).sort((a, b) => rank[a.kind] - rank[b.kind])) {
    const itemName = paging?.itemName ?? '';
    for (const value of successExamples(doc.document, doc.document.paths[op.docPath][op.method])) {
      for (const resource of kind === 'list' ? (Array.isArray(value?.[itemName]) ? value[itemName] : []) : [value]) {
        const entry = isObject(resource) && typeof resource.id === 'string' ? entryOf(types, resource) : undefined;
        if (entry && lower(entry.type) === lower(shape.type) && !resources.has(entry.key)) resources.set(entry.key, entry);
      }
    }
  }
  // A read's documented answer is also at the address its documented request names (the
  // path filled with the parameters' examples: what the docs' samples and "Try it" send),
  // so the documented request finds the documented resource, as a business-data key does.
  for (const { doc, op, shape } of covered.filter((c) => c.kind === 'read')) {
    const operation = doc.document.paths[op.docPath][op.method];
    const [example] = successExamples(doc.document, operation);
    const parameters = parametersOf(doc.document, doc.document.paths[op.docPath], operation);
    const path = op.docPath.replace(/\{([^}]+)\}/g, (whole, name) => {
      const value = parameterExample(
        doc.document,
        parameters.find((p) => p.in === 'path' && p.name === name),
      );
      return value === undefined ? whole : doc.multiSegment?.has(name) ? String(value) : encodeURIComponent(String(value));
    });
    const parsed = isObject(example) && !path.includes('{') ? parseResourcePath(path) : undefined;
    if (parsed?.kind !== 'instance' || lower(parsed.type) !== lower(shape.type) || resources.has(parsed.key)) continue;
    const entry = entryOf(types, { ...example, id: parsed.id });
    if (entry) resources.set(entry.key, entry);
  }
  return { types, covered, resources: [...resources.values()] };
}

/** A stored entry for a resource that carries its id, or undefined when the id names no lifecycle type. */
function entryOf(types, resource) {
  const parsed = parseResourcePath(resource.id);
  const info = parsed?.kind === 'instance' ? types.get(lower(parsed.type)) : undefined;
  if (!parsed || !info) return undefined;
  return {
    key: parsed.key,
    id: parsed.id,
    type: info.name,
    resource: { ...structuredClone(resource), id: parsed.id, name: parsed.name, type: info.name },
    stateField: info.stateField,
  };
}

/** The handler of one covered operation: { convention, respond }. */
export function armHandler({ doc, op, kind, shape, paging, target }, catalogue) {
  const document = doc.document;
  const operation = document.paths[op.docPath][op.method];
  const info = catalogue.types.get(lower(target ?? shape.type));
  const lro = longRunningOf(operation);
  const declaresFilter = parametersOf(document, document.paths[op.docPath], operation).some((p) => p.in === 'query' && p.name === '$filter');

  const pathOf = (ctx) => pathInDocument(doc, ctx.rawPath);
  /** The resource the request names (the operation's template matched, so always one). */
  const where = (ctx) => parseResourcePath(pathOf(ctx));
  const notFound = (parsed) =>
    errorAnswer(
      404,
      'ResourceNotFound',
      `The resource '${parsed.type}/${parsed.names.join('/')}' under ${parsed.resourceGroup === undefined ? `scope '${parsed.scope || '/'}'` : `resource group '${parsed.resourceGroup}'`} was not found (${parsed.id}).`,
    );
  /** A path whose scope is no ARM scope (the request path refuses it first: its `scope` step). */
  const badScope = (path) => armScopeError(scopeProblem(path) ?? path);
  /** The request body's schema: the operation's own (a PATCH's update schema), else its type's PUT's. */
  const bodySchema = jsonMedia(document, operation.requestBody)?.schema ?? info.requestSchema;
  /** 404 ParentResourceNotFound when the parent type has a lifecycle and the parent is not stored. */
  const parentMissing = (ctx, parsed) => {
    if (!parsed.parentKey || !catalogue.types.has(lower(parsed.parentType))) return undefined;
    if (ctx.state.resourceStore().has(parsed.parentKey)) return undefined;
    const parentNames = parsed.names.slice(0, parsed.types.length - 1);
    return errorAnswer(
      404,
      'ParentResourceNotFound',
      `Can not perform requested operation on nested resource. Parent resource '${parentNames.join('/')}' (${parsed.parentType}) not found.`,
    );
  };
  const busy = (entry, ctx) => {
    const running = entry?.operation && ctx.state.operations.get(entry.operation);
    return running?.status === 'InProgress'
      ? errorAnswer(
          409,
          'AnotherOperationInProgress',
          `The resource ${entry.id} has a long-running operation in progress (${running.method}, ${running.id}); retry when it has ended.`,
        )
      : undefined;
  };
  /**
   * The stored resource `parsed` names, free for a change (a PATCH, an action): `{ entry }`,
   * or `{ refused }` with the answer: its parent missing, itself not stored, or one of its
   * long-running operations running.
   */
  const freeEntry = (ctx, parsed) => {
    const problem = parentMissing(ctx, parsed);
    if (problem) return { refused: problem };
    const entry = ctx.state.resourceStore().get(parsed.key);
    if (!entry) return { refused: notFound(parsed) };
    const conflict = busy(entry, ctx);
    return conflict ? { refused: conflict } : { entry };
  };
  /** The writable part of a body: server-set and read-only fields dropped, also inside `properties`. */
  const writable = (body) => {
    const sent = /** @type {Record<string, any>} */ (withoutReadOnly(isObject(body) ? body : {}, bodySchema, (node) => deref(document, node)));
    const out = Object.fromEntries(Object.entries(sent).filter(([field]) => !info.readOnlyTop.has(field)));
    if (isObject(out.properties)) out.properties = Object.fromEntries(Object.entries(out.properties).filter(([field]) => !info.readOnlyInner.has(field)));
    return structuredClone(out);
  };
  /** Read-only values the server keeps across a replace (what it computed, not what was sent). */
  const kept = (previous) => {
    const top = Object.fromEntries(Object.entries(previous ?? {}).filter(([field]) => info.readOnlyTop.has(field) && !['id', 'name', 'type'].includes(field)));
    const inner = Object.fromEntries(
      Object.entries(isObject(previous?.properties) ? previous.properties : {}).filter(([field]) => info.readOnlyInner.has(field)),
    );
    return { top, inner };
  };
  const stamp = (resource, previous) => {
    if (!info.systemData) return;
    const now = new Date().toISOString();
    const created = isObject(previous?.systemData) ? previous.systemData : { createdBy: MOCK_IDENTITY, createdByType: 'Application', createdAt: now };
    resource.systemData = { ...created, lastModifiedBy: MOCK_IDENTITY, lastModifiedByType: 'Application', lastModifiedAt: now };
  };
  const request = (ctx) => ({ method: op.method.toUpperCase(), path: ctx.rawPath, operationId: op.iid, api: doc.api.name, version: String(doc.version) });

  const documented = (status) => documentedAnswer(document, operation, status);

  /** The answer of a write: long-running (headers, non-terminal state) or done. */
  function written(ctx, entry, phase, status, parsed) {
    if (!lro) {
      setProvisioningState(entry, stateValue(entry.stateField, 'Succeeded'));
      return answer(status, structuredClone(entry.resource));
    }
    const headers = startOperation(ctx, {
      entry,
      phase,
      namespace: parsed.namespace,
      subscription: parsed.subscription,
      headers: pollingHeadersOf(deref(document, operation.responses?.[String(status)])),
      request: request(ctx),
    });
    return status === 202 ? { status, headers, body: undefined } : answer(status, structuredClone(entry.resource), headers);
  }

  /** By kind: the answer about the resource `parsed` (the path's), its parent present (but for an action's). */
  const answers = {
    put(ctx, parsed) {
      const store = ctx.state.resourceStore();
      const previous = store.get(parsed.key);
      const conflict = busy(previous, ctx);
      if (conflict) return conflict;
      const body = writable(ctx.body);
      const keep = kept(previous?.resource);
      /** @type {Record<string, any>} */
      const resource = { id: previous?.id ?? parsed.id, name: previous?.resource.name ?? parsed.name, type: info.name, ...body, ...keep.top };
      if (Object.keys(keep.inner).length || isObject(body.properties)) resource.properties = { ...(body.properties ?? {}), ...keep.inner };
      stamp(resource, previous?.resource);
      const entry = { key: parsed.key, id: resource.id, type: info.name, resource, stateField: info.stateField };
      store.set(parsed.key, entry);
      return written(ctx, entry, previous ? 'replace' : 'create', statusFor(operation, previous ? 200 : 201), parsed);
    },
    read(ctx, parsed) {
      const store = ctx.state.resourceStore();
      pollEntry(ctx.state, store.get(parsed.key));
      const entry = store.get(parsed.key);
      return entry ? answer(statusFor(operation, 200), structuredClone(entry.resource)) : notFound(parsed);
    },
    patch(ctx, parsed) {
      const { entry, refused } = freeEntry(ctx, parsed);
      if (refused) return refused;
      entry.resource = mergePatch(entry.resource, writable(ctx.body));
      stamp(entry.resource, entry.resource);
      return written(ctx, entry, 'update', statusFor(operation, 200), parsed);
    },
    delete(ctx, parsed) {
      const store = ctx.state.resourceStore();
      const entry = store.get(parsed.key);
      const declared = successStatuses(operation);
      if (!entry) return declared.includes(204) ? { status: 204, headers: {}, body: undefined } : notFound(parsed);
      const conflict = busy(entry, ctx);
      if (conflict) return conflict;
      if (lro && declared.includes(202)) return written(ctx, entry, 'delete', 202, parsed);
      removeResource(store, parsed.key);
      // No body, so no content type either (ARM's DELETE 200 and 204 carry none).
      return { status: statusFor(operation, 200), headers: {}, body: undefined };
    },
    action(ctx) {
      // The resource acted on: the path without its last segment.
      const path = pathOf(ctx);
      const parsed = parseResourcePath(path.slice(0, path.lastIndexOf('/')));
      if (!parsed && scopeProblem(path)) return badScope(path);
      if (parsed?.kind !== 'instance') return errorAnswer(404, 'ResourceNotFound', `No resource is named by ${JSON.stringify(path.slice(0, 200))}.`);
      const { entry, refused } = freeEntry(ctx, parsed);
      if (refused) return refused;
      const declared = successStatuses(operation);
      if (!lro || !declared.includes(202)) return documented(statusFor(operation, 200));
      const result = declared.includes(200) ? documented(200) : { status: 204, headers: {}, body: undefined };
      const headers = startOperation(ctx, {
        entry,
        phase: 'action',
        result,
        namespace: parsed.namespace,
        subscription: parsed.subscription,
        headers: pollingHeadersOf(deref(document, operation.responses?.['202'])),
        request: request(ctx),
      });
      return { status: 202, headers, body: undefined };
    },
    list(ctx, parsed) {
      // `$filter` (where the list declares it): atScope() and `<field> eq '<value>'` terms.
      const asked = declaresFilter ? ctx.query.$filter : undefined;
      const filter = asked === undefined ? { atScope: false, equals: [] } : listFilter(asked);
      if (!filter)
        return errorAnswer(
          400,
          'InvalidFilter',
          `$filter ${JSON.stringify(String(asked).slice(0, 200))} is not one the mock reads on an ARM list: atScope() and <field> eq '<value>' terms joined by and.`,
          { target: '$filter' },
        );
      const matches = (resource) => filter.equals.every(([field, value]) => lower(resource.properties?.[field] ?? resource[field]) === lower(value));
      const items = [...ctx.state.resourceStore().values()]
        .filter((entry) => inCollection(parseResourcePath(entry.id), parsed, filter) && matches(entry.resource))
        .map((entry) => entry.resource);
      const { body, refused } = pageOf(items, ctx.state.resourcePageSize ?? PAGE_SIZE, paging, ctx, doc.version);
      return refused ?? answer(statusFor(operation, 200), body);
    },
  };
  /** @param {any} ctx */
  const respond = (ctx) => {
    if (kind === 'action') return answers.action(ctx);
    const parsed = where(ctx);
    if (!parsed) return badScope(pathOf(ctx));
    return parentMissing(ctx, parsed) ?? answers[kind](ctx, parsed);
  };
  return { convention: `arm-${kind}`, type: info.name, respond };
}

/**
 * An ARM list's `$filter` as role-assignment and lock lists take it: `atScope()` (at the
 * path's scope only, not below it) and `<field> eq '<value>'` (a field of `properties`, or
 * of the resource; without case), joined by `and`. Undefined for anything else.
 * @param {unknown} text
 * @returns {{ atScope: boolean, equals: [string, string][] } | undefined}
 */
function listFilter(text) {
  /** @type {{ atScope: boolean, equals: [string, string][] }} */
  const out = { atScope: false, equals: [] };
  for (const term of String(text).split(/\s+and\s+/i)) {
    const equal = /^\s*(\w+)\s+eq\s+'((?:[^']|'')*)'\s*$/.exec(term);
    if (/^\s*atScope\(\)\s*$/.test(term)) out.atScope = true;
    else if (equal) out.equals.push([String(equal[1]), String(equal[2]).replaceAll("''", "'")]);
    else return undefined;
  }
  return out;
}

/** JSON merge patch (RFC 7396): objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target, patch) {
  if (!isObject(patch)) return structuredClone(patch);
  const out = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Resources a test puts in place (seed): each with its `id`, which names a type with a lifecycle. */
export function seedResources(state, catalogue, resources) {
  if (!Array.isArray(resources)) throw new Error('seed: "resources" must be an array of ARM resources, each with its "id".');
  return resources.map((resource, i) => {
    const where = `seed resources[${i}]`;
    if (!isObject(resource) || typeof resource.id !== 'string')
      throw new Error(
        `${where}: give the resource with its "id" (/subscriptions/{s}/resourceGroups/{rg}/providers/{Namespace}/{type}/{name}, or its type at another ARM scope: {scope}/providers/{Namespace}/{type}/{name}).`,
      );
    const entry = entryOf(catalogue.types, resource);
    if (!entry) {
      const known = [...catalogue.types.values()].map((t) => t.name).join(', ') || 'none';
      throw new Error(
        `${where}: ${JSON.stringify(resource.id.slice(0, 200))} is not the id of a resource type whose document declares a PUT (types: ${known}).`,
      );
    }
    state.resourceStore().set(entry.key, entry);
    return structuredClone(entry.resource);
  });
}

/** A test's page size for ARM lists (seed({ resourcePageSize })). */
export function seedPageSize(state, size) {
  if (!(Number.isInteger(size) && size >= 1 && size <= 1000)) throw new Error('seed: "resourcePageSize" must be an integer from 1 to 1000.');
  state.resourcePageSize = size;
}
