import { readFileSync } from 'node:fs';
import { chromium } from '/work/wt/docs/node_modules/playwright-core/index.mjs';
import { serveDocs } from '/work/wt/docs/scripts/lib/docs-server.mjs';
const axe = readFileSync('/work/wt/docs/node_modules/axe-core/axe.min.js', 'utf8');
const { server, url } = await serveDocs('/work/wt/docs/generated/docs', 0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const targets = process.argv.slice(2);
for (const t of targets) {
  await page.goto(url + t); await page.waitForTimeout(2500);
  await page.evaluate(axe);
  const r = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  console.log('==', t);
  for (const v of r.violations) console.log(v.impact, v.id, v.nodes.length, v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.any[0]?.message ?? '')).join('\n    '));
}
await browser.close(); server.close();
