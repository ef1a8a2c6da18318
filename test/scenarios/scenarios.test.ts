// The Arazzo scenarios of specs/scenarios/, run by `redocly respect` against the contract
// project's mock: every step of every entry workflow must pass, and the walks that must
// go somewhere (three outcomes, the eTag sequence, several pages) must really have gone
// there. The token travels through the environment only; Respect's report must not hold it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { entryWorkflows, runScenarios, scenarioFiles } from '../../contract/scenarios.mjs';

const ROOT = join(import.meta.dirname, '../..');
const TOKEN = `scenario-token-${randomUUID()}`;
const reportDir = mkdtempSync(join(tmpdir(), 'scenario-report-'));
let results: any[];

beforeAll(async () => {
  // A fresh vendor id: the mock starts a vendor it has not seen at the spec's eTag.
  results = await runScenarios({ root: ROOT, server: inject('mockUrl'), token: TOKEN, inputs: { vendor_id: randomUUID() }, keepReportIn: reportDir });
}, 120_000);
afterAll(() => rmSync(reportDir, { recursive: true, force: true }));

const workflow = (id: string) => results.find((w) => w.workflowId === id);
const ran = (id: string) => workflow(id)?.steps.filter((s: any) => s.ran) ?? [];

describe('Arazzo scenarios against the mock (redocly respect)', () => {
  it('runs every entry workflow of specs/scenarios/', () => {
    const expected = entryWorkflows(scenarioFiles(ROOT))
      .map((e: any) => e.workflow.workflowId)
      .sort();
    // The source's five at least (a scenario the recipe adds runs here too).
    expect(expected).toEqual(
      expect.arrayContaining(['createShipmentMethodEcho', 'nameCheckOutcomes', 'readRoleEligibilityRequest', 'vendorETagConcurrency', 'walkCachedImages']),
    );
    expect(results.map((w) => w.workflowId).sort()).toEqual(expected);
  });

  // Every entry workflow there is, read from the files: a grown scenario is held to it too.
  it.each((entryWorkflows(scenarioFiles(ROOT)) as Array<{ workflow: { workflowId: string } }>).map((e) => e.workflow.workflowId))(
    '%s: every step passes',
    (id: string) => {
      const steps = workflow(id)?.steps ?? [];
      const failures = steps.filter((s: any) => (s.ran && !s.passed) || (!s.ran && s.reason !== 'ended'));
      expect(failures, JSON.stringify(failures, null, 2)).toEqual([]);
      expect(workflow(id)?.passed).toBe(true);
    },
  );

  it('name check: the three outcomes and both 400 codes were each asked', () => {
    expect(ran('nameCheckOutcomes').map((s: any) => `${s.stepId} ${s.status}`)).toEqual([
      'freeName 200',
      'takenName 200',
      'invalidName 200',
      'unknownNameType 400',
      'invalidRequest 400',
    ]);
  });

  it('vendor: stale eTag refused (412), current one applied, the change still there after', () => {
    expect(ran('vendorETagConcurrency').map((s: any) => `${s.stepId} ${s.status}`)).toEqual(['staleUpdate 412', 'currentUpdate 200', 'changePersisted 200']);
  });

  it('cached images: walked through nextLink to the last page (the mock serves several)', () => {
    const pages = ran('walkCachedImages');
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.every((p: any) => p.passed && p.status === 200)).toBe(true);
    // Every page after the first is the nextLink of the one before, on the mock's origin.
    for (const page of pages.slice(1)) expect(page.url.startsWith(inject('mockUrl'))).toBe(true);
    // It stopped because a page had no nextLink, not because the unrolled walk ran out.
    expect(pages.length).toBeLessThan(10);
  });

  it('the token is in no result and in nothing Respect wrote', () => {
    expect(JSON.stringify(results)).not.toContain(TOKEN);
    const files = readdirSync(reportDir);
    expect(files).toContain('respect.json');
    for (const file of files) expect(readFileSync(join(reportDir, file), 'utf8')).not.toContain(TOKEN);
    // ...while it was sent: the report shows the masked header.
    expect(readFileSync(join(reportDir, 'respect.json'), 'utf8')).toMatch(/"authorization": "Bearer \*{8}"/);
  });
});
