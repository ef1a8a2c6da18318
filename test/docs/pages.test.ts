// Opens every docs page (landing + one per document) in headless Chromium, served by
// `npm run docs:serve`, with every non-local request blocked and counted. What the pages
// must show is read from the manifest and the bundles, not from the docs build.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { apis, bundled, deref, ROOT } from '../helpers/bundles.js';
import { sample } from '../helpers/sample.js';
// @ts-expect-error: plain ESM scripts without types
import { mockUrlOf, operationsIn } from '../../site/samples.mjs';
import { CHROMIUM, launch, type Browser } from './browser.js';
import { byName, exampleGroups, onePerShape, operationOf, switchersOf } from './shapes.js';
import { ensureDocs, pageOf, startDocsServer, type DocsServer } from './support.js';

const CI = !!process.env.CI && process.env.CI !== 'false';
if (!CHROMIUM && !CI) {
  console.warn(
    '\n*** DOCS BROWSER TEST SKIPPED: no Chromium at /usr/bin/chromium (or $CHROMIUM_PATH). Install it with `apt-get install -y --no-install-recommends chromium fonts-liberation`. ***\n',
  );
}

// Redoc batches its telemetry and would send it about 5 s after load: every page stays
// open at least this long before the outbound count is final.
const SETTLE_MS = Number(process.env.DOCS_SETTLE_MS ?? 7000);
const SHOTS = join(ROOT, 'test-results/docs');

// `ops`: every operation of a document; `sampled`: the ones its page opens in the browser,
// one per shape (./shapes.ts), so the time of a page follows its shapes, not its width.
const documents = apis().map((api) => {
  const doc = bundled(api);
  const ops = operations.filter((op) => op.api === api.name);
  return { api, doc, ops, sampled: onePerShape(doc, ops) };
});
// The document pages opened in the browser: every one in a small workspace; in a large one
// (many versions of each API, rendered by the same code) each API's first- and last-listed
// versions first, then a spread of the others, MAX_PAGES in all, so that the time of this
// file does not grow with the documents. Every page is still served and checked without a
// browser (serve.test.ts, and the offline checks of the docs build).
const MAX_PAGES = 10;
const browsed = sample(documents, MAX_PAGES, ({ api }) => api.name.split('@')[0]!);
// The screenshot of example switchers: the browsed page and operation with the most of
// them (found by what they are, not by where they sit).
const mostSwitchers = browsed
  .flatMap((d) => d.sampled.map((op) => ({ slug: d.api.slug, op, count: switchersOf(d.doc, op) })))
  .filter((c) => c.count > 0)
  .sort((a, b) => b.count - a.count || a.op.operationId.localeCompare(b.op.operationId))[0];
/** An operation's name in test titles: `@version` added when several versions have its operationId. */
const nameOf = (op: (typeof operations)[number]) =>
  operations.filter((o) => o.operationId === op.operationId).length > 1 ? `${op.operationId}@${op.version}` : op.operationId;
/** The landing page's version cell of an operation, matched whole (v2.1 is not v2.10). */
const versionCell = (op: (typeof operations)[number]) =>
  new RegExp(`^\\s*${escapeRe('apiVersion' in op ? `api-version ${op.apiVersion}` : op.prefix.replace('/api/', ''))}(\\s|$)`);
const visibleText = (page: Page) =>
  page
    .locator('body')
    .innerText()
    .then((text) => text.replace(/\s+/g, ' '));
const squash = (text: string) => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function* gapRecords(node: any): Generator<string> {
  if (!node || typeof node !== 'object') return;
  if (typeof node['x-source-gap'] === 'string') yield node['x-source-gap'];
  for (const value of Object.values(node)) yield* gapRecords(value);
}

