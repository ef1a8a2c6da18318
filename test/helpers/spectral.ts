// Loads the workspace's .spectral.yaml (built-in rules + house rules) once, the way the
// Spectral CLI does, and lints an in-memory document with it.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Yaml } from '@stoplight/spectral-parsers';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { stringify } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');
let spectral: Promise<Spectral> | undefined;

async function load(): Promise<Spectral> {
  const instance = new Spectral();
  // No network: a remote ruleset would fail here rather than be fetched.
  const fetch = () => Promise.reject(new Error('remote rulesets are not allowed'));
  instance.setRuleset(await bundleAndLoadRuleset(join(ROOT, '.spectral.yaml'), { fs, fetch: fetch as never }));
  return instance;
}

export async function lintDocument(document: object): Promise<ISpectralDiagnostic[]> {
  spectral ??= load();
  return (await spectral).run(new Document(stringify(document), Yaml, 'doc.yaml'));
}

export const codesOf = (results: ISpectralDiagnostic[]) => results.map((r) => String(r.code));
