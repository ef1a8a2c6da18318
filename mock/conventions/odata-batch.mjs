// The business-data JSON batch (OData 4.01 JSON format, 19), for a document that declares
// `POST /$batch` (model/odata.mjs BATCH_PATH):
//   request  { requests: [{ id, method, url, headers?, body?, dependsOn?, atomicityGroup? }] }
//            `url` relative to the service root (`companies(…)/salesOrders`), or an
//            absolute path or URL under it (a URL on the batch's own origin only); `$<id>` at its start is the entity URL of an
//            earlier request's result (a create's new entity, by its Location or the key
//            its body carries; else that request's path)
//   answer   200 { responses: [{ id, status, headers, body, atomicityGroup? }] }, in order
// Each member re-enters the mock's one request path (request-path.mjs, `ctx.reenter`):
// routing, validation, conventions and state as if it were sent alone, with the batch's
// own headers (Host, Authorization) under its own, and recorded like any request (the
// test API's `requests`, after the batch's entry). A member whose dependency failed (or
// was not run) answers 424 and is not run. An atomicity group is all or nothing: when one
// of its members fails, the entity stores go back to where they were before the group,
// that member keeps its error and the group's others answer 424. A malformed batch is
// 400 in the family's error body, naming what is wrong; nothing of it is run.
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { familyError } from '../errors.mjs';
import { DELETED } from '../state.mjs';
import { BATCH_PATH } from '../../model/odata.mjs';
import { BUSINESS_CENTRAL } from '../../model/family.mjs';

const FAMILY = BUSINESS_CENTRAL;
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
/** The batch's headers a member takes unless it gives its own (who sends it, where to). */
const INHERITED = ['host', 'authorization', 'origin', 'user-agent'];
/** `$<name>` at a URL's start that is a resource of the service, not a reference to a request. */
const RESOURCES = new Set(['batch', 'metadata', 'all', 'crossjoin', 'entity']);

/**
 * @typedef {{ id: string, method: string, url: string, headers: Record<string, string>, body?: unknown, dependsOn: string[], atomicityGroup?: string }} Member
 */

/**
 * What is wrong with a batch body, or its members.
 * @param {unknown} body
 * @returns {{ problem: string, members?: undefined } | { members: Member[], problem?: undefined }}
 */
