// The list of APIs, read once from redocly.yaml (`apis:`), the single place that names
// them. Every pipeline step (lint, bundle, types, docs, mock) iterates this list.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const GENERATED = join(ROOT, 'generated');

/** `authorization@2020-10-01` -> `authorization-2020-10-01`: a file-name-safe slug. */
export const slugOf = (name) => name.replace(/@/g, '-');

export function loadApis() {
  const config = parse(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8'));
  return Object.entries(config.apis).map(([name, { root, output }]) => {
    const slug = slugOf(name);
    return {
      name,
      slug,
      root: join(ROOT, root),
      rootRelative: root,
      specDir: dirname(join(ROOT, root)),
      family: root.includes('/resource-manager/') ? 'resource-manager' : 'business-central',
      bundle: join(ROOT, output),
      types: join(GENERATED, 'types', `${slug}.ts`),
      docs: join(GENERATED, 'docs', `${slug}.html`),
    };
  });
}

export const rel = (path) => relative(ROOT, path);
