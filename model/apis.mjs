// The list of APIs, read once from redocly.yaml (`apis:`), the single place that names
// them. Every pipeline step (lint, bundle, types, docs, mock) iterates this list.
import { dirname, join } from 'node:path';
import { finding, InputError, positionOf, readYamlObject } from '../lib/findings.mjs';
import { familyOfRoot } from './family.mjs';
import { outsideGenerated, outsideSpecs } from './workspace-paths.mjs';

/** `authorization@2020-10-01` -> `authorization-2020-10-01`: a file-name-safe slug. */
export const slugOf = (name) => name.replace(/@/g, '-');

/**
 * The `apis:` of the redocly.yaml of the workspace at `root`, with their files' absolute
 * paths; an unreadable or malformed file is an InputError naming file and line.
 */
export function loadApis(root) {
  const file = join(root, 'redocly.yaml');
  const config = readYamlObject(file, 'Redocly configuration', root);
  if (config.findings) throw new InputError(config.findings);
  const problem = (path, message) => {
    const { line, col } = positionOf(config, path);
    return finding('workspace', file, line, col, 'error', 'apis-entry', message, root);
  };
  const entries = config.value.apis;
  if (!entries || typeof entries !== 'object' || Array.isArray(entries) || !Object.keys(entries).length) {
    throw new InputError([problem(['apis'], '`apis:` must map each `<api>@<version>` to its `root` and `output`')]);
  }
  const findings = [];
  for (const [name, entry] of Object.entries(entries)) {
    if (!/^[a-z][a-z0-9-]*@[A-Za-z0-9][\w.-]*$/.test(name))
      findings.push(problem(['apis', name], `"${name}" is not of the form <api>@<version> (e.g. sql@2025-01-01)`));
    if (typeof entry?.root !== 'string' || typeof entry?.output !== 'string') {
      findings.push(problem(['apis', name], `"${name}" needs a \`root\` and an \`output\` path`));
      continue;
    }
    // The build reads only specs/ and writes only generated/ (docs/security.md).
    const outsideRoot = outsideSpecs(root, join(root, entry.root));
    if (outsideRoot) findings.push(problem(['apis', name, 'root'], `\`root\` ${entry.root} ${outsideRoot}; a root document must be in specs/`));
    const outsideOutput = outsideGenerated(root, join(root, entry.output));
    if (outsideOutput) findings.push(problem(['apis', name, 'output'], `\`output\` ${entry.output} ${outsideOutput}; the build writes only inside generated/`));
  }
  if (findings.length) throw new InputError(findings);
  return Object.entries(entries).map(([name, entry]) => {
    const { output } = entry;
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
      root: join(root, entry.root),
      rootRelative: entry.root,
      specDir: dirname(join(root, entry.root)),
      family: familyOfRoot(entry.root),
      bundle: join(root, output),
      types: join(root, 'generated', 'types', `${slug}.ts`),
      docs: join(root, 'generated', 'docs', `${slug}.html`),
      /**
       * Its redocly.yaml entry as the build cache keys it (root, output and any setting
       * of its own): an edit of it redoes this document only (lib/cache.mjs).
       */
      configKey: JSON.stringify([name, entry]),
    };
  });
}

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
export const defaultVersionOf = (versions) =>
  [...versions]
    .filter((v) => !isPreview(v))
    .sort(compareVersions)
    .at(-1);
