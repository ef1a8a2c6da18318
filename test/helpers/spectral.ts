// Loads the workspace's .spectral.yaml (built-in rules + house rules) once, the way the
// Spectral CLI does, and lints an in-memory document with it. `suppress` lints with a
// ruleset that extends it by `overrides` turning rules off at given places (a file and a
// JSON pointer), the way a suppression is written in .spectral.yaml (docs/lint.md).
import * as fs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Yaml } from '@stoplight/spectral-parsers';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { stringify } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { shareSchemaValidators } from '../../pipeline/spectral-ajv.mjs';

const ROOT = join(import.meta.dirname, '../..');
// The validators as the build's Spectral thread keeps them (pipeline/spectral-ajv.mjs): a
// ruleset's own schemas (the OpenAPI schema every document is checked against) compiled
// once, not again for every document linted here.
shareSchemaValidators();
let spectral: Promise<Spectral> | undefined;
// No network: a remote ruleset would fail here rather than be fetched.
const noFetch = (() => Promise.reject(new Error('remote rulesets are not allowed'))) as never;

async function load(ruleset = join(ROOT, '.spectral.yaml')): Promise<Spectral> {
  const instance = new Spectral();
  instance.setRuleset(await bundleAndLoadRuleset(ruleset, { fs, fetch: noFetch }));
  return instance;
}

/**
 * A result's path as Spectral's overrides match it: a JSON pointer (RFC 6901) written as a
 * URI fragment, each segment percent-encoded (`{` is `%7B`): `#/paths/~1things~1%7Bid%7D/get`.
 */
export const pointerOf = (path: ReadonlyArray<string | number>) =>
  `#${path.map((key) => `/${encodeURIComponent(String(key).replace(/~/g, '~0').replace(/\//g, '~1'))}`).join('')}`;

export interface Suppression {
  rule: string;
  /** Where: `pointerOf` a result's path (after the file name in the override's `files`). */
  pointer: string;
}

export async function lintDocument(document: object, { suppress = [] }: { suppress?: Suppression[] } = {}): Promise<ISpectralDiagnostic[]> {
  if (suppress.length === 0) {
    spectral ??= load();
    return (await spectral).run(new Document(stringify(document), Yaml, 'doc.yaml'));
  }
  const dir = mkdtempSync(join(tmpdir(), 'spectral-suppress-'));
  try {
    const overrides = suppress.map(({ rule, pointer }) => ({ files: [`doc.yaml${pointer}`], rules: { [rule]: 'off' } }));
    writeFileSync(join(dir, 'ruleset.yaml'), stringify({ extends: [join(ROOT, '.spectral.yaml')], overrides }));
    return await (await load(join(dir, 'ruleset.yaml'))).run(new Document(stringify(document), Yaml, join(dir, 'doc.yaml')));
  } finally {
    rmSync(dir, { recursive: true, force: true }); // the ruleset is loaded (bundled) by now
  }
}

/**
 * Lints each document with one ruleset that extends .spectral.yaml by `overrides`, each
 * entry scoped to its own document's file (`<name>.yaml#<pointer>`), as a .spectral.yaml
 * with several suppressions holds them: one ruleset load (bundling the house rules' functions
 * takes about 0.2 s of CPU) for all of them instead of one per document. Results by name.
 */
export async function lintWithSuppressions(
  documents: { name: string; document: object; suppress: Suppression[] }[],
): Promise<Map<string, ISpectralDiagnostic[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'spectral-suppress-'));
  try {
    return await lintUnder(dir, documents);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function lintUnder(dir: string, documents: { name: string; document: object; suppress: Suppression[] }[]): Promise<Map<string, ISpectralDiagnostic[]>> {
  const overrides = documents.flatMap(({ name, suppress }) =>
    suppress.map(({ rule, pointer }) => ({ files: [`${name}.yaml${pointer}`], rules: { [rule]: 'off' } })),
  );
  writeFileSync(join(dir, 'ruleset.yaml'), stringify({ extends: [join(ROOT, '.spectral.yaml')], overrides }));
  const instance = await load(join(dir, 'ruleset.yaml'));
  const results = new Map<string, ISpectralDiagnostic[]>();
  for (const { name, document } of documents) results.set(name, await instance.run(new Document(stringify(document), Yaml, join(dir, `${name}.yaml`))));
  return results;
}

export const codesOf = (results: ISpectralDiagnostic[]) => results.map((r) => String(r.code));
