import { writeFileSync, readFileSync } from 'node:fs';
import { chromium } from '/work/wt/docs/node_modules/playwright-core/index.mjs';
import { serveDocs } from '/work/wt/docs/scripts/lib/docs-server.mjs';
import { docsPage } from '/work/wt/docs/scripts/lib/docs-offline.mjs';
const dir = '/work/wt/docs/generated/docs';
const files = (await import('node:fs')).readdirSync(dir);
const runtime = files.find((f) => f.startsWith('redoc-')); const script = files.find((f) => f.startsWith('docs-page-'));
const variants = ['A `companies(<company_id>)` B', 'C `a > b & c` D', 'E <code>companies(&lt;company_id&gt;)</code> F', 'G `companies(&lt;x&gt;)` H', 'I &lt;iframe srcdoc=x&gt; J'];
const def = { openapi: '3.1.0', info: { title: 'exp', version: '1', description: variants.join('\n\n') }, paths: {} };
for (const sanitize of [true, false]) {
  writeFileSync(`${dir}/exp-${sanitize}.html`, docsPage({ title: 'exp', definition: def, options: { disableTelemetry: true, sanitize: true, hideLoading: true }, runtime, script }).replace('"sanitize":true', sanitize ? '"sanitize":true' : '"sanitize":false'));
}
const { server, url } = await serveDocs(dir, 0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const s of [true, false]) {
  const page = await browser.newPage();
  await page.goto(`${url}exp-${s}.html`); await page.waitForTimeout(2500);
  const t = await page.locator('body').innerText();
  console.log(s, '\n', variants.map((v) => { const k = v[0]; const i = t.indexOf(k + ' '); return t.slice(i, t.indexOf(String.fromCharCode(k.charCodeAt(0)+1), i)+1); }).join('\n'));
}
await browser.close(); server.close();
