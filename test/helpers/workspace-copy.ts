// A throw-away copy of what the pipeline needs (specs, scripts, configs, generated/;
// node_modules linked), for tests that break specs or run `npm run dev` on purpose.
//
// What these tests check is how the pipeline treats a document (lint, build, cache, watch,
// kills), not the documents themselves, so by default the copy holds a bounded set: per
// API, the oldest version that declares each of its operations (one version of an API
// whose versions are copies; v1.0 and v2.0 of business data, which hold different
// entities). A workspace of five documents is copied whole; one of a hundred (versions
// added over the years) is copied down to a few, so the time of these tests does not grow
// with the documents.
// `{ documents: 'all' }` copies every document (a test of "the workspace as it is");
// `{ documents: [root, …] }` only the documents with those root files (a test that breaks
// these documents and no other, so its time does not grow with the others).
//
// `{ built: true }` also copies this checkout's build cache (.cache/provider-api/: what
// `npm run build` recorded of each document's lint, bundle, types and docs page), so the
// copy's first build redoes only the documents the test changed instead of linting every
// one again. Nothing is trusted for being copied: the cache checks each entry against the
// copy's own files (content hashes, tool versions, the pipeline's source), so an unbuilt
// or stale checkout just gives a copy that builds cold. The record of this checkout's dist/
// is not copied: the copy has no dist/ of its own yet (and no CommonJS build: no
// tsconfig.cjs.json), so it compiles one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { compareVersions, loadApis } from '../../model/apis.mjs';
// @ts-expect-error: plain ESM module without types
import { writeManifest } from '../../pipeline/manifest.mjs';
// @ts-expect-error: plain ESM module without types
import { BUILD_ENTRIES } from '../../model/workspace-paths.mjs';

const ROOT = join(import.meta.dirname, '../..');
const CACHE = join(ROOT, '.cache/provider-api');
/** The record of the dist/ the last compile made (pipeline/incremental.mjs). */
const DIST_RECORD = ['dist.json'];

