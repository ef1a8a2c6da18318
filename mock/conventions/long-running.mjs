// ARM's long-running operations, as the mock plays them for any operation a document
// marks `x-ms-long-running-operation: true` (the ARM lifecycle's PUT, PATCH and DELETE,
// and the POST actions on its resources, conventions/arm.mjs), the way Azure SDKs poll
// them (@azure/core-lro):
//
//   initial answer  PUT 201 (create) / 200 (replace), PATCH 200, DELETE 202, POST action
//                   202 (each the status the document declares), with the headers the
//                   answer declares:
//                   Azure-AsyncOperation  <origin>[/subscriptions/{s}]/providers/{Namespace}/operationStatuses/{id}?api-version=…
//                   Location              <origin>/subscriptions/{s}/providers/{Namespace}/operationResults/{id}?api-version=…
//                   Retry-After           seconds (default 1; a test may set 0)
//                   and the resource's provisioningState in a non-terminal state
//                   (Creating, Updating, Deleting, or Accepted: what its schema allows;
//                   an action leaves it as it is).
//   status monitor  GET Azure-AsyncOperation: 200 { id, name, status, startTime,
//                   endTime?, error? }, status InProgress until done, then Succeeded,
//                   Failed or Canceled (error: the ARM error of a Failed or Canceled one).
//   operation result GET Location: 202 (Location, Retry-After) until done; then the
//                   resource 200 (PUT, PATCH), 204 (DELETE), or the action's result
//                   (its documented 200, else 204); a Failed or Canceled operation
//                   answers its error status (default 400) with a CloudError.
//   the resource    GET of the resource (the original URI) shows provisioningState.
//
// Each GET of the status monitor, the operation result or the resource is one poll; the
// operation ends on its N-th poll (N = 1 by default): the resource's provisioningState
// becomes Succeeded (or Failed, Canceled), and a DELETE that succeeds removes the
// resource (and its children). These URLs are the mock's own (no document declares
// them), always on the origin the request came in on, as paging's links are. A test
// sets polls, Retry-After and the outcome of the next (or a given) operation through
// the test API's long-running rules (longRunning(), POST /__mock/long-running).
import { randomUUID } from 'node:crypto';
import { answer, errorAnswer } from '../errors.mjs';
import { describeRule, meets, use } from '../when.mjs';

const TERMINAL = ['Succeeded', 'Failed', 'Canceled'];
/** How a long-running rule may end its operation (index.d.ts LongRunningRule.outcome). */
export const OUTCOMES = TERMINAL;
const MONITOR = /^(?:\/subscriptions\/([^/]+))?\/providers\/([^/]+)\/(operationStatuses|operationResults)\/([^/]+)$/i;
const DEFAULTS = { polls: 1, retryAfter: 1, outcome: 'Succeeded', status: 400 };
const NON_TERMINAL = {
  create: ['Creating', 'Accepted', 'Provisioning', 'Updating', 'InProgress'],
  replace: ['Updating', 'Accepted', 'Creating', 'InProgress'],
  update: ['Updating', 'Accepted', 'InProgress'],
  delete: ['Deleting', 'Accepted', 'InProgress'],
};

/**
 * A provisioningState value for `phase` ('create', 'replace', 'update', 'delete', or a
 * terminal state) that the schema's enum allows; the plain ARM word when it has none.
 */
export function stateValue(field, phase) {
  const wanted = NON_TERMINAL[phase] ?? [phase];
  const allowed = field?.enum;
  if (!Array.isArray(allowed) || !allowed.length) return wanted[0];
  for (const word of wanted) {
    const found = allowed.find((value) => String(value).toLowerCase() === word.toLowerCase());
    if (found !== undefined) return found;
  }
  if (NON_TERMINAL[phase]) return allowed.find((value) => !TERMINAL.includes(String(value))) ?? wanted[0];
  return wanted[0];
}

