// The build cache: content hashes in, content hashes out, so `npm run build` redoes only
// what an edit reached. Entries live in .cache/provider-api/ (gitignored, per worktree,
// so a workspace copy starts cold), one JSON file each, written atomically.
//
// Nothing in it is trusted blindly:
// - every entry carries the SHA-256 of its own body; one that does not parse or does not
//   match (a torn disk, a hand edit) is reported as corrupt and the work is redone;
// - every entry is stamped with the workspace key (tool versions from package-lock.json,
//   Node's version, redocly.yaml but its `apis:` list, .spectral.yaml, rules/,
//   the pipeline's own source): when any of those changes, every entry is stale. Each
//   `apis:` entry keys its own document instead (lib/incremental.mjs), so adding or
//   re-pointing one version redoes that document, not every document (removing one
//   redoes none; the manifest, keyed on the list, drops it);
// - an entry names the input files it was made from with their hashes (for a document:
//   the bundle's fileDependencies) and the outputs it produced with theirs; it is used only
//   when every input still hashes the same and every output is still on disk, unchanged.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { CODE_ROOMS } from '../model/workspace-paths.mjs';
import { writeFileAtomic } from '../lib/files.mjs';
import { readYamlObject } from '../lib/findings.mjs';
// Not readdirSync's `recursive`: it follows symlinked folders on Node 22+ only (lib/walk.mjs).
import { filesUnder } from '../lib/walk.mjs';

/** Bump when the entry format changes. */
const FORMAT = 1;

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

// The tools whose output the cache stores: a new version of any of them redoes everything.
const TOOLS = [
  '@redocly/cli',
  '@redocly/openapi-core',
  '@stoplight/spectral-core',
  '@stoplight/spectral-parsers',
  '@stoplight/spectral-ruleset-bundler',
  '@stoplight/spectral-rulesets',
  'openapi-typescript',
  'typescript',
  'typescript-7',
  'yaml',
];

/**
 * The tool versions the lockfile pins (what `npm ci` installed); without a lockfile (a
 * bare copy of the workspace), the versions installed in node_modules.
 */
export function toolVersions(root) {
  const lockFile = join(root, 'package-lock.json');
  const lock = existsSync(lockFile) ? JSON.parse(readFileSync(lockFile, 'utf8')) : undefined;
  const installed = (name) => {
    const file = join(root, 'node_modules', name, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : null;
  };
  return Object.fromEntries(TOOLS.map((name) => [name, lock ? (lock.packages?.[`node_modules/${name}`]?.version ?? null) : installed(name)]));
}

/**
 * What of redocly.yaml every document's lint and bundle read: all of it but `apis:`. The
 * list of documents grows every week; a document's own entry is part of its own cache
 * entry (api.configKey, lib/apis.mjs), and what reads the whole list (the manifest, the
 * docs landing page) has entries keyed on the list itself. The checks across documents in
 * lint (lib/version-checks.mjs: no two entries claim one root or output) run over the
 * whole list whenever any document is linted: a new or edited entry is; a removed one
 * cannot make two entries clash.
 * A file that does not parse is keyed by its text (the build then fails on it anyway).
 */
function redoclyConfigKey(root) {
  const file = join(root, 'redocly.yaml');
  const { value } = readYamlObject(file, 'Redocly configuration');
  if (!value) return existsSync(file) ? readFileSync(file, 'utf8') : 'absent';
  const { apis: _apis, ...config } = value;
  return JSON.stringify(config);
}

/**
 * The workspace key of the workspace at `root`: everything besides a document's own files
 * that decides what the pipeline makes of it. Computed once per process (per workspace).
 */
const workspaceKeys = new Map();
export function workspaceKeyOf(root) {
  if (workspaceKeys.has(root)) return workspaceKeys.get(root);
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ format: FORMAT, node: process.version, tools: toolVersions(root) }));
  hash.update(`redocly.yaml\0${redoclyConfigKey(root)}\0`);
  const inputs = [
    join(root, '.spectral.yaml'),
    // The code that makes what the cache holds: every room but the mock's (its files make
    // no output the cache holds, so a mock edit keeps every entry).
    ...CODE_ROOMS.filter((room) => room !== 'mock').flatMap((room) => filesUnder(join(root, room), (file) => /\.m?js$/.test(file))),
  ];
  hashInputs(hash, root, inputs);
  const key = hash.digest('hex');
  workspaceKeys.set(root, key);
  return key;
}

/** Feeds `hash` each file's path (relative to `root`) and content, `absent` for a missing one. */
export function hashInputs(hash, root, files) {
  for (const file of files) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(existsSync(file) ? readFileSync(file) : 'absent');
    hash.update('\0');
  }
  return hash;
}

/**
 * Sets the memo of the workspace key of `root` (`undefined`: computed again from the files
 * on next use; no root: of every workspace). `npm run dev` drops it before it loads a saved config, so what it records after
 * that is stamped with the new key, and puts the previous one back when the config is
 * refused (it keeps working with the previous pipeline, so it records under its key).
 * @param {string} [root]
 * @param {string} [previous]
 */
export function forgetWorkspaceKey(root = undefined, previous = undefined) {
  if (root === undefined) workspaceKeys.clear();
  else if (previous === undefined) workspaceKeys.delete(root);
  else workspaceKeys.set(root, previous);
}

/** SHA-256 of each file (absolute, or relative to `root`), by its path relative to `root`; a missing file hashes as null. */
export async function hashFiles(files, root) {
  const paths = files.map((file) => resolve(root, file));
  const entries = await Promise.all(paths.map(async (path) => [relative(root, path), await readFile(path).then(sha256, () => null)]));
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** True when every file (relative to `root`) still hashes as recorded. */
export async function unchanged(root, recorded) {
  if (!recorded || typeof recorded !== 'object') return false;
  const files = Object.keys(recorded);
  const now = await hashFiles(files, root);
  return files.every((file) => recorded[file] !== null && now[file] === recorded[file]);
}

const entryFile = (root, name) => join(root, '.cache', 'provider-api', `${name.replace(/[^A-Za-z0-9@._-]/g, '_')}.json`);

/**
 * Reads an entry of the cache of the workspace at `root`. Returns `{ value }`, or `{ miss: 'absent' | 'corrupt' | 'stale' }`:
 * corrupt = does not parse or its hash does not match; stale = made under another
 * workspace key.
 */
export async function readEntry(root, name) {
  let text;
  try {
    text = await readFile(entryFile(root, name), 'utf8');
  } catch {
    return { miss: 'absent' };
  }
  try {
    const { sha, body } = JSON.parse(text);
    if (typeof body !== 'string' || sha !== sha256(body)) return { miss: 'corrupt' };
    const entry = JSON.parse(body);
    if (entry.key !== workspaceKeyOf(root)) return { miss: 'stale' };
    return { value: entry.value };
  } catch {
    return { miss: 'corrupt' };
  }
}

/** Writes an entry atomically (temporary file + rename), stamped with the workspace key. */
export async function writeEntry(root, name, value) {
  const body = JSON.stringify({ key: workspaceKeyOf(root), value });
  await writeFileAtomic(entryFile(root, name), JSON.stringify({ sha: sha256(body), body }));
}
