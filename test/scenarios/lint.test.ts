// The scenarios are linted as Arazzo (npm run lint): a broken document is reported with
// file and line, the real ones are clean, and the role eligibility check lists exactly
// the 22 Status values of the spec.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: plain ESM script without types
import { lintScenarios, readScenario, scenarioFiles } from '../../contract/scenarios.mjs';
// @ts-expect-error: plain ESM script without types
import * as trust from '../../pipeline/trust.mjs';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const ROOT = join(import.meta.dirname, '../..');

describe('Arazzo scenarios lint', () => {
  it('the scenarios of specs/scenarios/ are clean', async () => {
    // The five of the source's operations at least; a scenario added by the recipe is linted too.
    expect(scenarioFiles(ROOT).map((file: string) => file.split(/[\\/]/).at(-1))).toEqual(
      expect.arrayContaining([
        'cached-images-paging.arazzo.yaml',
        'name-check.arazzo.yaml',
        'role-eligibility.arazzo.yaml',
        'shipment-method.arazzo.yaml',
        'vendor-etag.arazzo.yaml',
      ]),
    );
    expect(await lintScenarios({ root: ROOT, guard: trust })).toEqual([]);
  });

  it('a broken scenario is reported with file:line', async () => {
    // In a workspace copy, with the copy's own lint: lint reads only specs/
    // (docs/security.md), and a broken file written into this checkout's specs/ would be
    // read by the tests that walk specs/ at the same time.
    const { dir, remove } = await workspaceCopy('scenario-lint-');
    try {
      // The copy's own guard too: it lets a scenario read the copy's specs/ only.
      const { lintScenarios: lintInCopy } = await import(pathToFileURL(join(dir, 'contract/scenarios.mjs')).href);
      const guard = await import(pathToFileURL(join(dir, 'pipeline/trust.mjs')).href);
      const file = join(dir, 'specs/scenarios/broken.arazzo.yaml');
      const text = readFileSync(join(ROOT, 'specs/scenarios/shipment-method.arazzo.yaml'), 'utf8').replace('- stepId: create', '- stepid: create');
      writeFileSync(file, text);
      const findings = await lintInCopy({ root: dir, guard, files: [file] });
      const line = text.split('\n').findIndex((l) => l.includes('stepid: create')) + 1;
      expect(findings.map((f: any) => `${f.line} ${f.severity} ${f.rule}`)).toContain(`${line} error struct`);
      expect(findings.some((f: any) => /stepId/.test(f.message))).toBe(true);
      // The guard handed in is applied: a source description outside specs/ is refused before Redocly reads it.
      const outside = join(dir, 'specs/scenarios/outside.arazzo.yaml');
      writeFileSync(outside, text.replace(/(sourceDescriptions:\s*\n\s*- name: \S+\s*\n\s*url: ).*/, '$1../../package.json'));
      const refused = await lintInCopy({ root: dir, guard, files: [outside] });
      expect(refused.map((f: any) => `${f.tool} ${f.rule}`)).toEqual(['trust ref-outside-specs']);
    } finally {
      await remove();
    }
  });

  it('the status check lists exactly the Status enum of the spec', () => {
    const scenario = readScenario(join(ROOT, 'specs/scenarios/role-eligibility.arazzo.yaml'));
    const regex = scenario.workflows[0].steps[0].successCriteria.find((c: any) => c.type === 'regex').condition as string;
    const listed = /^\^\((.*)\)\$$/.exec(regex)![1]!.split('|');
    const bundle = parse(readFileSync(join(ROOT, 'generated/bundled/authorization-2020-10-01.yaml'), 'utf8'));
    const statuses = bundle.components.schemas.Status.enum;
    expect(statuses).toHaveLength(22);
    expect([...listed].sort()).toEqual([...statuses].sort());
  });
});
