// Adds a version of an API to a workspace copy the way specs/README.md says to: copy the
// version folder, write the new version wherever the old one is named in it (info.version,
// the api-version parameter, the business-data server prefix), and list it in redocly.yaml.
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    if ((await stat(path)).isDirectory()) yield* files(path);
    else yield path;
  }
}

export async function addVersion(dir: string, { api, from, to }: { api: string; from: string; to: string }): Promise<string> {
  const source = join(dir, from);
  const target = join(dirname(source), to);
  const oldVersion = from.split('/').at(-1)!;
  await cp(source, target, { recursive: true });
  for await (const file of files(target)) {
    const text = await readFile(file, 'utf8');
    if (text.includes(oldVersion)) await writeFile(file, text.replaceAll(oldVersion, to));
  }
  const root = `${dirname(from)}/${to}/openapi.yaml`;
  const config = join(dir, 'redocly.yaml');
  const entry = `  ${api}@${to}:\n    root: ${root}\n    output: generated/bundled/${api}-${to}.yaml\n`;
  await writeFile(config, (await readFile(config, 'utf8')).replace('apis:\n', `apis:\n${entry}`));
  return join(dirname(from), to);
}

/** Adds an optional property to a schema file (a visible change of the new version). */
export async function addProperty(file: string, name: string, schema: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!/^properties:\n/m.test(text)) throw new Error(`${file}: no top-level properties`);
  await writeFile(file, text.replace(/^properties:\n/m, `properties:\n  ${name}:\n${schema.replace(/^/gm, '    ')}\n`));
}
