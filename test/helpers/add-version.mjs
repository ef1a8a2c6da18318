// Adds a version of an API to a workspace copy the way specs/README.md says to: copy the
// version folder, write the new version wherever the old one is named in it (info.version,
// the api-version parameter, the business-data server prefix), and list it in redocly.yaml.
// Plain ESM (types in add-version.d.mts), so the benchmarks use the same recipe as the tests.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
// Not fs.promises.readdir's `recursive`: it follows symlinked folders on every Node line.
import { filesUnder } from '../../lib/walk.mjs';

/** Adds `<api>@<to>` as a copy of the version folder `from` (relative to `dir`); returns the new folder, relative. */
export async function addVersion(dir, { api, from, to }) {
  const source = join(dir, from);
  const target = join(dirname(source), to);
  const oldVersion = from.split('/').at(-1);
  await cp(source, target, { recursive: true });
  for (const file of filesUnder(target)) {
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
export async function addProperty(file, name, schema) {
  const text = await readFile(file, 'utf8');
  if (!/^properties:\n/m.test(text)) throw new Error(`${file}: no top-level properties`);
  await writeFile(file, text.replace(/^properties:\n/m, `properties:\n  ${name}:\n${schema.replace(/^/gm, '    ')}\n`));
}
