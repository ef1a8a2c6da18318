// The change report: what a spec change does to clients.
//
// Exported for other steps (all synchronous; a bad input throws a ChangesError whose
// message is one line naming the file, e.g. `specs/x/openapi.yaml:3:1: cannot parse: ...`):
//
//   changeSummary({ root, apis = loadApis(root), base = 'HEAD', removed = [] }) -> Change[]
//     In the workspace at `root`, the changes of the given APIs (entries of loadApis(); watch mode passes the affected
//     ones) in the working tree against the same <api>@<version> at the git ref `base`; a
//     version that is new since `base` against the previous version of that API in the
//     working tree, named with its operations (`version-added`, or `api-added` for an API
//     with no earlier version: presence.mjs); the `<api>@<version>` names in `removed`
//     (gone from redocly.yaml) as `version-removed` / `api-removed`, one per operation the
//     base had. Same objects as `npm run changes -- --json`, sorted (breaking first).
//
//   changesBetweenVersions(root, apiName) -> Change[]
//     For the docs: the changes between each consecutive pair of versions of `apiName`
//     (loadApis() order by compareVersions) in the working tree, and the operations whose
//     unpinned target moves to each version (rule unpinned-target-moved); [] with one version.
//
//   The unpinned targets (targets.mjs): an edit that changes the version an unpinned client
//   sends an operation at is reported as rule `unpinned-target-moved` in a group of its own
//   per API (`<api> (unpinned targets)`), `breaking` when the new target's request or
//   answer is incompatible with the old one's for that operation, else `warning`.
//
//   Change = { api, version, operation, rule, level, message, location }
//     api 'sql', version '2025-06-01', operation (operationId or 'METHOD /path'), rule name,
//     level 'breaking' | 'warning' | 'info', message (one sentence), location `file:line`
//     in the new document. Non-enumerable (not in JSON): `context` = { published, from,
//     accepted } where published = the version exists at the base (a breaking change then
//     fails the run), from = { version, ref } compared against (ref null = working tree),
//     accepted = the reason from specs/accepted-changes.yaml, if recorded.
//
//   formatChange(change) -> string   the one-line form the CLI prints.
//   summaryLines(changes, max = 10) -> string[]   for watch mode: one line per change
//     (`<api>@<version>  <formatChange>`), at most `max`, then `... and N more`, then a count line.
import { compareVersions, loadApis } from '../model/apis.mjs';
import { familyOfRoot } from '../model/family.mjs';
import { applyAccepted, readAccepted } from './accepted.mjs';
import { compareDocuments } from './compare.mjs';
import { ChangesError, gitSource, loadDocument, locationOf, parseFile, worktreeSource } from './load.mjs';
import { presenceChanges } from './presence.mjs';
import { LEVELS, RULES } from './rules.mjs';
import { targetMoves } from './targets.mjs';

export { ChangesError, RULES, compareDocuments };

/** @typedef {ReturnType<typeof loadApis>[number]} Api */
/**
 * One API and version's changes, with what it was compared against (`ref` null: the working tree).
 * @typedef {{ name: string, against: { version: string | null, ref: string | null } | null, published: boolean, changes: any[], newApi?: boolean, removed?: boolean, targets?: boolean }} Group
 */

const RANK = Object.fromEntries(LEVELS.map((l, i) => [l, i]));
const lineNo = (location) => Number(location.split(':').pop()) || 0;

