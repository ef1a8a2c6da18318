// What an unpinned client sends: each operation goes to the newest non-preview version of
// its API that declares it (pipeline/manifest.mjs `targetOf`, read by src/core.ts). An edit
// that moves that target (a new version, an operation added to a newer version, one
// removed from the newest) changes what every unpinned client sends without touching its
// code, so the report names each move: the operation, the old and the new target, graded
// `breaking` when the new target's request or answer for that operation is incompatible
// with the old one's (the same rules as between two versions), else `warning`.
import { defaultVersionOf, isPreview } from '../model/apis.mjs';
import { RESOURCE_MANAGER } from '../model/family.mjs';
import { compareDocuments, operations } from './compare.mjs';
import { locationOf } from './load.mjs';

export const RULE = 'unpinned-target-moved';

/** "METHOD /path/{}" -> target version, from `[version, document]` pairs of one API. */
export function targetsOf(versions) {
  const declaring = new Map();
  for (const [version, document] of versions) {
    for (const key of operations(document).keys()) declaring.set(key, [...(declaring.get(key) ?? []), version]);
  }
  return new Map([...declaring].map(([key, list]) => [key, defaultVersionOf(list) ?? null]));
}

/**
 * The moves of one API between two states, each `{ before: [[version, document]], after: [...] }`.
 * `meta`: { api, family }. Returns Change objects (see index.mjs) with `version` = the new
 * target (or the old one when no version is left to send it to).
 */
export function targetMoves(before, after, meta) {
  const [old, now] = [targetsOf(before), targetsOf(after)];
  const docs = { before: new Map(before), after: new Map(after) };
  const changes = [];
  for (const [key, from] of old) {
    if (!from) continue;
    const to = now.get(key) ?? null;
    if (to === from) continue;
    const [method, path] = key.split(' ');
    const oldOp = operations(docs.before.get(from)).get(key);
    const label = oldOp?.label ?? `${method.toUpperCase()} ${path}`;
    const send = (v) => (meta.family === RESOURCE_MANAGER ? `api-version ${v}` : `/api/${v}`);
    if (!to) {
      // Removed everywhere: operation-removed says so for the version it left; only a move
      // to previews only is news here.
      if (!now.has(key)) continue;
      changes.push({
        api: meta.api,
        version: from,
        operation: label,
        rule: RULE,
        level: 'breaking',
        message: `unpinned clients can no longer send ${label} (was ${send(from)}): only preview versions declare it now; callers must pin one`,
        location: locationOf(oldOp?.op) ?? locationOf(docs.before.get(from)) ?? 'redocly.yaml:1',
      });
      continue;
    }
    const target = docs.after.get(to);
    const newOp = operations(target).get(key);
    // The operation as the old target has it (in the working tree when it is still there).
    const source = docs.after.get(from) ?? docs.before.get(from);
    const differences = compareDocuments(only(source, oldOp ?? operations(source).get(key)), only(target, newOp), {
      ...meta,
      version: to,
      published: true,
    }).filter((c) => c.level === 'breaking');
    const why = differences.length ? `; incompatible: ${differences.map((c) => `${c.rule} (${c.message})`).join('; ')}` : '';
    changes.push({
      api: meta.api,
      version: to,
      operation: newOp?.label ?? label,
      rule: RULE,
      level: differences.length ? 'breaking' : 'warning',
      message: `unpinned clients now send ${newOp?.label ?? label} to ${send(to)} instead of ${send(from)}${isPreview(to) ? ' (a preview)' : ''}${why}; pin ${meta.api} to ${from} to keep the old target`,
      location: locationOf(newOp?.op) ?? locationOf(target) ?? 'redocly.yaml:1',
    });
  }
  return changes;
}

/** A document holding only one operation (so document-level rules see nothing else). */
function only(document, op) {
  if (!op) return { ...document, paths: {} };
  return {
    ...document,
    paths: {
      [op.path]: {
        ...op.pathItem,
        ...Object.fromEntries(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].filter((m) => m !== op.method).map((m) => [m, undefined])),
      },
    },
  };
}
