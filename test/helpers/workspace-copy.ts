// A throw-away copy of what the pipeline needs (specs, scripts, configs, generated/;
// node_modules linked), for tests that break specs or run `npm run dev` on purpose.
//
// What these tests check is how the pipeline treats a document (lint, build, cache, watch,
// kills), not the documents themselves, so by default the copy holds a bounded set: the
// oldest version of each API, the documents the tests name. A workspace of five documents
// is copied whole; one of a hundred (versions added over the years) is copied down to one
// version per API, so that the time of these tests does not grow with the documents.
// `{ documents: 'all' }` copies every document (a test of "the workspace as it is").
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { compareVersions } from '../../scripts/lib/apis.mjs';

const ROOT = join(import.meta.dirname, '../..');
const ENTRIES = ['specs', 'scripts', 'spectral', 'generated', 'src', 'redocly.yaml', '.spectral.yaml', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

interface Entry {
  name: string;
  root: string;
  output: string;
}

/** The redocly.yaml entries a bounded copy leaves out: every version of an API but its oldest. */
export function entriesBeyondOldest(config: string): Entry[] {
  const apis = Object.entries<any>((parseDocument(config).toJS() as any).apis ?? {}).map(([name, { root, output }]) => ({ name, root, output }));
  const oldest = new Map<string, Entry>();
  for (const entry of apis) {
    const [apiName, version] = entry.name.split('@') as [string, string];
    const kept = oldest.get(apiName);
    if (!kept || compareVersions(version, kept.name.split('@')[1]) < 0) oldest.set(apiName, entry);
  }
  const kept = new Set(oldest.values());
  return apis.filter((entry) => !kept.has(entry));
}

export async function workspaceCopy(
  prefix: string,
  { documents = 'bounded' }: { documents?: 'bounded' | 'all' } = {},
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const config = await readFile(join(ROOT, 'redocly.yaml'), 'utf8');
  const dropped = documents === 'all' ? [] : entriesBeyondOldest(config);
  // What belongs to a left-out document only: its version folder and its outputs.
  const skip = new Set<string>();
  for (const { name, root, output } of dropped) {
    const slug = name.replace(/@/g, '-');
    for (const path of [dirname(root), output, `generated/types/${slug}.ts`, `generated/docs/${slug}.html`]) skip.add(join(ROOT, path));
  }
  const keep = (source: string) => ![...skip].some((path) => source === path || source.startsWith(path + sep));
  for (const entry of ENTRIES) await cp(join(ROOT, entry), join(dir, entry), { recursive: true, filter: keep });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (dropped.length) {
    const document = parseDocument(config);
    for (const { name } of dropped) document.deleteIn(['apis', name]);
    await writeFile(join(dir, 'redocly.yaml'), String(document));
    // generated/operations.ts and versions.ts list the documents of the copy, not the original's.
    const manifest = spawnSync(process.execPath, ['scripts/manifest.mjs'], { cwd: dir, encoding: 'utf8' });
    if (manifest.status !== 0) throw new Error(`workspace copy: scripts/manifest.mjs failed in ${relative(tmpdir(), dir)}\n${manifest.stdout}${manifest.stderr}`);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