export function setProvisioningState(entry, value) {
  if (!entry.stateField) return;
  if (entry.stateField.where === 'top') entry.resource.provisioningState = value;
  else entry.resource.properties = { ...(isObject(entry.resource.properties) ? entry.resource.properties : {}), provisioningState: value };
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Starts a long-running operation on a stored resource entry and returns the headers of
 * the initial answer. `request` is what a rule's `when` is matched against.
 * @param {any} ctx
 * @param {{ entry: any, phase: string, result?: any, namespace: string, subscription: any, headers: { asyncOperation: boolean, location: boolean, retryAfter: boolean }, request: any }} start
 */
export function startOperation(ctx, { entry, phase, result, namespace, subscription, headers: declared, request }) {
  const { state } = ctx;
  const rule = takeRule(state, request);
  const id = randomUUID();
  const version = String(ctx.doc.version);
  // A resource outside any subscription (a management group's, the tenant's) is polled at the tenant's level.
  const base = `${subscription === undefined ? '' : `/subscriptions/${encodeURIComponent(subscription)}`}/providers/${namespace}`;
  const operation = {
    id,
    phase,
    method: request.method,
    resourceId: entry.id,
    resourceKey: entry.key,
    status: 'InProgress',
    outcome: rule?.outcome ?? DEFAULTS.outcome,
    error: rule?.error,
    errorStatus: rule?.status ?? DEFAULTS.status,
    pollsNeeded: rule?.polls ?? DEFAULTS.polls,
    polls: 0,
    retryAfter: rule?.retryAfter ?? DEFAULTS.retryAfter,
    startTime: new Date().toISOString(),
    endTime: undefined,
    statusPath: `${base}/operationStatuses/${id}`,
    resultPath: `${base}/operationResults/${id}`,
    apiVersion: version,
    rule: rule?.id,
    /** An action's answer once it succeeded ({ status, headers, body }). */
    result,
  };
  state.operations.set(id, operation);
  entry.operation = id;
  if (phase !== 'action') setProvisioningState(entry, stateValue(entry.stateField, phase));
  const query = `?api-version=${encodeURIComponent(version)}`;
  const out = {};
  if (declared.asyncOperation) out['azure-asyncoperation'] = `${ctx.origin}${operation.statusPath}${query}`;
  if (declared.location) out.location = `${ctx.origin}${operation.resultPath}${query}`;
  if (declared.retryAfter || declared.asyncOperation || declared.location) out['retry-after'] = String(operation.retryAfter);
  // Nothing to poll (no monitor declared, and a DELETE or an action has no resource body
  // to poll): done now, as a client that finds no polling URL takes it to be.
  if (!declared.asyncOperation && !declared.location && (phase === 'delete' || phase === 'action')) complete(state, operation);
  return out;
}

/** Two paths alike, case aside, their percent-encoding read. @param {string} a @param {string} b */
function samePath(a, b) {
  const read = (/** @type {string} */ path) => {
    try {
      return decodeURIComponent(path).toLowerCase();
    } catch {
      return path.toLowerCase();
    }
  };
  return read(a) === read(b);
}

/** One poll of a running operation: it ends on its N-th. */
export function poll(state, operation) {
  if (operation?.status !== 'InProgress') return;
  operation.polls += 1;
  if (operation.polls >= operation.pollsNeeded) complete(state, operation);
}

/** The operation ends with its outcome, and the resource follows it. */
function complete(state, operation) {
  operation.status = operation.outcome;
  operation.endTime = new Date().toISOString();
  if (operation.outcome !== 'Succeeded') {
    const verb = operation.outcome === 'Failed' ? 'failed' : 'was canceled';
    operation.error ??= {
      code: operation.outcome === 'Failed' ? 'OperationFailed' : 'OperationCanceled',
      message: `The long-running ${operation.method} of ${operation.resourceId} ${verb}: a test asked the mock for it (long-running rule ${operation.rule}).`,
    };
  }
  const store = state.resourceStore();
  const entry = store.get(operation.resourceKey);
  if (!entry || entry.operation !== operation.id) return;
  entry.operation = undefined;
  if (operation.phase === 'action') return; // an action is not a write of the resource
  if (operation.outcome === 'Succeeded' && operation.phase === 'delete') {
    removeResource(store, operation.resourceKey);
    return;
  }
  setProvisioningState(entry, stateValue(entry.stateField, operation.outcome));
}

/** Removes a resource and every child resource under it (ARM deletes children with their parent). */
export function removeResource(store, key) {
  for (const other of [...store.keys()]) if (other === key || other.startsWith(`${key}/`)) store.delete(other);
}

/**
 * The entry's running operation, polled once: a GET of the resource is a poll too, an
 * action's included (its state does not show on the resource, but a client that reads the
 * resource instead of polling the status URLs must not leave it refusing writes for ever).
 */
export function pollEntry(state, entry) {
  if (entry?.operation) poll(state, state.operations.get(entry.operation));
}

/** True when the path is one of the mock's status URLs of an operation it started. */
export function isKnownMonitor(state, path) {
  const found = MONITOR.exec(path);
  return Boolean(found && state.operations.has(decodeURIComponent(found[4])));
}

/** True when the path has the shape of a status URL (an unknown one is a 404 CloudError). */
export const isMonitorPath = (path) => MONITOR.test(path);

/** The answer to GET of a status monitor or an operation result URL. */
export function monitorAnswer(state, method, path, origin) {
  const found = MONITOR.exec(path);
  if (!found) return undefined;
  const id = decodeURIComponent(found[4]);
  const operation = state.operations.get(id);
  if (!operation) {
    return errorAnswer(
      404,
      'OperationNotFound',
      `No long-running operation '${id.slice(0, 100)}' is known to the mock (it started none with this id, or it was reset).`,
    );
  }
  // The status URL the mock issued, under the subscription and namespace it was issued
  // for: the same id under another one is not that operation.
  const issued = found[3].toLowerCase() === 'operationstatuses' ? operation.statusPath : operation.resultPath;
  if (!samePath(path, issued))
    return errorAnswer(404, 'OperationNotFound', `No long-running operation '${id.slice(0, 100)}' is known at this URL; it is polled at ${issued}.`);
  if (method !== 'GET')
    return errorAnswer(405, 'MethodNotAllowed', `${method} is not allowed on a status URL; poll it with GET.`, { headers: { allow: 'GET' } });
  poll(state, operation);
  const retry = { 'retry-after': String(operation.retryAfter) };
  if (found[3].toLowerCase() === 'operationstatuses') {
    const body = { id: operation.statusPath, name: operation.id, status: operation.status, startTime: operation.startTime };
    if (operation.endTime) body.endTime = operation.endTime;
    if (operation.error) body.error = structuredClone(operation.error);
    return answer(200, body, operation.status === 'InProgress' ? retry : {});
  }
  if (operation.status === 'InProgress')
    return {
      status: 202,
      headers: { location: `${origin}${operation.resultPath}?api-version=${encodeURIComponent(operation.apiVersion)}`, ...retry },
      body: undefined,
    };
  if (operation.status !== 'Succeeded') return errorAnswer(operation.errorStatus, operation.error.code, operation.error.message);
  if (operation.phase === 'delete') return { status: 204, headers: {}, body: undefined };
  if (operation.phase === 'action') return structuredClone(operation.result);
  const entry = state.resourceStore().get(operation.resourceKey);
  return entry ? answer(200, structuredClone(entry.resource)) : errorAnswer(404, 'ResourceNotFound', `The resource ${operation.resourceId} no longer exists.`);
}

// --- the test API's long-running rules ----------------------------------------------

/** What a long-running rule may say (index.d.ts LongRunningRule), and what its `when` may name (LongRunningRequest). */
export const RULE_KEYS = ['when', 'times', 'polls', 'retryAfter', 'outcome', 'error', 'status', 'operation'];
export const WHEN_KEYS = ['method', 'path', 'operationId', 'api', 'version'];

/** Checks a rule; returns it normalised or throws a message naming what is wrong. */
export function checkLongRunningRule(rule) {
  const where = 'long-running rule';
  if (!isObject(rule)) throw new Error(`${where}: give { when?, times?, polls?, retryAfter?, outcome?, error?, status?, operation? }.`);
  const unknown = Object.keys(rule).filter((key) => !RULE_KEYS.includes(key));
  if (unknown.length) throw new Error(`${where}: unknown ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${RULE_KEYS.join(', ')}).`);
  const { when, times, polls, retryAfter, outcome, error, status, operation } = rule;
  if (when !== undefined && typeof when !== 'function' && !isObject(when))
    throw new Error(`${where}: "when" must be a function of the request or an object to match it against.`);
  if (isObject(when)) {
    const odd = Object.keys(when).filter((key) => !WHEN_KEYS.includes(key));
    if (odd.length) throw new Error(`${where}: "when" names ${odd.map((k) => JSON.stringify(k)).join(', ')} (a request has ${WHEN_KEYS.join(', ')}).`);
  }
  if (times !== undefined && !(Number.isInteger(times) && times >= 1))
    throw new Error(`${where}: "times" must be a whole number from 1 (leave it out for every operation until reset).`);
  if (polls !== undefined && !(Number.isInteger(polls) && polls >= 1 && polls <= 1000))
    throw new Error(`${where}: "polls" must be a whole number from 1 to 1000 (the poll on which the operation ends).`);
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 3600))
    throw new Error(`${where}: "retryAfter" must be a whole number of seconds from 0 to 3600.`);
  if (outcome !== undefined && !OUTCOMES.includes(outcome)) throw new Error(`${where}: "outcome" must be one of ${OUTCOMES.join(', ')}.`);
  if (error !== undefined && !(isObject(error) && typeof error.code === 'string' && error.code && typeof error.message === 'string' && error.message)) {
    throw new Error(`${where}: "error" must be an ARM error { code, message } (non-empty strings).`);
  }
  if (status !== undefined && !(Number.isInteger(status) && status >= 400 && status <= 599))
    throw new Error(`${where}: "status" must be an HTTP error status from 400 to 599.`);
  if (operation !== undefined && (typeof operation !== 'string' || when !== undefined || times !== undefined))
    throw new Error(`${where}: "operation" names one running operation by id (a string), without "when" or "times".`);
  return { when, times, polls, retryAfter, outcome, error: error && { ...error }, status, operation };
}

