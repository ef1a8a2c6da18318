// mock/prism.mjs loads Prism's mocker with faker's English-only build: Prism's data
// generator requires @faker-js/faker whole (all of its locales, a third of a mock's
// start-up) to use its English default. What that must not change: the generator's data
// (English, as before), and faker for the rest of the process (whole, as installed).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(join(import.meta.dirname, '../../package.json'));

describe("the mock's Prism adapter and faker", () => {
  it('generates English faker data, and leaves @faker-js/faker whole for the rest of the process', async () => {
    // @ts-expect-error: plain ESM module without types
    await import('../../mock/prism.mjs');
    const generator = require('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js');
    const schema = { type: 'object', required: ['first'], properties: { first: { type: 'string', 'x-faker': 'name.firstName' } } };
    const english: string[] = require('@faker-js/faker/locale/en').definitions.name.first_name;
    for (let i = 0; i < 5; i++) {
      const generated = generator.generate({}, {}, schema);
      expect(generated._tag).toBe('Right');
      expect(english).toContain(generated.right.first);
    }
    const whole = require(createRequire(require.resolve('@stoplight/prism-http/dist/mocker/generator/JSONSchema.js')).resolve('@faker-js/faker'));
    expect(Object.keys(whole.faker.locales).length).toBeGreaterThan(50);
    expect(whole.default.locales.de).toBeDefined();
  });
});
