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
    const [apiName, version = ''] = name.split('@');
    return {
      name,
      /** The part before `@`: what `apiVersions: { <apiName>: ... }` names in the clients. */
      apiName,
      /** The part after `@`: an api-version (`2025-01-01`, `2025-06-01-preview`) or `v2.0`. */
      version,
      preview: isPreview(version),
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

/** A version ending in `-preview` is never a default. */
export const isPreview = (version) => /-preview$/i.test(version);

/**
 * Orders versions oldest first: by their numbers (`2025-01-01` < `2025-06-01`,
 * `v1.0` < `v2.0` < `v10.0`), and a preview before the stable version of the same date.
 */
export function compareVersions(a, b) {
  const numbers = (v) => (v.match(/\d+/g) ?? []).map(Number);
  const [x, y] = [numbers(a), numbers(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d) return d;
  }
  return Number(!isPreview(a)) - Number(!isPreview(b)) || a.localeCompare(b);
}

/** The version a client sends by default: the newest that is not a preview (undefined if all are). */
export const defaultVersionOf = (versions) => [...versions].filter((v) => !isPreview(v)).sort(compareVersions).at(-1);