/**
 * Adds a checked rule: for the operations it matches from now on (newest rule first), or,
 * with `operation`, changes that running operation at once. Returns { id, remove() }.
 */
export function addLongRunningRule(state, spec) {
  const id = ++state.lroSequence;
  if (spec.operation !== undefined) {
    const running = state.operations.get(spec.operation);
    if (!running)
      throw new Error(`long-running rule: no operation '${spec.operation}' is known (known: ${[...state.operations.keys()].join(', ') || 'none'}).`);
    if (running.status !== 'InProgress') throw new Error(`long-running rule: operation '${spec.operation}' has already ended ${running.status}.`);
    if (spec.polls !== undefined) running.pollsNeeded = running.polls + spec.polls;
    for (const key of ['retryAfter', 'outcome', 'error']) if (spec[key] !== undefined) running[key] = spec[key];
    if (spec.status !== undefined) running.errorStatus = spec.status;
    running.rule = id;
    return { id, remove() {} };
  }
  const rule = { id, spec, calls: 0 };
  state.lroRules.unshift(rule);
  return {
    id,
    remove() {
      state.lroRules = state.lroRules.filter((r) => r !== rule);
    },
  };
}

/** The newest rule whose `when` the request meets (a `when` that throws meets nothing), used. */
function takeRule(state, request) {
  const rule = state.lroRules.find(({ spec }) => {
    try {
      return meets(spec.when, request);
    } catch {
      return false;
    }
  });
  return rule && use(state.lroRules, rule);
}

/** The rules in force, as plain JSON. */
export const listLongRunningRules = (state) => state.lroRules.map(describeRule);