/** `<api>@<version>` -> root (posix, relative) of a source's redocly.yaml; empty if it has none. */
function apiList(source) {
  const config = parseFile(source, 'redocly.yaml');
  const apis = new Map();
  for (const [name, entry] of Object.entries(config?.apis ?? {})) if (entry && typeof entry.root === 'string') apis.set(name, entry.root.replace(/^\.\//, ''));
  return apis;
}

const withContext = (changes, context) => {
  for (const c of changes) Object.defineProperty(c, 'context', { value: { ...context }, enumerable: false, writable: true });
  return changes;
};

const sortChanges = (changes, order) =>
  changes.sort(
    (a, b) =>
      (order.get(`${a.api}@${a.version}`) ?? 0) - (order.get(`${b.api}@${b.version}`) ?? 0) ||
      RANK[a.level] - RANK[b.level] ||
      a.operation.localeCompare(b.operation) ||
      a.location.split(':')[0].localeCompare(b.location.split(':')[0]) ||
      lineNo(a.location) - lineNo(b.location) ||
      a.rule.localeCompare(b.rule) ||
      a.message.localeCompare(b.message),
  );

/**
 * The whole comparison of the workspace at `root`, for the CLI: `groups` (one per API and version, with what it was
 * compared against), every change, and the stale accepted entries.
 * @param {{ root: string, apis?: Api[], base?: string, all?: boolean, removed?: string[] }} options
 */
export function compareWithBase({ root, apis: only, base = 'HEAD', all = only === undefined, removed = [] }) {
  const apis = only ?? loadApis(root);
  const work = worktreeSource(root);
  const baseSource = gitSource(root, base);
  const baseApis = apiList(baseSource);
  const everyApi = loadApis(root);
  // Each document is read once per report (a version of 300 operations is 700 files), for
  // its own comparison and for what unpinned clients send below; nothing here changes it.
  const loaded = new Map();
  const load = (source, tag, rootRel) => {
    const key = `${tag} ${rootRel}`;
    if (!loaded.has(key)) loaded.set(key, loadDocument(source, rootRel).document);
    return loaded.get(key);
  };
  /** @type {Group[]} */
  const groups = [];
  for (const api of apis) {
    const after = { document: load(work, 'work', api.rootRelative) };
    const meta = { api: api.apiName, version: api.version, family: api.family };
    /** @type {Group} */
    let group;
    if (baseApis.has(api.name)) {
      const before = { document: load(baseSource, 'base', baseApis.get(api.name)) };
      group = { name: api.name, against: { version: api.version, ref: base }, published: true, changes: [] };
      group.changes = withContext(compareDocuments(before.document, after.document, { ...meta, published: true }), { published: true, from: group.against });
    } else {
      const previous = everyApi
        .filter((a) => a.apiName === api.apiName && compareVersions(a.version, api.version) < 0)
        .sort((a, b) => compareVersions(a.version, b.version))
        .at(-1);
      group = { name: api.name, against: previous ? { version: previous.version, ref: null } : null, published: false, changes: [] };
      // Named with its operations: a new version (then also compared with the previous one),
      // or a new API when no version of it is in the working tree or at the base.
      const known = previous || [...baseApis.keys()].some((name) => name.split('@')[0] === api.apiName);
      const presence = presenceChanges(known ? 'version-added' : 'api-added', { name: api.name, document: after.document });
      group.newApi = !known;
      if (previous) {
        const before = { document: load(work, 'work', previous.rootRelative) };
        presence.push(...compareDocuments(before.document, after.document, { ...meta, published: false }));
      }
      group.changes = withContext(presence, { published: false, from: group.against });
    }
    groups.push(group);
  }
  if (all || removed.length) {
    // A published version that is gone from the working tree: every client of it breaks.
    // Named with the operations its clients lose (read from the base); `api-removed` when
    // no version of the API is left.
    const config = parseFile(work, 'redocly.yaml');
    for (const [name, rootRel] of baseApis) {
      if (everyApi.some((a) => a.name === name) || !(all || removed.includes(name))) continue;
      const [apiName, version = ''] = name.split('@');
      const rule = everyApi.some((a) => a.apiName === apiName) ? 'version-removed' : 'api-removed';
      const gone = presenceChanges(rule, {
        name,
        document: loadDocument(baseSource, rootRel).document,
        location: locationOf(config, 'apis') ?? 'redocly.yaml:1',
      });
      groups.push({
        name,
        against: { version, ref: base },
        published: true,
        removed: true,
        changes: withContext(gone, { published: true, from: { version, ref: base } }),
      });
    }
  }
  // What unpinned clients send: every API that an edited version belongs to, all its
  // versions at the base against all of them in the working tree.
  const apiNames = [...new Set([...apis.map((a) => a.apiName), ...(all ? [...baseApis.keys()].map((n) => n.split('@')[0]) : [])])];
  for (const apiName of apiNames) {
    const after = everyApi.filter((a) => a.apiName === apiName).map((a) => [a.version, load(work, 'work', a.rootRelative)]);
    const atBase = [...baseApis].filter(([name]) => name.split('@')[0] === apiName);
    if (!atBase.length) continue;
    const before = atBase.map(([name, rootRel]) => [name.split('@')[1] ?? '', load(baseSource, 'base', rootRel)]);
    const family = everyApi.find((a) => a.apiName === apiName)?.family ?? familyOfRoot(atBase[0][1]);
    const moves = targetMoves(before, after, { api: apiName, family });
    if (!moves.length) continue;
    const against = { version: null, ref: base };
    // A move into a version that exists at the base changes published behaviour (a breaking
    // one fails the run); a move into a version new since the base is judged with that
    // version, like its other between-versions changes.
    for (const move of moves)
      Object.defineProperty(move, 'context', {
        value: { published: baseApis.has(`${apiName}@${move.version}`), from: against },
        enumerable: false,
        writable: true,
      });
    groups.push({ name: `${apiName} (unpinned targets)`, against, published: true, targets: true, changes: moves });
  }

  const order = new Map(groups.map((g, i) => [g.name, i]));
  const changes = sortChanges(
    groups.flatMap((g) => g.changes),
    order,
  );
  for (const g of groups) sortChanges(g.changes, order);
  const stale = applyAccepted(changes, readAccepted(work), readAccepted(baseSource, { lenient: true }));
  return { base, groups, changes, stale };
}

/** @param {{ root: string, apis?: Api[], base?: string, removed?: string[] }} options */
export function changeSummary({ root, apis = loadApis(root), base = 'HEAD', removed = [] }) {
  return compareWithBase({ root, apis, base, all: false, removed }).changes;
}

/**
 * @param {string} root the workspace
 * @param {string} apiName
 * @param {{ onRead?: (rel: string, text: string | undefined) => void }} [options]
 */
export function changesBetweenVersions(root, apiName, { onRead } = {}) {
  const tree = worktreeSource(root);
  // `onRead(rel, text)` sees every file the comparison reads (the docs cache keys on them).
  const work = onRead
    ? {
        ...tree,
        read: (rel) => {
          const text = tree.read(rel);
          onRead(rel, text);
          return text;
        },
      }
    : tree;
  const versions = loadApis(root)
    .filter((a) => a.apiName === apiName)
    .sort((a, b) => compareVersions(a.version, b.version));
  const documents = versions.map((v) => [v.version, loadDocument(work, v.rootRelative).document]);
  const changes = [];
  for (let i = 1; i < versions.length; i++) {
    const [prev, next] = [versions[i - 1], versions[i]];
    const family = next.family ?? familyOfRoot(next.rootRelative);
    // The version named with its operations, then what it changes against the previous one.
    const found = presenceChanges('version-added', { name: next.name, document: documents[i][1] });
    found.push(...compareDocuments(documents[i - 1][1], documents[i][1], { api: apiName, version: next.version, family, published: false }));
    // Adding this version: which operations unpinned clients now send here instead.
    found.push(...targetMoves(documents.slice(0, i), documents.slice(0, i + 1), { api: apiName, family }));
    changes.push(...sortChanges(withContext(found, { published: false, from: { version: prev.version, ref: null } }), new Map()));
  }
  return changes;
}

export const formatChange = (c) => `${c.level.padEnd(8)}  ${c.rule}  ${c.operation}  ${c.location}  ${c.message}`;

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLines(changes, max = 10) {
  const lines = changes.slice(0, max).map((c) => `${c.api}@${c.version}  ${formatChange(c)}${c.context?.accepted ? '  (accepted)' : ''}`);
  if (changes.length > max) lines.push(`... and ${changes.length - max} more (npm run changes)`);
  const count = (level) => changes.filter((c) => c.level === level).length;
  const failing = changes.filter((c) => c.level === 'breaking' && c.context?.published && !c.context?.accepted).length;
  lines.push(
    changes.length
      ? `changes: ${plural(count('breaking'), 'breaking change')} (${failing} inside published versions), ${plural(count('warning'), 'warning')}, ${count('info')} info`
      : 'changes: none',
  );
  return lines;
}