describe.skipIf(!CHROMIUM && !CI)('rendered docs in Chromium', () => {
  let server: DocsServer;
  let browser: Browser;
  let landing: Page;
  /** Every link of the landing page's main part, resolved. */
  let landingLinks: Array<{ href: string; text: string }> = [];
  /** Every operation row of the landing page, read once: its family, operationId, version cell and text. */
  let landingRows: Array<{ family: string; operationId: string; version: string; text: string }> = [];
  /** The landing page's link straight to an operation (on its document's page). */
  const deepLink = (op: (typeof operations)[number]) => {
    const slug = documents.find(({ ops }) => ops.includes(op))!.api.slug;
    return landingLinks
      .map((link) => link.href)
      .find((href) => new URL(href).pathname === `/${pageOf(slug)}` && new URL(href).hash.endsWith(`/${op.operationId.toLowerCase()}`));
  };
  /** The operation's route on its page (`#/<tag>/<operationId>`), as the landing page links it. */
  const routeOf = (op: (typeof operations)[number]) => new URL(deepLink(op)!).hash;
  const pages = new Map<string, Page>();
  let lastNavigation = 0;
  const harness: string[] = [];

  /** Opens a page, recording when, so the settle window covers it. */
  async function visit(url: string) {
    const page = await browser.open();
    lastNavigation = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    return page;
  }

  beforeAll(async () => {
    if (!CHROMIUM)
      throw new Error('CI is set and no Chromium was found: `apt-get install -y --no-install-recommends chromium fonts-liberation` (or set CHROMIUM_PATH)');
    ensureDocs();
    server = await startDocsServer();
    browser = await launch(CHROMIUM, server.url, `${pathToFileURL(join(ROOT, 'generated/docs')).href}/`);

    // The harness itself must see and stop a request that leaves the machine.
    const probe = await browser.open();
    await probe.goto('http://192.0.2.1/beacon').catch(() => undefined);
    harness.push(...browser.traffic.outbound.splice(0));
    browser.traffic.errors.splice(0);
    await probe.close();

    landing = await visit(server.url);
    landingLinks = await landing
      .locator('main a')
      .evaluateAll((anchors) => anchors.map((a) => ({ href: (a as HTMLAnchorElement).href, text: a.textContent!.trim() })));
    landingRows = await landing.locator('section tr').evaluateAll((rows) =>
      rows
        .filter((row) => row.querySelector('.id code'))
        .map((row) => ({
          family: row.closest('section')!.id,
          operationId: row.querySelector('.id code')!.textContent!.trim(),
          version: (row.querySelector('td.version') as HTMLElement).innerText,
          text: (row as HTMLElement).innerText,
        })),
    );
    // The document pages open now, one after another: by the time the last test counts
    // outbound requests, each has long had its settle window, so the count waits for none.
    for (const { api } of browsed.slice(0, MAX_OPEN)) await openDocument(api.slug);
  }, 120_000);

  // Document pages are opened as their tests come (not all at once: a workspace of a
  // hundred documents would mean a hundred live Redoc tabs). At most MAX_OPEN stay open;
  // the oldest is closed only once it has been open SETTLE_MS, so each page still had the
  // time to send anything it would send.
  const MAX_OPEN = 8;
  const open: Array<{ slug: string; page: Page; at: number }> = [];
  async function openDocument(slug: string) {
    if (pages.has(slug)) return; // still open
    while (open.length >= MAX_OPEN) {
      const oldest = open.shift()!;
      const wait = oldest.at + SETTLE_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await oldest.page.close();
      pages.delete(oldest.slug);
    }
    const page = await visit(`${server.url}${pageOf(slug)}`);
    open.push({ slug, page, at: Date.now() });
    pages.set(slug, page);
  }

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('blocks and counts a request that leaves the machine (harness check)', () => {
    expect(harness).toEqual(['GET http://192.0.2.1/beacon']);
  });

  describe('landing page', () => {
    it('has its title and both families', async () => {
      expect(await landing.title()).toBe(`API reference: ${operations.length} operations in ${documents.length} documents`);
      await expect(landing.getByRole('heading', { level: 2, name: 'Resource management' }).isVisible()).resolves.toBe(true);
      await expect(landing.getByRole('heading', { level: 2, name: 'Business data' }).isVisible()).resolves.toBe(true);
    });

    // One row per operation of each version: its operationId (exactly: getItem is not
    // getItemVariant) and its version cell together. The rows were read once in beforeAll,
    // so a row per operation costs no browser round trip.
    it.each(operations.map((op) => [nameOf(op), op] as const))('lists %s with method, path and version', (_, op) => {
      // Its path too: two APIs may each have an operation of that id at that version (a
      // provider grown from a copy of another's document).
      const path = 'prefix' in op ? `${op.prefix}${op.path}` : op.path;
      const rows = landingRows.filter(
        (row) =>
          row.family === op.family && row.operationId === op.operationId && versionCell(op).test(row.version) && row.text.replace(/\s+/g, ' ').includes(path),
      );
      expect(rows.length).toBe(1);
      const text = rows[0]!.text.replace(/\s+/g, ' ');
      expect(text).toContain(op.method);
      expect(text).toContain('apiVersion' in op ? `api-version ${op.apiVersion}` : op.prefix.replace('/api/', ''));
    });

    it.each(documents.map((d) => [d.api.name, d] as const))('links %s by its title and lists its gaps', async (_, { api, doc }) => {
      const card = landing.locator(`article#${api.slug.replace(/\./g, '\\.')}`);
      await expect(card.getByRole('link', { name: doc.info.title, exact: true }).getAttribute('href')).resolves.toBe(pageOf(api.slug));
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      // A document may record no gap (lint asks its overview to say what is not shown, not
      // for a record); the check is not vacuous over the workspace (next test).
      for (const gap of gapRecords(doc)) expect(text).toContain(gap.replace(/\s+/g, ' '));
    });

    it('lists gaps at all (the check above is not vacuous)', () => {
      expect(documents.some(({ doc }) => [...gapRecords(doc)].length > 0)).toBe(true);
    });

    it('links lead to the right page and operation', async () => {
      // Every document link and operation link names a page of this workspace, and an
      // operation of it when it has an anchor; each operation has a link straight to it.
      // That each anchor is the route Redoc itself shows for its operation is checked on
      // the operation's page below; links are followed in the browser at the end of this
      // block (a click) and over file:// (a fresh load on an operation's route).
      expect(landingLinks.length).toBeGreaterThanOrEqual(operations.length + documents.length);
      for (const href of new Set(landingLinks.map((link) => link.href))) {
        const target = documents.find(({ api }) => new URL(href).pathname === `/${pageOf(api.slug)}`);
        expect(target, `${href} names no document`).toBeDefined();
        if (new URL(href).hash)
          expect(
            target!.ops.some((o) => new URL(href).hash.endsWith(`/${o.operationId.toLowerCase()}`)),
            href,
          ).toBe(true);
      }
      for (const op of operations) expect(deepLink(op), op.operationId).toBeDefined();
    });

    it('has no serious or critical accessibility violation (axe-core)', async () => {
      expect(await seriousViolations(landing)).toEqual([]);
    });

    it('names the package and the mock', async () => {
      const text = await visibleText(landing);
      expect(text).toContain('provider-api-clients');
      expect(text).toContain('npm run mock');
    });

    it('is saved as a screenshot', async () => {
      mkdirSync(SHOTS, { recursive: true });
      await landing.screenshot({ path: join(SHOTS, 'landing.png'), fullPage: true });
    });

    // Last of this block: the click takes the landing tab away to a document page.
    it('is navigable by clicking: an operation link opens its page on that operation', async () => {
      const { doc, ops } = browsed[0]!;
      const op = byName(ops);
      const href = deepLink(op)!;
      await landing.bringToFront();
      const link = landing.locator('main a').filter({ has: landing.locator(`xpath=self::*[@href="${new URL(href).pathname.slice(1)}${new URL(href).hash}"]`) });
      await Promise.all([landing.waitForURL(href), link.first().click()]);
      lastNavigation = Date.now();
      expect(await landing.title()).toBe(doc.info.title);
      await operationHeading(landing, operationOf(doc, op).summary).waitFor({ state: 'visible', timeout: 15_000 });
      await landing.close();
    });
  });

  it('opens from disk on an operation link: the shared runtime loads over file:// and shows that operation', async () => {
    // Chromium refuses module scripts from file://; the shared runtime is a classic
    // script the page CSP allows ('self'). Errors land in traffic.errors (checked last).
    // An operation of the other family than the one clicked above: a fresh load on an
    // operation's route is seen for both.
    const { api, doc, ops } = browsed.find((d) => d.api.family !== browsed[0]!.api.family) ?? browsed.at(-1)!;
    const op = byName(ops);
    const page = await visit(`${pathToFileURL(join(ROOT, 'generated/docs', pageOf(api.slug))).href}${new URL(deepLink(op)!).hash}`);
    await page.bringToFront();
    expect(await page.title()).toBe(doc.info.title);
    // Rendered by Redoc, on the operation's own view (its heading, its method and path).
    await operationHeading(page, operationOf(doc, op).summary).waitFor({ state: 'visible', timeout: 15_000 });
    expect(await visibleText(page)).toMatch(new RegExp(`${op.method} ${escapeRe(op.path)}`));
    await page.close();
  });

  it(`opens ${browsed.length} of the ${documents.length} document pages, every API among them`, () => {
    expect(browsed.length).toBe(Math.min(documents.length, MAX_PAGES));
    expect(new Set(browsed.map(({ api }) => api.name.split('@')[0]))).toEqual(new Set(documents.map(({ api }) => api.name.split('@')[0])));
  });

  describe.each(browsed.map((d) => [d.api.name, d] as const))('%s page', (_, { api, doc, sampled: ops }) => {
    const page = () => pages.get(api.slug)!;
    beforeAll(async () => {
      await openDocument(api.slug);
      // Clicks in a background tab wait for frames Chromium hardly draws there.
      await page().bringToFront();
    }, 60_000);

    it('has the document title', async () => {
      expect(await page().title()).toBe(doc.info.title);
    });

    it('has no serious or critical accessibility violation on its first view (axe-core, the whole page)', async () => {
      expect(await seriousViolations(page())).toEqual([]);
    });

    it('opens on the overview, which says what the source does not show', async () => {
      // The document-level gap is also said in info.description, which Redoc shows on
      // the page's first view (Redoc 3 shows one route at a time: run before unfolding).
      const notShown = doc.info.description.split(/\n\s*\n/).find((p: string) => /not shown|not described/i.test(p));
      expect(notShown, 'info.description says what is not shown').toBeDefined();
      expect(await visibleText(page())).toContain(squash(notShown).slice(0, 60));
    });

    it.each(ops.map((op) => [op.operationId, op] as const))('shows %s with its path', async (_, op) => {
      // The overview lists the operation by method and path; following that link, as a
      // reader would, unfolds it. Retried: a click before Redoc has hydrated does nothing.
      await openOperation(page(), doc, op, routeOf(op));
      expect(page().url()).toMatch(new RegExp(`#/[^#]*/${escapeRe(op.operationId.toLowerCase())}$`));
      // Redoc swaps the route's content in after the address changes: polled.
      await expect.poll(() => visibleText(page()), { timeout: 10_000 }).toMatch(new RegExp(`${op.method} ${escapeRe(op.path)}`));
      // The landing page's link to it is this very route, so following it lands here.
      expect(deepLink(op)).toBe(page().url());
    });

    it('shows each gap of its operations and parameters once, marked in bold', async () => {
      // Said in the node's description ("Not shown in the source: …", bolded for readers;
      // lint's house-source-gap-described makes it so); the x-source-gap record is not
      // printed a second time. Redoc renders an unfolded operation in steps, hence the polling.
      let shown = 0;
      for (const op of ops) {
        // One operation's view at a time: the others of its path share its overview entry's text.
        await openOperation(page(), doc, op, routeOf(op));
        const operation = operationOf(doc, op);
        const nodes = [operation, ...(operation.parameters ?? []).map((p: any) => deref(doc, p))];
        for (const node of nodes.filter((n) => n['x-source-gap'])) {
          const said = squash(String(node.description).split(/Not shown in the source:/)[1] ?? '').slice(0, 40);
          expect(said, `${op.operationId}: the description says what is not shown`).not.toBe('');
          await expect.poll(() => visibleText(page()), { timeout: 10_000 }).toContain(said);
          shown++;
        }
      }
      if (shown > 0) expect(await page().locator('strong', { hasText: 'Not shown in the source:' }).count()).toBeGreaterThan(0);
      expect(await visibleText(page())).not.toContain('source-gap:');
    });

    it.each(ops.map((op) => [op.operationId, op] as const))('%s: samples, a working server URL, error examples, no accessibility violation', async (_, op) => {
      await openOperation(page(), doc, op, routeOf(op));
      const text = await visibleText(page());
      // The server: never the page's origin glued to a variable; the template explained, the mock's URL beside it.
      expect(text).not.toMatch(/https?:\/\/\S*\{[A-Za-z_]+\}/);
      const template = doc.servers[0].url;
      expect(text).toContain(template);
      expect(text).toContain(mockUrlOf(doc));
      // The samples: TypeScript through this package's client, and curl.
      const panel = page().locator('.panel-request-samples, [data-testid="panel-body"]').first();
      await expect.poll(() => visibleText(page()), { timeout: 10_000 }).toContain("from 'provider-api-clients'");
      expect(await panel.count()).toBeGreaterThan(0);
      // Each error response shows a body in the family's model or says it is not shown; no generated placeholders.
      const operation = operationOf(doc, op);
      for (const status of Object.keys(operation.responses).filter((s) => /^[45]|default/.test(s))) {
        await operationView(page(), op).getByRole('tab', { name: status, exact: true }).first().click();
        const shown = await operationView(page(), op).innerText();
        expect(shown, `${op.operationId} ${status}`).not.toMatch(/"(code|message)":\s*"string"|\[\s*null\s*\]/);
        expect(shown).toMatch(/"error"|Not shown in the source/);
      }
      expect(await seriousViolations(page(), operationView(page(), op))).toEqual([]);
    });

    it.each(ops.map((op) => [op.operationId, op] as const))('%s: "Try it" then "Send" gets the documented status from the mock', async (_, op) => {
      const entry = operationsIn(doc).find((e: any) => e.path === op.path && e.method === op.method.toLowerCase());
      // Every 2xx it documents: a PUT creates (201) or replaces (200), a long-running DELETE answers 202.
      const successes = Object.keys(entry.operation.responses ?? {})
        .filter((status) => /^2\d\d$/.test(status))
        .map(Number);
      await openOperation(page(), doc, op, routeOf(op));
      // From the mock's start (its test API, on the docs' origin, from the test, not the page):
      // another case's write or running long-running operation must not change what this one finds.
      expect((await fetch(new URL('/__mock/reset', server.url), { method: 'POST' })).status).toBe(200);
      try {
        const answer = await tryIt(page(), isolated(entry));
        expect(successes, answer.body).toContain(answer.status);
        // The dialog too: open, with the answer shown.
        expect(await seriousViolations(page(), page().locator('dialog#try-it'))).toEqual([]);
      } finally {
        await page().keyboard.press('Escape');
      }
    });

    // Updates (PATCH, PUT) guarded by a required If-Match: the mock's state carries across
    // sends. A guarded DELETE answers 204 and then 404, with no new tag: the Try it case
    // above sends it, and the contract tests hold the mock to that (test/contract/).
    const guarded = ops.filter(
      (op) =>
        ['patch', 'put'].includes(op.method.toLowerCase()) &&
        operationsIn(doc)
          .find((e: any) => e.path === op.path && e.method === op.method.toLowerCase())
          ?.parameters.some((p: any) => p.in === 'header' && p.name.toLowerCase() === 'if-match' && p.required),
    );
    it.each(guarded.map((op) => [op.operationId, op] as const))(
      '%s: "Try it" keeps state: the current tag gets 200 and a new ETag, the old one 412',
      async (_, op) => {
        await openOperation(page(), doc, op, routeOf(op));
        const errors = browser.traffic.errors.length;
        try {
          const company = isolated(operationsIn(doc).find((e: any) => e.path === op.path && e.method === op.method.toLowerCase()));
          const first = await tryIt(page(), company);
          const current = first.etag!;
          expect(current, first.headers).toBeTruthy();
          const updated = await tryIt(page(), { ...company, 'If-Match': current });
          expect(updated.status, updated.body).toBe(200);
          expect(updated.etag).toBeTruthy();
          expect(updated.etag).not.toBe(current);
          const stale = await tryIt(page(), { ...company, 'If-Match': current });
          expect(stale.status, stale.body).toBe(412);
          const again = await tryIt(page(), { ...company, 'If-Match': updated.etag! });
          expect(again.status, again.body).toBe(200);
        } finally {
          await page().keyboard.press('Escape');
        }
        // Chromium logs each 412 answer as a failed resource: those are the ones this test asked for.
        const caused = browser.traffic.errors.splice(errors).filter((e) => !/Failed to load resource: the server responded with a status of 412/.test(e));
        browser.traffic.errors.push(...caused);
      },
    );

    it('links back to the landing page', async () => {
      const back = page().locator('a#all-apis');
      expect(await back.getAttribute('href')).toBe('index.html');
      expect(await back.isVisible()).toBe(true);
    });

    it('shows every named example of its operations', async () => {
      for (const op of ops) {
        await openOperation(page(), doc, op, routeOf(op));
        const operation = operationOf(doc, op);
        for (const group of exampleGroups(doc, op)) {
          const named = Object.entries(group.examples).map(([key, ex]) => ({ key, ...deref(doc, ex) }));
          if (named.length === 0) continue;
          if (group.status && Object.keys(operation.responses).length > 1) {
            // The response panel shows one status at a time: pick this one.
            await operationView(page(), op).getByRole('tab', { name: group.status, exact: true }).first().click();
          }
          const shown = await examplesOnScreen(page(), operationView(page(), op));
          if (named.length > 1) {
            // Several: a switcher lists each by its summary.
            for (const example of named) expect(shown.menus, `${op.operationId} ${group.status ?? 'request'}`).toContain(example.summary ?? example.key);
          } else {
            // One: no switcher, its value is printed.
            const value = firstScalar(named[0]!.value);
            expect(shown.text, `${op.operationId} ${group.status ?? 'request'} example`).toContain(JSON.stringify(value));
          }
        }
      }
      if (mostSwitchers?.slug === api.slug) {
        // The operation with the most switchers: its screenshot shows them.
        const { op } = mostSwitchers;
        const status = exampleGroups(doc, op).find((g) => g.status && Object.keys(g.examples).length > 1)?.status;
        mkdirSync(SHOTS, { recursive: true });
        await openOperation(page(), doc, op, routeOf(op));
        if (status) await operationView(page(), op).getByRole('tab', { name: status, exact: true }).first().click();
        await operationHeading(page(), operationOf(doc, op).summary)
          .first()
          .evaluate((h) => h.scrollIntoView());
        await page().screenshot({ path: join(SHOTS, `${api.slug}.png`) });
      }
    });
  });

  it('logs no console errors and no page errors', () => {
    expect(browser.traffic.errors).toEqual([]);
  });

  it('makes no request that leaves the machine', async () => {
    const wait = lastNavigation + SETTLE_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    expect(browser.traffic.local).toBeGreaterThan(browsed.length); // the counter does count
    expect(browser.traffic.outbound).toEqual([]);
    expect(browser.traffic.errors).toEqual([]);
  });
});

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (injected through the debugger, not as a page script). */
/**
 * The serious and critical axe-core violations of the page, or of `scope` only: a case
 * that opened one operation checks that operation's view (or the dialog it opened), so its
 * time follows the operation, not the page (a page of 300 operations lists them all in its
 * menu); each page is also checked whole once.
 */
