// A throw-away workspace of N documents (never committed): the five documents of this
// workspace, each replicated as further versions the way specs/README.md adds one (copy
// the version folder, write the new version wherever the old one is named, list it in
// redocly.yaml). Every copy is lint clean and reads specs/common/ like its original, so
// an edit there reaches every copy of the documents that reference it.
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { workspaceCopy } from './workspace-copy.mjs';

async function* files(dir) {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    if ((await stat(path)).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** The k-th new version after `version`: 2025-01-01 -> 2026-01-01, ...; v2.0 -> v2.1, ... */
function nextVersion(version, k) {
  const date = /^(\d{4})(-\d\d-\d\d)$/.exec(version);
  if (date) return `${Number(date[1]) + k}${date[2]}`;
  const v = /^v(\d+)\.(\d+)$/.exec(version);
  if (v) return `v${v[1]}.${Number(v[2]) + k}`;
  throw new Error(`no rule to make a new version from ${version}`);
}

/**
 * Adds `apiName@to` to the workspace at `dir` as specs/README.md says: copies the version
 * folder `from` (e.g. specs/resource-manager/Provider.Sql/2025-01-01), writes `to` wherever
 * the old version is named, and lists it in redocly.yaml. Several at once: one config write.
 */
export async function addVersions(dir, additions) {
  const entries = [];
  for (const { apiName, from, to } of additions) {
    const version = from.split('/').at(-1);
    const target = join(dir, dirname(from), to);
    await cp(join(dir, from), target, { recursive: true });
    for await (const file of files(target)) {
      const text = await readFile(file, 'utf8');
      if (text.includes(version)) await writeFile(file, text.replaceAll(version, to));
    }
    entries.push(`  ${apiName}@${to}:\n    root: ${dirname(from)}/${to}/openapi.yaml\n    output: generated/bundled/${apiName}-${to}.yaml\n`);
  }
  const config = join(dir, 'redocly.yaml');
  await writeFile(config, (await readFile(config, 'utf8')).replace('apis:\n', `apis:\n${entries.join('')}`));
}

export async function workspaceOfN(n, prefix = `bench-n${n}-`) {
  const copy = await workspaceCopy(prefix);
  const apis = Object.entries(parse(await readFile(join(copy.dir, 'redocly.yaml'), 'utf8')).apis);
  const additions = [];
  for (let i = apis.length; i < n; i++) {
    const [name, { root }] = apis[i % apis.length];
    const [apiName, version] = name.split('@');
    additions.push({ apiName, from: dirname(root), to: nextVersion(version, Math.floor(i / apis.length)) });
  }
  await addVersions(copy.dir, additions);
  return copy;
}