interface Entry {
  name: string;
  root: string;
  output: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "METHOD path" of every operation of a bundled document (none when it cannot be read). */
function operationKeys(output: string): string[] {
  let document: any;
  try {
    document = parseDocument(readFileSync(join(ROOT, output), 'utf8')).toJS();
  } catch {
    return [];
  }
  return Object.entries<any>(document?.paths ?? {}).flatMap(([path, item]) => METHODS.filter((m) => item?.[m]).map((m) => `${m} ${path}`));
}

/** The `apis:` entries of a redocly.yaml text. */
function entriesOf(config: string): Entry[] {
  return Object.entries<any>((parseDocument(config).toJS() as any).apis ?? {}).map(([name, { root, output }]) => ({ name, root, output }));
}

/**
 * The redocly.yaml entries a bounded copy leaves out: per API, every version but the
 * oldest that declares each of its operations (read from the committed bundles).
 */
export function entriesBeyondOldest(config: string): Entry[] {
  const apis = entriesOf(config);
  const oldestPerOperation = new Map<string, Entry>();
  const oldestPerApi = new Map<string, Entry>();
  const older = (a: Entry, b: Entry | undefined) => !b || compareVersions(a.name.split('@')[1], b.name.split('@')[1]) < 0;
  for (const entry of apis) {
    const apiName = entry.name.split('@')[0]!;
    if (older(entry, oldestPerApi.get(apiName))) oldestPerApi.set(apiName, entry);
    for (const key of operationKeys(entry.output)) {
      const id = `${apiName} ${key}`;
      if (older(entry, oldestPerOperation.get(id))) oldestPerOperation.set(id, entry);
    }
  }
  const kept = new Set([...oldestPerApi.values(), ...oldestPerOperation.values()]);
  return apis.filter((entry) => !kept.has(entry));
}

/** The redocly.yaml entries whose root is not one of `roots` (each root must be an entry's). */
function entriesOtherThan(config: string, roots: string[]): Entry[] {
  const apis = entriesOf(config);
  const missing = roots.filter((root) => !apis.some((api) => api.root === root));
  if (missing.length) throw new Error(`workspace copy: no redocly.yaml entry has the root ${missing.join(', ')}`);
  return apis.filter((api) => !roots.includes(api.root));
}

/**
 * The root files of the source's documents (the five operations of
 * ../shared/seed/api-reference.md), for a copy that holds only the documents a test reads
 * (`documents`): they are there in any workspace grown from this one.
 */
export const SOURCE_ROOTS = {
  businessDataV1: 'specs/business-central/v1.0/openapi.yaml',
  sql: 'specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml',
  containerInstance: 'specs/resource-manager/Provider.ContainerInstance/2025-09-01/openapi.yaml',
  authorization: 'specs/resource-manager/Provider.Authorization/2020-10-01/openapi.yaml',
} as const;

export async function workspaceCopy(
  prefix: string,
  {
    documents = 'bounded',
    built = false,
    under = tmpdir(),
  }: { documents?: 'bounded' | 'all' | string[]; built?: boolean /** The folder to make the copy in. */; under?: string } = {},
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(under, prefix));
  const config = await readFile(join(ROOT, 'redocly.yaml'), 'utf8');
  const dropped = documents === 'all' ? [] : Array.isArray(documents) ? entriesOtherThan(config, documents) : entriesBeyondOldest(config);
  // What belongs to a left-out document only: its version folder and its outputs.
  const skip = new Set<string>();
  for (const { name, root, output } of dropped) {
    const slug = name.replace(/@/g, '-');
    for (const path of [dirname(root), output, `generated/types/${slug}.ts`, `generated/docs/${slug}.html`]) skip.add(join(ROOT, path));
  }
  const keep = (source: string) => ![...skip].some((path) => source === path || source.startsWith(path + sep));
  for (const entry of BUILD_ENTRIES) await cp(join(ROOT, entry), join(dir, entry), { recursive: true, filter: keep });
  if (built && existsSync(CACHE)) {
    await cp(CACHE, join(dir, relative(ROOT, CACHE)), { recursive: true, filter: (source) => !DIST_RECORD.includes(relative(CACHE, source).split(sep)[0]!) });
  } else if (existsSync(CACHE)) {
    // The docs' Redoc runtime (pipeline/docs-runtime.mjs), made from the CLI's standalone
    // bundle: keyed by the CLI's version and the extraction code, the same in the copy, and
    // checked against its own hash when read. Without it every copy that renders docs makes
    // it again (0.2 s of CPU each: 2.3 MB read and compiled as a script).
    for (const name of readdirSync(CACHE).filter((entry) => entry.startsWith('docs-runtime-'))) {
      await cp(join(CACHE, name), join(dir, relative(ROOT, CACHE), name));
    }
  }
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (dropped.length) {
    const document = parseDocument(config);
    for (const { name } of dropped) document.deleteIn(['apis', name]);
    await writeFile(join(dir, 'redocly.yaml'), String(document));
    // generated/operations.ts and versions.ts list the documents of the copy, not the
    // original's: what `node pipeline/manifest.mjs` writes in the copy, made in this process
    // by this checkout's module (the copy's is the same file, just copied) instead of a Node
    // process per copy.
    await Promise.resolve()
      .then(() => writeManifest(dir, loadApis(dir)))
      .catch((error: Error) => {
        throw new Error(`workspace copy: pipeline/manifest.mjs failed in ${relative(tmpdir(), dir)}\n${error.message}`);
      });
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Makes `edits` (file relative to `dir`, new text from old) in a copy; the returned
 * function puts every edited file back as it was, so several cases can break one copy
 * in turn (and the commands run in-process on it load their engines once).
 */
export async function editFiles(dir: string, edits: Array<[file: string, change: (text: string) => string]>): Promise<() => Promise<void>> {
  const originals = new Map<string, string>();
  for (const [file, change] of edits) {
    const path = join(dir, file);
    const text = await readFile(path, 'utf8');
    if (!originals.has(path)) originals.set(path, text);
    await writeFile(path, change(text));
  }
  return async () => void (await Promise.all([...originals].map(([path, text]) => writeFile(path, text))));
}