async function seriousViolations(page: Page, scope?: Locator): Promise<string[]> {
  if (!(await page.evaluate(() => Boolean((window as any).axe)))) await page.evaluate(AXE);
  const context = scope ? await scope.first().elementHandle() : null;
  const result = await page.evaluate((element) => (window as any).axe.run(element ?? document, { resultTypes: ['violations'] }), context);
  return result.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v: any) =>
        `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n: any) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * An operation's heading, matched by its whole text ("Get an item" is not "Get an item
 * variant"; its accessible name also holds Redoc's "link to …" label, its text does not).
 */
const operationHeading = (page: Page, summary: string) => page.locator('h2', { hasText: new RegExp(`^\\s*${escapeRe(summary)}\\s*$`) });

/**
 * The Try it fields that give a business-data request a company of its own, so that what
 * one operation's send does (a DELETE, say) never changes what another's finds.
 */
const isolated = (entry: any): Record<string, string> =>
  entry?.parameters?.some((p: any) => p.in === 'path' && p.name === 'company_id') ? { company_id: `docs-${randomUUID()}` } : {};

/** Redoc's slug of an operationId, as its routes (#/<tag>/<slug>) and view ids use it. */
const slugOf = (op: (typeof operations)[number]) => op.operationId.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');

/**
 * Unfolds one operation's view, as a reader following the overview's link would: the
 * entry whose link ends in the operation's own route. Redoc shows a tag's operations
 * together, so the heading alone does not say which one is current: the route does
 * (and "Try it" follows it). On a wide page Redoc's overview renders its entries as the
 * reader scrolls, so an operation far down has no entry yet: then the route is followed
 * as the landing page's deep link does (`route`, the location's hash).
 * Open means its heading is drawn, not only laid out: Redoc wraps each section in
 * `content-visibility: auto`, so a section just swapped in (or off screen) has a box but
 * no drawn content, and its innerText is '' until the browser has rendered it on screen.
 */
async function openOperation(page: Page, doc: any, op: (typeof operations)[number], route: string) {
  const heading = operationHeading(page, operationOf(doc, op).summary);
  const entry = page.locator(`a[href^="#/"][href$="/${slugOf(op)}"]`, { hasText: op.path });
  const current = () =>
    decodeURIComponent(new URL(page.url()).hash)
      .toLowerCase()
      .endsWith(`/${slugOf(op)}`);
  const drawn = async () =>
    (await heading.first().isVisible()) &&
    (await heading
      .first()
      .evaluate((h) => h.checkVisibility({ contentVisibilityAuto: true }), undefined, { timeout: 1000 })
      .catch(() => false));
  await expect
    .poll(
      async () => {
        if (!current() || !(await drawn())) {
          if ((await entry.count()) > 0)
            await entry
              .first()
              .click({ timeout: 2000 })
              .catch(() => undefined);
          else
            await page.evaluate((hash) => {
              location.hash = hash;
            }, route);
        }
        return current() && (await drawn());
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe(true);
}

/** One operation's view (its middle and right panels): where its tabs and example switchers are. */
const operationView = (page: Page, op: (typeof operations)[number]) => page.locator(`[id$="/${slugOf(op)}"]`).first();

/** Opens "Try it", optionally changes fields (by label), presses "Send"; resolves to the answer shown. */
async function tryIt(page: Page, fields: Record<string, string> = {}) {
  const dialog = page.locator('dialog#try-it');
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Try it', exact: true }).click();
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label, { exact: false }).first().fill(value);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect
    .poll(async () => (await dialog.locator('.try-status').count()) > 0 && !(await dialog.getByRole('button', { name: 'Send', exact: true }).isDisabled()), {
      timeout: 15_000,
    })
    .toBe(true);
  const status = Number(/Status (\d{3})/.exec(await dialog.locator('.try-status').innerText())?.[1]);
  const headers = await dialog.locator('.try-headers').innerText();
  const body = await dialog.locator('.try-response-body').innerText();
  return { status, headers, body, etag: /^etag: (.*)$/im.exec(headers)?.[1] };
}

/** The items of every visible example switcher of one operation's view (opened one by one), and the view's text. */
async function examplesOnScreen(page: Page, view: Locator) {
  const menus: string[] = [];
  const switchers = view.locator('button[aria-label^="Example"][aria-haspopup="menu"]');
  for (const switcher of await switchers.all()) {
    if (!(await switcher.isVisible())) continue;
    await switcher.click();
    const items = page.getByRole('menu').filter({ visible: true }).getByRole('menuitem');
    await items.first().waitFor({ state: 'visible', timeout: 5000 });
    menus.push(...(await items.allInnerTexts()).map((t) => t.trim()));
    await page.keyboard.press('Escape');
  }
  return { menus, text: await view.innerText() };
}

/** The first string, number or boolean in an example value: what its sample must show. */
function firstScalar(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  for (const item of Object.values(value)) {
    const found = firstScalar(item);
    if (found !== undefined && found !== null) return found;
  }
  return undefined;
}
