// mock/prism.mjs loads Prism's mocker with an English-only faker of its own: Prism's data
// generator requires @faker-js/faker whole (all of its locales, a third of a mock's
// start-up) to use its English default. Checked in fresh Node processes (this project's
// files share their worker's modules, so faker may be loaded here already), with the
// process's own faker required before the mock and after it:
// - the mock alone never loads faker whole (the saving);
// - the process's faker is the whole package either way, and its locale does not reach
//   the mock's generated data, which stays English (the same whatever the order);
// - the substitute is gone once the mock is loaded.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const require = createRequire(join(ROOT, 'package.json'));
const GENERATOR = require.resolve('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js');
const FAKER = createRequire(GENERATOR).resolve('@faker-js/faker');
const PRISM = pathToFileURL(join(ROOT, 'mock/prism.mjs')).href;

/** What a process sees when it requires its own faker `before` or after loading the mock. */
async function probe(order: 'before' | 'after') {
  const script = `
    const { createRequire } = require('node:module');
    const prism = createRequire(${JSON.stringify(GENERATOR)});
    const own = () => { const f = prism('@faker-js/faker'); f.faker.locale = 'de'; return f; };
    (async () => {
      const mine = ${JSON.stringify(order)} === 'before' ? own() : undefined;
      await import(${JSON.stringify(PRISM)});
      const wholeAfterMock = Boolean(require.cache[${JSON.stringify(FAKER)}]);
      const faker = mine ?? own();
      const { generate } = prism('./JSONSchema.js');
      const schema = { type: 'object', required: ['first'], properties: { first: { type: 'string', 'x-faker': 'name.firstName' } } };
      const names = Array.from({ length: 20 }, () => generate({}, {}, schema).right.first);
      console.log(JSON.stringify({ wholeAfterMock, locales: Object.keys(faker.faker.locales).length, names }));
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT });
  return JSON.parse(stdout) as { wholeAfterMock: boolean; locales: number; names: string[] };
}

describe("the mock's Prism adapter and faker", () => {
  const english: string[] = require('@faker-js/faker/locale/en').definitions.name.first_name;

  it.each(['before', 'after'] as const)('generates English data with faker required %s the mock, whose faker stays whole and its own', async (order) => {
    const seen = await probe(order);
    // The mock alone does not load faker whole; a process that required it first has it.
    expect(seen.wholeAfterMock).toBe(order === 'before');
    expect(seen.locales).toBeGreaterThan(50);
    expect(seen.names).toHaveLength(20);
    for (const name of seen.names) expect(english).toContain(name);
  });
});