function readBatch(body) {
  const requests = /** @type {any} */ (body)?.requests;
  if (!Array.isArray(requests)) return { problem: 'the body must be an object { requests: [...] } (OData 4.01 JSON batch)' };
  const seen = new Set();
  /** @type {Map<string, number>} the index of each group's last member */
  const groups = new Map();
  /** @type {Member[]} */
  const members = [];
  for (const [i, request] of requests.entries()) {
    const at = `requests[${i}]`;
    if (!request || typeof request !== 'object' || Array.isArray(request)) return { problem: `${at} must be an object` };
    const { id, method, url, headers = {}, body: memberBody, dependsOn = [], atomicityGroup } = request;
    if (typeof id !== 'string' || !id) return { problem: `${at}.id must be a non-empty string` };
    if (seen.has(id) || groups.has(id)) return { problem: `${at}.id ${JSON.stringify(id)} is given twice` };
    if (typeof method !== 'string' || !METHODS.includes(method.toUpperCase())) return { problem: `${at}.method must be one of ${METHODS.join(', ')}` };
    if (typeof url !== 'string' || !url) return { problem: `${at}.url must be a URL relative to the service root` };
    if (!headers || typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
      return { problem: `${at}.headers must be an object of strings` };
    if (!Array.isArray(dependsOn) || dependsOn.some((d) => typeof d !== 'string'))
      return { problem: `${at}.dependsOn must be an array of request or group ids` };
    const unknown = dependsOn.find((d) => !seen.has(d) && !(groups.has(d) && d !== atomicityGroup));
    if (unknown !== undefined) return { problem: `${at}.dependsOn names ${JSON.stringify(unknown)}, which is no earlier request or group` };
    if (atomicityGroup !== undefined) {
      if (typeof atomicityGroup !== 'string' || !atomicityGroup || seen.has(atomicityGroup))
        return { problem: `${at}.atomicityGroup must be a name no request has` };
      if (groups.has(atomicityGroup) && groups.get(atomicityGroup) !== i - 1)
        return { problem: `${at}.atomicityGroup ${JSON.stringify(atomicityGroup)}: the members of a group must be adjacent` };
      groups.set(atomicityGroup, i);
    }
    const reference = /^\$([^/?]+)/.exec(url)?.[1];
    if (reference !== undefined && !seen.has(reference) && !RESOURCES.has(reference))
      return { problem: `${at}.url refers to $${reference}, which is no earlier request` };
    seen.add(id);
    members.push({
      id,
      method: method.toUpperCase(),
      url,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: memberBody,
      dependsOn,
      atomicityGroup,
    });
  }
  return { members };
}

/** The entity stores as they are now (entries copied; a deleted key stays DELETED). @param {any} state */
const snapshot = (state) =>
  new Map(
    [...state.entities].map(([id, { company, set, items }]) => [
      id,
      { company, set, items: new Map([...items].map(([key, entry]) => [key, entry === DELETED ? DELETED : structuredClone(entry)])) },
    ]),
  );

/** @param {any} state @param {Map<string, any>} saved */
function restore(state, saved) {
  state.entities.clear();
  for (const [id, store] of saved) state.entities.set(id, store);
}

/**
 * The handler of a document's `POST /$batch`.
 * @param {{ prefix: string }} doc
 */
export function batchHandler(doc) {
  const root = doc.prefix;
  /**
   * The member's path and query under the service root, `$<id>` replaced: { target } or { problem }.
   * @param {string} url
   * @param {Map<string, { path: string, location?: string }>} results
   * @param {string} origin  the batch's own (an absolute member URL must have it)
   */
  function targetOf(url, results, origin) {
    let target = url.replace(/^\$([^/?]+)/, (whole, id) => results.get(id)?.location ?? whole);
    const absolute = /^https?:\/\/[^/?#]*/i.exec(target)?.[0];
    if (absolute) {
      if (absolute.toLowerCase() !== String(origin).toLowerCase()) return { problem: `${url.slice(0, 200)} is not on the batch's own origin ${origin}` };
      target = target.slice(absolute.length);
    }
    if (!target.startsWith('/')) target = `${root}/${target}`;
    if (!(target === root || target.startsWith(`${root}/`))) return { problem: `${url} is not under the service root ${root}` };
    if (target.split('?')[0] === `${root}${BATCH_PATH}`) return { problem: 'a batch cannot hold a batch' };
    return { target };
  }

  /** @param {any} ctx */
  async function respond(ctx) {
    const { members, problem } = readBatch(ctx.body);
    if (problem) return familyError(FAMILY, 400, `Malformed $batch: ${problem}.`, { target: 'requests' });
    /** @type {Map<string, { path: string, location?: string, ok: boolean }>} */
    const results = new Map();
    /** @type {Map<string, boolean>} whether each group succeeded */
    const groupOk = new Map();
    /** @type {any[]} */
    const responses = [];
    /** @type {{ name: string, saved: Map<string, any>, first: number } | undefined} */
    let group;
    const failed = (/** @type {string} */ id) => (results.has(id) ? !results.get(id)?.ok : groupOk.get(id) === false);
    for (const [i, member] of /** @type {Member[]} */ (members).entries()) {
      if (member.atomicityGroup && group?.name !== member.atomicityGroup)
        group = { name: member.atomicityGroup, saved: snapshot(ctx.state), first: responses.length };
      const groupFailed = member.atomicityGroup !== undefined && groupOk.get(member.atomicityGroup) === false;
      const reference = /^\$([^/?]+)/.exec(member.url)?.[1];
      const dependency = [...member.dependsOn, ...(reference !== undefined && results.has(reference) ? [reference] : [])].find(failed);
      let found;
      if (groupFailed)
        found = familyError(FAMILY, 424, `Not run: a request of atomicity group ${member.atomicityGroup} failed, so none of it applies.`, {
          code: 'FailedDependency',
        });
      else if (dependency !== undefined) found = familyError(FAMILY, 424, `Not run: it depends on ${dependency}, which failed.`, { code: 'FailedDependency' });
      else {
        const { target, problem: wrong } = targetOf(member.url, results, ctx.origin);
        found = wrong ? familyError(FAMILY, 400, `requests[${i}].url: ${wrong}.`) : await run(ctx, member, /** @type {string} */ (target));
      }
      const ok = found.status < 400;
      const path = targetOf(member.url, results, ctx.origin).target?.split('?')[0] ?? '';
      // A create's new entity: its Location (return=minimal), else the key its body carries.
      const location = typeof found.headers?.location === 'string' ? found.headers.location.replace(/^https?:\/\/[^/]+/i, '') : undefined;
      const created = member.method === 'POST' && ok ? (location ?? (typeof found.body?.id === 'string' ? `${path}(${found.body.id})` : undefined)) : undefined;
      results.set(member.id, { path, location: created ?? path, ok });
      responses.push({
        id: member.id,
        status: found.status,
        headers: headersOf(found.headers),
        ...(found.body === undefined ? {} : { body: found.body }),
        ...(member.atomicityGroup ? { atomicityGroup: member.atomicityGroup } : {}),
      });
      if (member.atomicityGroup && !groupFailed) {
        if (!ok && group) {
          // All or nothing: the stores as before the group; its members run so far did not apply.
          restore(ctx.state, group.saved);
          for (const earlier of responses.slice(group.first, -1)) {
            Object.assign(earlier, {
              status: 424,
              headers: { 'content-type': 'application/json' },
              body: familyError(FAMILY, 424, `Rolled back: request ${member.id} of atomicity group ${member.atomicityGroup} failed, so none of it applies.`, {
                code: 'FailedDependency',
              }).body,
            });
            const result = results.get(earlier.id);
            if (result) result.ok = false;
          }
          // The failed member's own answer stays, but a tag it reports (a 412's current
          // ETag) may be of a state the rollback undid: left out rather than wrong.
          const failing = responses.at(-1);
          if (failing && responses.length - 1 > group.first)
            failing.headers = Object.fromEntries(Object.entries(failing.headers).filter(([name]) => name.toLowerCase() !== 'etag'));
        }
        groupOk.set(member.atomicityGroup, ok && groupOk.get(member.atomicityGroup) !== false);
      }
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, body: { responses } };
  }

  /**
   * One member through the request path, as a request of its own.
   * @param {any} ctx
   * @param {Member} member
   * @param {string} target
   */
  async function run(ctx, member, target) {
    const text = member.body === undefined ? '' : typeof member.body === 'string' ? member.body : JSON.stringify(member.body);
    const inherited = Object.fromEntries(INHERITED.filter((name) => ctx.headers[name] !== undefined).map((name) => [name, ctx.headers[name]]));
    const headers = {
      ...inherited,
      ...(text && typeof member.body !== 'string' ? { 'content-type': 'application/json' } : {}),
      ...member.headers,
      ...(text ? { 'content-length': String(Buffer.byteLength(text)) } : {}),
    };
    const req = Object.assign(Readable.from(text ? [Buffer.from(text)] : []), { method: member.method, url: target, headers, complete: true });
    // Recorded as any request is (the test API's `requests`), after the batch's own entry.
    const response = Object.assign(new EventEmitter(), { statusCode: 0 });
    const found = await ctx.reenter(req, ctx.mock.testApi.log.start(req, response));
    response.statusCode = found.status;
    response.emit('finish');
    if (found.fault) return familyError(FAMILY, 503, `An override's ${found.fault} does not apply to a batch member.`);
    return found;
  }

  return { convention: 'odata-batch', respond };
}

/** A member's answer headers as the batch carries them: strings, no length. @param {Record<string, any>} [headers] */
const headersOf = (headers = {}) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => value !== undefined && value !== null && name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
