import { chromium } from '/work/wt/docs/node_modules/playwright-core/index.mjs';
import { serveDocs } from '/work/wt/docs/scripts/lib/docs-server.mjs';
const { server, url } = await serveDocs('/work/wt/docs/generated/docs', 0);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url + process.argv[2]); await page.waitForTimeout(2500);
const out = await page.evaluate((colors) => {
  const res = [];
  const rules = [];
  for (const sheet of document.styleSheets) { try { for (const r of sheet.cssRules) rules.push(r); } catch {} }
  for (const el of document.querySelectorAll('*')) {
    const c = getComputedStyle(el).color;
    if (!colors.includes(c) || !el.childNodes.length || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const matched = rules.filter((r) => r.selectorText && el.matches(r.selectorText) && r.style.color).map((r) => r.selectorText.slice(0, 80) + ' { color: ' + r.style.color + ' }');
    res.push(c + ' | ' + el.tagName + '.' + el.className + ' | ' + el.textContent.slice(0, 20) + ' | ' + matched.slice(-2).join(' || '));
  }
  return [...new Set(res)].slice(0, 40);
}, process.argv.slice(3));
console.log(out.join('\n'));
await browser.close(); server.close();
