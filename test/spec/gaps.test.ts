// Every gap the specs record (x-source-gap) is in specs/README.md's generated table (the
// table is what pipeline/gaps.mjs writes from the specs: nothing copied by hand), and every
// record also says "not shown" (or names the placeholder) in a description nearby, so the
// rendered docs show it. Lint requires the latter first, with file and line
// (house-source-gap-described, house-info-not-shown; docs/lint.md).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/bundles.js';

function* yamlFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* yamlFiles(path);
    else if (path.endsWith('.yaml')) yield path;
  }
}

function* gaps(node: any, pointer: string): Generator<{ pointer: string; gap: string; description: string }> {
  if (!node || typeof node !== 'object') return;
  if (typeof node['x-source-gap'] === 'string') {
    yield { pointer, gap: node['x-source-gap'], description: String(node.description ?? '') };
  }
  for (const [key, value] of Object.entries(node)) yield* gaps(value, `${pointer}/${key}`);
}

const records = [...yamlFiles(join(ROOT, 'specs'))].flatMap((file) =>
  [...gaps(parse(readFileSync(file, 'utf8')), '')].map((g) => ({ ...g, file: relative(ROOT, file) })),
);
const readmeText = readFileSync(join(ROOT, 'specs/README.md'), 'utf8');
const readme = readmeText.replace(/\s+/g, ' ');

describe('source gaps', () => {
  it('are recorded in the specs', () => {
    expect(records.length).toBeGreaterThan(15);
  });

  it.each(records)('$file#$pointer is listed in specs/README.md', ({ gap }) => {
    expect(readme).toContain(gap.replace(/\s+/g, ' ').replace(/\|/g, '\\|'));
  });

  it("specs/README.md's table is exactly what `npm run generate` writes from the specs (run it when this fails)", async () => {
    // @ts-expect-error: plain ESM module without types
    const { collectSpecGaps, gapsTable, withTable } = await import('../../pipeline/gaps.mjs');
    expect(readmeText).toBe(withTable(readmeText, gapsTable(await collectSpecGaps(ROOT))));
  });

  it.each(records)('$file#$pointer is also said in its description', ({ description }) => {
    expect(description).toMatch(/not shown|placeholder/i);
  });
});
