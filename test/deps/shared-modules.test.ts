// Test files that share their worker's modules (vitest's `isolate: false`: the contract
// and docs projects, and the unit project but for the files test/isolation.ts routes to
// "unit-isolated"). A file that mocked a module, stubbed a global or changed the
// environment would change it for the files after it in the same worker. This holds the
// shared files, and the helpers any test imports, to what makes sharing safe, and checks
// that the unit files which need isolation get it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesNeedingIsolation, filesUsingBrowser, forbiddenUses, sources, UNIT } from '../isolation.js';
import config from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '../..');
// Folders whose every file shares modules (no isolated counterpart).
const SHARED = ['test/contract', 'test/consumer', 'test/scenarios', 'test/docs'];
// Modules the tests import (not test files): they run inside shared workers too.
const HELPERS = ['test/helpers', ...UNIT, 'test/docs'].flatMap((folder) => sources(join(ROOT, folder))).filter((file) => !file.endsWith('.test.ts'));

/** Every forbidden use in `files`, as "file:line: what". */
const usesIn = (files: string[]) => files.flatMap((file) => forbiddenUses(readFileSync(file, 'utf8')).map((use) => `${relative(ROOT, file)}:${use}`));

const projectNamed = (name: string) =>
  (config.test!.projects as Array<{ test: { name: string; include?: string[]; exclude?: string[]; isolate?: boolean } }>).find((p) => p.test.name === name)!
    .test;

describe('the files that share modules', () => {
  it('the check finds each forbidden use (control)', () => {
    const text = [
      "vi.mock('x');",
      'vi.stubEnv("A", "1");',
      "process.env.TOKEN = 'x';",
      "process.env['A'] ??= '1';",
      'delete process.env.A;',
      "process.chdir('/');",
      'globalThis.fetch = f;',
      'if (process.env.A === "1") {}',
      'const a = vi.fn();',
      'vi.useFakeTimers();',
      "Object.assign(process.env, { A: '1' });",
      'vi',
      "  .mock('y');",
    ].join('\n');
    expect(forbiddenUses(text)).toEqual([
      '1: vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn',
      '2: vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn',
      '3: an assignment to process.env',
      '4: an assignment to process.env',
      '5: delete process.env',
      '6: process.chdir / process.umask',
      '7: an assignment to globalThis',
      '10: vi.useFakeTimers / vi.setSystemTime',
      '11: an assignment to process.env',
      '12: vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn',
    ]);
  });

  it.each(SHARED)('%s/ neither mocks modules nor changes process-wide state', (folder) => {
    expect(usesIn(sources(join(ROOT, folder)))).toEqual([]);
  });

  it('the helpers the tests import neither mock modules nor change process-wide state', () => {
    expect(HELPERS.length).toBeGreaterThan(5);
    expect(usesIn(HELPERS)).toEqual([]);
  });

  it('the unit project shares modules, and the unit files that need isolation run in "unit-isolated"', () => {
    const unit = projectNamed('unit');
    const isolated = projectNamed('unit-isolated');
    expect(unit.isolate).toBe(false);
    expect(isolated.isolate).not.toBe(false);
    // This very file holds the forbidden patterns (as text, above), so it is one of them.
    expect(isolated.include).toContain('test/deps/shared-modules.test.ts');
    expect(isolated.include).toContain('test/unit/versions.test.ts'); // vi.mock
    expect(unit.exclude).toEqual(isolated.include);
  });

  it('the docs files that open a browser run in "browser", the only project the other Node lines leave out', () => {
    const browser = projectNamed('browser');
    const docs = projectNamed('docs');
    expect(browser.include).toContain('test/docs/pages.test.ts'); // opens Chromium
    expect(browser.include).not.toContain('test/docs/serve.test.ts'); // a docs test without one
    expect(docs.exclude).toEqual(browser.include);
    expect(browser.isolate).toBe(false);
    // A new test file that imports ./browser.js is routed by what it contains.
    const root = mkdtempSync(join(tmpdir(), 'browser-routing-'));
    try {
      mkdirSync(join(root, 'test/docs'), { recursive: true });
      writeFileSync(join(root, 'test/docs/new.test.ts'), "import { launch } from './browser.js';\n");
      writeFileSync(join(root, 'test/docs/plain.test.ts'), "import { it } from 'vitest';\n");
      expect(filesUsingBrowser(root, 'test/docs')).toEqual(['test/docs/new.test.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts['test:no-browser']).toMatch(/--project '!browser'/);
  });

  it('a new test file that mocks a module is routed to isolation without a config edit (control)', () => {
    const root = mkdtempSync(join(tmpdir(), 'isolation-'));
    try {
      mkdirSync(join(root, 'test/unit'), { recursive: true });
      writeFileSync(join(root, 'test/unit/plain.test.ts'), "import { it } from 'vitest';\nit('x', () => {});\n");
      writeFileSync(join(root, 'test/unit/mocks.test.ts'), "import { vi } from 'vitest';\nvi.mock('../../src/core.js');\n");
      writeFileSync(join(root, 'test/unit/support.ts'), "vi.mock('x');\n"); // not a test file: the helpers check covers it
      expect(filesNeedingIsolation(root, ['test/unit'])).toEqual(['test/unit/mocks.test.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
