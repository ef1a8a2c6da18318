#!/usr/bin/env node
// `npm run lint [api…]`: Redocly (recommended-strict, from redocly.yaml) and Spectral
// (spectral:oas + house rules, from .spectral.yaml) over every API in redocly.yaml, or the
// named ones. Any error, warning or info fails, printed as file:line:col; a hint is a note
// (a house rule's advice), printed and never failing.
import { resolve } from 'node:path';
import { formatFinding, createPipeline } from './engines.mjs';
import { isMain, runCommand } from '../lib/findings.mjs';
import { seconds } from '../lib/run.mjs';
import { lintScenarios, scenarioFiles } from '../contract/scenarios.mjs';
import { DOCUMENTS_IN_FLIGHT, mapLimit } from '../lib/pool.mjs';
import * as trust from './trust.mjs';

/**
 * Lints the given APIs plus redocly.yaml itself; returns all findings. A few documents at
 * a time: each lint holds its document's resolved tree, so peak memory stays per document.
 */
export async function lintAll(pipeline, apis = pipeline.apis, edits = new Map()) {
  // `edits`: per API name, what changed since its last clean lint (lib/incremental.mjs);
  // such a document is linted by the path items the edit reached (lib/slice.mjs).
  const perApi = await mapLimit(apis, DOCUMENTS_IN_FLIGHT, (api) => pipeline.lint(api, edits.get(api.name)));
  const findings = [...(await pipeline.lintConfig(apis)), ...perApi.flat()];
  // A file shared by several documents (specs/common/) is reported once, not once per API.
  return [...new Map(findings.map((f) => [formatFinding(f), f])).values()];
}

/**
 * The command: lints the named APIs (all when none), prints the findings and a verdict,
 * and returns the exit code (0 clean, 1 findings, 2 an unknown API name).
 */
export const main = (names = process.argv.slice(2)) =>
  runCommand('lint', async () => {
    const start = performance.now();
    const root = resolve(import.meta.dirname, '..'); // the checkout this command belongs to
    const pipeline = await createPipeline({ root });
    const apis = names.length ? pipeline.apis.filter((api) => names.includes(api.name)) : pipeline.apis;
    if (names.length && apis.length !== names.length) {
      console.error(`lint  unknown API in ${names.join(', ')}; known: ${pipeline.apis.map((a) => a.name).join(', ')}`);
      return 2;
    }
    // The Arazzo scenarios (specs/scenarios/) are not APIs: Redocly lints them on their own.
    const scenarios = names.length ? [] : scenarioFiles(root);
    // A scenario reads its documents too (sourceDescriptions): a problem in one is printed once.
    const all = [...(await lintAll(pipeline, apis)), ...(await lintScenarios({ root, guard: trust, files: scenarios }))];
    const findings = [...new Map(all.map((f) => [formatFinding(f), f])).values()];
    for (const f of findings) console.error(formatFinding(f));
    // Notes (house rules' advice, severity hint): shown, never failing.
    const notes = [...new Map(apis.flatMap((api) => pipeline.notes.get(api.name) ?? []).map((f) => [formatFinding(f), f])).values()];
    for (const f of notes) console.log(formatFinding({ ...f, severity: 'note' }));
    const verdict = findings.length ? `FAILED with ${findings.length} problem(s)` : 'passed';
    const arazzo = scenarios.length ? ` + ${scenarios.length} Arazzo scenarios` : '';
    console.log(`lint  ${verdict}: redocly + spectral, ${apis.length} documents${arazzo}, ${seconds(start)}`);
    return findings.length ? 1 : 0;
  });

if (isMain(import.meta.url)) process.exitCode = await main();
