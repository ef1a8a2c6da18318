import { chromium } from '/work/wt/docs/node_modules/playwright-core/index.mjs';
import { serveDocs } from '/work/wt/docs/scripts/lib/docs-server.mjs';
const { server, url } = await serveDocs('/work/wt/docs/generated/docs', 0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url + process.argv[2]); await page.waitForTimeout(2500);
console.log(await page.evaluate(() => {
  const el = [...document.querySelectorAll('div')].find((d) => d.textContent === 'PATCH');
  const rules = []; for (const s of document.styleSheets) { try { for (const r of s.cssRules) rules.push(r); } catch {} }
  const m = rules.filter((r) => r.selectorText && el.matches(r.selectorText)).map((r) => r.cssText.slice(0, 300));
  return [el.outerHTML.slice(0, 300), el.parentElement.outerHTML.slice(0, 200), ...m].join('\n');
}));
await browser.close(); server.close();
