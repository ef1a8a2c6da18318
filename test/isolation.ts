// Which test files may share their worker's modules (vitest's `isolate: false`) and which
// need a fresh module graph of their own. Sharing saves each file loading Redocly,
// Spectral, Prism and the clients again (docs/testing.md), but a file that mocks a module,
// stubs a global or changes the process's environment would change it for the files after
// it in the same worker. vitest.config.ts runs the files this finds in an isolated project
// ("unit-isolated"), so a new test that needs `vi.mock` gets isolation without a config
// edit; test/deps/shared-modules.test.ts holds the helpers the shared files import to the
// same rules, and checks this routing.
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
// Not readdirSync's `recursive`: it follows symlinked folders on Node 22+ only (lib/walk.mjs).
import { filesUnder } from '../lib/walk.mjs';

/** The unit project's folders (vitest.config.ts); their non-test modules are helpers the tests import. */
export const UNIT = [
  'test/unit',
  'test/model',
  'test/lint',
  'test/spec',
  'test/pipeline',
  'test/changes',
  'test/growth',
  'test/package',
  'test/security',
  'test/deps',
];

// What a file must not do when its worker's modules are shared with the next file.
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bvi\s*\.\s*(mock|doMock|unmock|stubGlobal|stubEnv|resetModules|spyOn)\s*\(/, 'vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn'],
  [/\bvi\s*\.\s*(useFakeTimers|setSystemTime)\s*\(/, 'vi.useFakeTimers / vi.setSystemTime'],
  [/\bObject\.assign\s*\(\s*process\.env\b/, 'an assignment to process.env'],
  [/\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\+=|\?\?=|\|\|=)/, 'an assignment to process.env'],
  [/\bdelete\s+process\.env\b/, 'delete process.env'],
  [/\bprocess\.(chdir|umask)\s*\(/, 'process.chdir / process.umask'],
  [/\bglobalThis\.\w+\s*=(?!=)/, 'an assignment to globalThis'],
];

/** Every forbidden use in `text`, as "line: what" (a use may span lines: `vi\n  .mock(`). */
export function forbiddenUses(text: string): string[] {
  const found: Array<[number, number, string]> = [];
  FORBIDDEN.forEach(([pattern, what], order) => {
    for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) found.push([text.slice(0, match.index).split('\n').length, order, what]);
  });
  return found.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([line, , what]) => `${line}: ${what}`);
}

/** Every source file under `dir` (fixtures left out: they are data, not code that runs here). */
export function sources(dir: string): string[] {
  return filesUnder(dir, (file: string) => /\.(ts|mts|mjs|js)$/.test(file) && !relative(dir, file).split(sep).includes('fixtures'));
}

/**
 * The test files under `folder` of `root` that open a browser (they import the folder's
 * `browser.ts`), relative to root: vitest.config.ts runs them in the "browser" project, the
 * one project the other Node lines leave out (.ci/node-lines.sh), so a new browser
 * test is routed there, and a new docs test without one runs on every line, with no edit.
 */
export function filesUsingBrowser(root: string, folder: string): string[] {
  return sources(join(root, folder))
    .filter((file) => file.endsWith('.test.ts') && /from\s+['"]\.\/browser\.js['"]/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file).replaceAll('\\', '/'))
    .sort();
}

/** The test files (`*.test.ts`) under `folders` of `root` that need isolation, relative to root. */
export function filesNeedingIsolation(root: string, folders: string[]): string[] {
  return folders
    .flatMap((folder) => sources(join(root, folder)))
    .filter((file) => file.endsWith('.test.ts') && forbiddenUses(readFileSync(file, 'utf8')).length > 0)
    .map((file) => relative(root, file).replaceAll('\\', '/'))
    .sort();
}
