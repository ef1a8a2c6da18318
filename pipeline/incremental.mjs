// What `npm run build` may skip, decided from the cache (lib/cache.mjs):
//   a document   is current when every file its last bundle read (its fileDependencies:
//                root, paths, schemas, examples, specs/common/ files it references) hashes
//                as then, its redocly.yaml entry is as then, and its bundle and types are
//                on disk as written then;
//   the manifest is current when every bundle is, and client-manifest.ts, operations.ts and versions.ts are intact;
//   dist/        is current when src/, generated/**/*.ts and the tsconfigs hash as at the
//                last compile, and dist/ holds exactly what that compile wrote.
// An edit in one document therefore redoes that document (and the manifest, dist/ and its
// docs page, which read it); an edit in specs/common/ redoes the documents that read that
// file; a new document (a redocly.yaml entry) is the only one linted, bundled and typed,
// the others are kept; a new tool version or lint config redoes everything (the
// workspace key).

import { join, relative } from 'node:path';
import { hashFiles, readEntry, unchanged, writeEntry } from './cache.mjs';
import { operationIdsByPath } from './slice.mjs';
// Not readdirSync's `recursive`: it follows symlinked folders on Node 22+ only (lib/walk.mjs).
import { filesUnder } from '../lib/walk.mjs';

const docEntry = (api) => `doc-${api.slug}`;

/**
 * Splits `apis` (of the workspace at `root`) into current and stale documents. `reasons` counts why entries were not
 * used (absent, corrupt, stale, changed), for the build's one-line report.
 */
export async function planDocuments(root, apis) {
  const current = [];
  const stale = [];
  /** @type {Record<string, number>} */
  const reasons = {};
  const edits = new Map(); // api name -> what changed since its last clean lint
  await Promise.all(
    apis.map(async (api) => {
      const { miss, value } = await readEntry(root, docEntry(api));
      let why = miss;
      if (!why) why = value.config === api.configKey && (await unchanged(root, value.inputs)) && (await unchanged(root, value.outputs)) ? undefined : 'changed';
      if (why) {
        reasons[why] = (reasons[why] ?? 0) + 1;
        stale.push(api);
        const edit = value && (await editOf(root, api, value));
        if (edit) edits.set(api.name, edit);
      } else current.push(api);
    }),
  );
  const order = (list) => apis.filter((api) => list.includes(api));
  return { current: order(current), stale: order(stale), reasons, edits };
}

/**
 * What changed in a document since its last clean lint, for a lint of the path items the
 * edit reached (lib/slice.mjs): `{ changed, operations }`, the files (absolute) whose
 * content differs from the entry's and the operationIds per path key then; undefined when
 * its entry was made under another redocly.yaml entry or records no operationIds.
 */
async function editOf(root, api, value) {
  if (value.config !== api.configKey || !value.operations) return undefined;
  const now = await hashFiles(Object.keys(value.inputs), root);
  const changed = Object.keys(value.inputs)
    .filter((file) => now[file] !== value.inputs[file])
    .map((file) => join(root, file));
  return { changed, operations: value.operations };
}

/** The same for one document, from its entry now (`npm run dev`, before it lints a save). */
export async function readDocumentEdit(root, api) {
  const entry = await readEntry(root, docEntry(api));
  return entry.value ? editOf(root, api, entry.value) : undefined;
}

/**
 * The files (absolute) each document's last bundle read, by API name: its cache entry's
 * inputs, as this process last read or wrote them. The one file-to-document map: `npm run
 * dev` asks it which documents a saved file affects (`documentsReading`).
 * @type {Map<string, Set<string>>}
 */
const inputsByName = new Map();

/** The files (absolute) a current document's last bundle read, from its cache entry. */
export async function readDocumentInputs(root, api) {
  const entry = await readEntry(root, docEntry(api));
  const files = Object.keys(entry.value?.inputs ?? {}).map((file) => join(root, file));
  inputsByName.set(api.name, new Set(files));
  return files;
}

/**
 * Those of `apis` whose last bundle read `file` (absolute), as their cache entries say.
 * @template {{ name: string }} A
 * @param {string} file
 * @param {A[]} apis
 * @returns {A[]}
 */
export const documentsReading = (file, apis) => apis.filter((api) => inputsByName.get(api.name)?.has(file));

/**
 * Records a document that was linted clean, bundled and typed from `files`. `before` are
 * the hashes of those files taken right after bundling: if a file changed while the
 * build ran, nothing is recorded (the next build redoes the document).
 */
export async function recordDocument(root, api, files, before, document) {
  inputsByName.set(api.name, new Set(files));
  const inputs = await hashFiles(files, root);
  if (before && JSON.stringify(before) !== JSON.stringify(inputs)) return false;
  // The operationIds per path key: a later lint of part of the document checks that an
  // edited path item kept its own (lib/slice.mjs); without them it lints the whole.
  const operations = document ? operationIdsByPath(document) : undefined;
  await writeEntry(root, docEntry(api), { config: api.configKey, inputs, outputs: await hashFiles([api.bundle, api.types], root), operations });
  return true;
}

const manifestOutputs = (root) => ['client-manifest.ts', 'operations.ts', 'versions.ts'].map((file) => join(root, 'generated', file));

/** True when no document was redone and the manifest files are as last written. */
export async function manifestCurrent(root, apis) {
  const entry = await readEntry(root, 'manifest');
  if (!entry.value) return false;
  return (await unchanged(root, entry.value.inputs)) && (await unchanged(root, entry.value.outputs)) && entry.value.apis === apis.map((a) => a.name).join(',');
}

export async function recordManifest(root, apis) {
  await writeEntry(root, 'manifest', {
    apis: apis.map((a) => a.name).join(','),
    inputs: await hashFiles(
      apis.map((api) => api.bundle),
      root,
    ),
    outputs: await hashFiles(manifestOutputs(root), root),
  });
}

/** What tsconfig.build.json and tsconfig.cjs.json of the workspace at `root` compile (src and generated/**\/*.ts), plus the configs. */
const compileInputs = (/** @type {string} */ root) => [
  join(root, 'tsconfig.json'),
  join(root, 'tsconfig.build.json'),
  join(root, 'tsconfig.cjs.json'),
  ...filesUnder(join(root, 'src'), (file) => file.endsWith('.ts')),
  ...filesUnder(join(root, 'generated'), (file) => file.endsWith('.ts') && !relative(join(root, 'generated'), file).startsWith('docs')),
];
const distFiles = (/** @type {string} */ root) => filesUnder(join(root, 'dist'), () => true);

/** True when the dist/ of the workspace at `root` is what its last compile wrote, from the sources it has now. */
export async function distCurrent(root) {
  const entry = await readEntry(root, 'dist');
  if (!entry.value) return false;
  const inputs = await hashFiles(compileInputs(root), root);
  const outputs = await hashFiles(distFiles(root), root);
  return JSON.stringify(inputs) === JSON.stringify(entry.value.inputs) && JSON.stringify(outputs) === JSON.stringify(entry.value.outputs);
}

/** Hashes the compile's inputs (of the workspace at `root`) before it starts; `record()` stores them with dist/ after it. */
export async function startDistRecord(root) {
  const inputs = await hashFiles(compileInputs(root), root);
  return {
    async record() {
      if (JSON.stringify(await hashFiles(compileInputs(root), root)) !== JSON.stringify(inputs)) return false;
      await writeEntry(root, 'dist', { inputs, outputs: await hashFiles(distFiles(root), root) });
      return true;
    },
  };
}
