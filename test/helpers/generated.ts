// Reads the JSON constants of a workspace's generated TypeScript (`export const <name> =
// <JSON> as const;`) without importing it: a workspace copy's own generated/ files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The value of `export const <name>` in generated source text. */
export function generatedConst(source: string, name: string): any {
  const found = new RegExp(`export const ${name} = ([\\s\\S]*?) as const;`).exec(source);
  if (!found) throw new Error(`no "export const ${name} = … as const;" in the generated source`);
  return JSON.parse(found[1]!);
}

/** The same, read from `<dir>/generated/<file>`. */
export const readGeneratedConst = async (dir: string, file: string, name: string) => generatedConst(await readFile(join(dir, 'generated', file), 'utf8'), name);
