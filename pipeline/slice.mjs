// Lint what an edit reached, not the whole document (issue 34: at 300 operations one
// document's lint is most of a rebuild). The last lint of a document was clean (the build
// cache records a document only then, lib/incremental.mjs), so after an edit only the
// operations whose files changed can have new findings. This makes the "slice": the root
// document as it is, with `paths:` cut down to the path items that read a changed file
// (through any chain of $refs), and the path items on the same resource (its collection,
// its items: `/x` with `/x({id})`, `/x/{name}/y`), which a rule may compare. Both linters
// lint the slice under the root's own file name, so every $ref resolves as in the whole.
//
// When the slice is not enough, the answer is "lint the whole document" (`{ whole: why }`):
//   - no record of the last clean lint (a new document, a new configuration, a cold cache);
//   - the root changed, or a file the root reads outside `paths:` (components, security):
//     every operation may read it;
//   - a path-item file changed its operationIds (uniqueness is judged across operations);
//   - a changed file that no path item reads any more (nothing to slice to);
//   - two files of the document would be bundled under one component name (a rule judged
//     across the whole document, house-component-name-unique: rules/).
// And the caller lints the whole document whenever the slice has any finding, so what is
// reported is always the whole document's findings, at their own file:line:col (a rule
// that counts across operations, like an unused component, can only find more in a slice).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isMap, isScalar, parse, parseDocument } from 'yaml';
import { clashingKeys } from '../model/component-files.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The files `start` reads, itself included, through `graph` (file -> files its $refs name). */
function closure(graph, start) {
  const seen = new Set([start]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (!seen.has(next)) queue.push(next);
      seen.add(next);
    }
  }
  return seen;
}

/** A path key without its last key segment: `/x({id})` and `/x/{name}` -> `/x`. */
const collection = (key) => key.replace(/(\(\{[^}]*\}\)|\/\{[^}]*\})$/, '');
const under = (key, base) => key === base || key.startsWith(`${base}/`) || key.startsWith(`${base}(`);
/** Two path items on one resource: one is the other's collection, item or sub-resource. */
const sameResource = (a, b) => under(a, collection(b)) || under(b, collection(a));

/** The operationIds of a path item, by method, sorted (what uniqueness is judged on). */
export function operationIdsOf(pathItem) {
  if (!pathItem || typeof pathItem !== 'object') return [];
  return METHODS.filter((m) => pathItem[m]?.operationId !== undefined).map((m) => `${m} ${pathItem[m].operationId}`);
}

/** The operationIds per path key of a bundled document (recorded with its cache entry). */
export function operationIdsByPath(document) {
  return Object.fromEntries(Object.entries(document?.paths ?? {}).map(([key, item]) => [key, item?.$ref ? null : operationIdsOf(item)]));
}

/**
 * The slice of `root` for the edit `changed` (absolute files whose content differs from
 * the last clean lint), given `graph` (lib/trust.mjs checkTree) and `operations` (the
 * operationIds per path key then). Returns `{ text, keys, total }` (the root's text cut to
 * `keys`, of `total` path items) or `{ whole: why }`.
 */
export function sliceFor({ root, graph, changed, operations }) {
  if (!changed?.length || !operations) return { whole: 'no record of its last clean lint' };
  if (changed.includes(root)) return { whole: 'its root changed' };
  // A slice holds the files its path items read, so a clash with a file only the others
  // read would pass it: any two files named alike send the lint to the whole document.
  if (clashingKeys([...graph.keys()], root).length) return { whole: 'two of its files would be bundled under one component name' };
  const doc = parseDocument(readFileSync(root, 'utf8'));
  const paths = doc.get('paths');
  if (doc.errors.length || !isMap(paths)) return { whole: 'its root has no paths map' };
  const targets = new Map(); // path key -> the file its $ref names (undefined: written inline)
  for (const pair of paths.items) {
    const ref = isMap(pair.value) && pair.value.items.length === 1 ? pair.value.get('$ref') : undefined;
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    targets.set(key, typeof ref === 'string' && !ref.includes('#') ? resolve(dirname(root), ref) : undefined);
  }
  // What every operation may read: the root's other $refs (components, inline path items).
  const pathFiles = new Set([...targets.values()].filter(Boolean));
  const shared = new Set([...(graph.get(root) ?? [])].filter((file) => !pathFiles.has(file)).flatMap((file) => [...closure(graph, file)]));
  const sharedHit = changed.find((file) => shared.has(file));
  if (sharedHit) return { whole: `${sharedHit} is read outside its paths` };
  const reached = [...targets].filter(([, file]) => file && [...closure(graph, file)].some((read) => changed.includes(read))).map(([key]) => key);
  if (!reached.length) return { whole: 'no path item reads the changed files' };
  // A path-item file edited: its operationIds must be those of the last clean lint.
  for (const [key, file] of targets) {
    if (!file || !changed.includes(file)) continue;
    let item;
    try {
      item = parse(readFileSync(file, 'utf8'));
    } catch {
      return { whole: `${file} does not parse` };
    }
    if (JSON.stringify(operationIdsOf(item)) !== JSON.stringify(operations[key])) return { whole: `the operationIds of ${key} changed` };
  }
  const keys = [...targets.keys()].filter((key) => reached.some((hit) => sameResource(key, hit)));
  for (const pair of [...paths.items]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!keys.includes(key)) paths.delete(pair.key);
  }
  return { text: doc.toString(), keys, total: targets.size };
}
