// A throw-away workspace that serves N documents: the five bundled documents replicated
// `copies` times under new names and paths (`Provider.Sql7`, `vendors7(...)`), listed in
// its own redocly.yaml. Only what the mock reads is there (scripts, bundles, redocly.yaml,
// package.json; node_modules linked): nothing is generated or committed.
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadApis } from '../../model/apis.mjs';
import { ROOT } from './workspace-copy.mjs';

/** The path template of copy k (k = 0: the original). */
export function renamePath(path, family, k) {
  if (k === 0) return path;
  return family === 'resource-manager'
    ? path.replace(/\/providers\/(Provider\.[A-Za-z]+)\//, `/providers/$1${k}/`)
    : path.replace(/\/([A-Za-z]+)(\(\{[^}]+\}\))?$/, `/$1${k}$2`);
}

export async function scaledWorkspace(copies) {
  const dir = await mkdtemp(join(tmpdir(), `bench-mock-${copies * 5}-`));
  for (const room of ['lib', 'model', 'mock']) await cp(join(ROOT, room), join(dir, room), { recursive: true });
  await cp(join(ROOT, 'package.json'), join(dir, 'package.json'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  await mkdir(join(dir, 'generated/bundled'), { recursive: true });
  const apis = {};
  for (const api of loadApis(ROOT)) {
    const text = await readFile(api.bundle, 'utf8');
    for (let k = 0; k < copies; k++) {
      const document = parse(text);
      document.paths = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [renamePath(path, api.family, k), item]));
      const name = k === 0 ? api.name : api.name.replace('@', `${k}@`);
      const output = `generated/bundled/${k === 0 ? basename(api.bundle) : name.replace('@', '-')}.yaml`;
      await writeFile(join(dir, output), k === 0 ? text : stringify(document));
      apis[name] = { root: api.rootRelative, output };
    }
  }
  await writeFile(join(dir, 'redocly.yaml'), stringify({ apis }));
  return { dir, documents: copies * 5, remove: () => rm(dir, { recursive: true, force: true }) };
}
