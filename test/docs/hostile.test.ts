// Spec text is untrusted: a docs page made from a document full of hostile HTML (a
// fixture rendered directly, as `npm run docs` would render it, bypassing the lint that
// refuses such text) runs no script from it, does not navigate, and lets no <iframe>,
// <meta http-equiv>, <object>, <embed>, <form> or <style> of it into the page.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM scripts without types
import { forPage, REDOC_OPTIONS } from '../../pipeline/docs.mjs';
// @ts-expect-error: plain ESM scripts without types
import { docsPage } from '../../site/offline.mjs';
// @ts-expect-error: plain ESM scripts without types
import { serveDocs } from '../../site/server.mjs';
import { CHROMIUM, launch, type Browser } from './browser.js';
import { DOCS, ensureDocs } from './support.js';

// Each payload, if it ran, would set top.__pwned and request /pwned-<name> from the docs origin.
const PAYLOADS = [
  `<iframe srcdoc="&lt;img src=x &#111;nerror=top.__pwned='srcdoc';fetch('/pwned-srcdoc')&gt;"></iframe>`,
  `<img alt=">" src=x onerror="top.__pwned='img';fetch('/pwned-img')">`,
  `<meta http-equiv="refresh" content="0;url=/pwned-meta">`,
  `<style>#redoc { visibility: hidden } body { background: rgb(255, 0, 0) }</style>`,
  `<object data="/pwned-object"></object><embed src="/pwned-embed"><form action="/pwned-form"><button>go</button></form>`,
  `<script>top.__pwned='script';fetch('/pwned-script')</script>`,
];
const hostile = (where: string) => `${where} says: ${PAYLOADS.join(' ')} and in code: \`<iframe srcdoc=x>\``;

const FIXTURE = {
  openapi: '3.1.0',
  info: { title: 'Hostile fixture', version: '1', description: hostile('info') },
  servers: [
    {
      url: '{api_prefix}',
      description: hostile('server'),
      variables: { api_prefix: { default: 'http://127.0.0.1:4010/api/v9.9', description: hostile('variable') } },
    },
  ],
  tags: [{ name: 'Things', description: hostile('tag') }],
  paths: {
    '/things({thing_id})': {
      patch: {
        operationId: 'updateThing',
        summary: 'Update a thing',
        description: hostile('operation'),
        tags: ['Things'],
        parameters: [{ name: 'thing_id', in: 'path', required: true, description: hostile('parameter'), schema: { type: 'string' }, example: 'abc' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example: { name: '<iframe srcdoc=x>' } } } },
        responses: {
          '200': { description: hostile('response'), content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          default: { description: hostile('error'), content: { 'application/json': { schema: { description: hostile('error schema') } } } },
        },
      },
    },
  },
  components: {
    schemas: { Thing: { type: 'object', description: hostile('schema'), properties: { name: { type: 'string', description: hostile('property') } } } },
  },
};

const CI = !!process.env.CI && process.env.CI !== 'false';

describe.skipIf(!CHROMIUM && !CI)('a docs page from a hostile document', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const pwned: string[] = [];
  const navigations: string[] = [];

  beforeAll(async () => {
    if (!CHROMIUM) throw new Error('CI is set and no Chromium was found');
    ensureDocs();
    dir = mkdtempSync(join(tmpdir(), 'docs-hostile-'));
    // The runtime and page script the real pages load.
    const assets = readdirSync(DOCS).filter((f) => /^(redoc|docs-page)-.*\.js$/.test(f));
    for (const file of assets) copyFileSync(join(DOCS, file), join(dir, file));
    const { definition, requests } = forPage(FIXTURE, 'business-central');
    const html = docsPage({
      title: FIXTURE.info.title,
      definition,
      requests,
      options: REDOC_OPTIONS,
      runtime: assets.find((f) => f.startsWith('redoc-')),
      script: assets.find((f) => f.startsWith('docs-page-')),
    });
    writeFileSync(join(dir, 'hostile.html'), html);
    ({ server, url } = await serveDocs(dir, 0));
    browser = await launch(CHROMIUM, url);
    page = await browser.open();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (request.url().includes('pwned')) pwned.push(request.url());
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await page.goto(`${url}hostile.html`, { waitUntil: 'load' });
    await page.getByText('info says:').first().waitFor({ timeout: 15_000 });
    // The operation's own view: its description, parameters and responses rendered too.
    await page.goto(`${url}hostile.html#/things/updatething`, { waitUntil: 'load' });
    await page.getByText('operation says:').first().waitFor({ timeout: 15_000 });
    await page.getByText('parameter says:').first().waitFor({ timeout: 15_000 });
    // The meta refresh would fire at 0 s, an image error at once: give both time.
    await page.waitForTimeout(2000);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('would notice a script that ran (control: the same check on a page that runs one)', async () => {
    const control = await browser.open();
    await control.setContent(`<img src=x onerror="top.__pwned='control'">`);
    await expect.poll(() => control.evaluate(() => (window as any).__pwned)).toBe('control');
    await control.close();
  });

  it('runs no script from the document', async () => {
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(pwned).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('does not navigate', () => {
    expect(navigations.every((u) => u.startsWith(`${url}hostile.html`))).toBe(true);
    expect(page.url()).toBe(`${url}hostile.html#/things/updatething`);
  });

  it('lets no iframe, meta http-equiv, object, embed, form, style or script of the document into the page', async () => {
    const found = await page.evaluate(() => ({
      rendered: [
        ...document.querySelectorAll('#redoc iframe, #redoc object, #redoc embed, #redoc form, #redoc meta, #redoc link'),
        // Redoc writes a <script> and <style>s of its own (an inline script never runs under the page's CSP): none may carry the document's.
        ...[...document.querySelectorAll('style, script:not([type="application/json"])')].filter((e) => /pwned|255, 0, 0/.test(e.textContent ?? '')),
      ].map((e) => e.outerHTML.slice(0, 80)),
      metas: [...document.querySelectorAll('meta[http-equiv]')].map((m) => m.getAttribute('http-equiv')),
      frames: window.frames.length,
      redocVisible: getComputedStyle(document.getElementById('redoc')!).visibility,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    expect(found.rendered).toEqual([]);
    // The page's own CSP is the only http-equiv.
    expect(found.metas).toEqual(['Content-Security-Policy']);
    expect(found.frames).toBe(0);
    expect(found.redocVisible).toBe('visible');
    expect(found.background).not.toBe('rgb(255, 0, 0)');
  });

  it('shows the hostile markup as text, code spans as written', async () => {
    const text = await page.locator('body').innerText();
    expect(text).toContain('<iframe srcdoc=');
    expect(text).toContain('<meta http-equiv="refresh"');
    expect(text).toContain('<iframe srcdoc=x>');
  });
});
