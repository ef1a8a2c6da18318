// Which test files may share their worker's modules (vitest's `isolate: false`) and which
// need a fresh module graph of their own. Sharing saves each file loading Redocly,
// Spectral, Prism and the clients again (docs/testing.md), but a file that mocks a module,
// stubs a global or changes the process's environment would change it for the files after
// it in the same worker. vitest.config.ts runs the files this finds in an isolated project
// ("unit-isolated"), so a new test that needs `vi.mock` gets isolation without a config
// edit; test/deps/shared-modules.test.ts holds the helpers the shared files import to the
// same rules, and checks this routing.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// What a file must not do when its worker's modules are shared with the next file.
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bvi\s*\.\s*(mock|doMock|unmock|stubGlobal|stubEnv|resetModules|spyOn)\s*\(/, 'vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn'],
  [/\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\+=|\?\?=|\|\|=)/, 'an assignment to process.env'],
  [/\bdelete\s+process\.env\b/, 'delete process.env'],
  [/\bprocess\.(chdir|umask)\s*\(/, 'process.chdir / process.umask'],
  [/\bglobalThis\.\w+\s*=(?!=)/, 'an assignment to globalThis'],
];

/** Every forbidden use in `text`, as "line: what". */
export function forbiddenUses(text: string): string[] {
  return text.split('\n').flatMap((line, i) => FORBIDDEN.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${i + 1}: ${what}`));
}

/** Every source file under `dir` (fixtures left out: they are data, not code that runs here). */
export function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures') yield* sources(path);
    } else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) yield path;
  }
}

/** The test files (`*.test.ts`) under `folders` of `root` that need isolation, relative to root. */
export function filesNeedingIsolation(root: string, folders: string[]): string[] {
  return folders
    .flatMap((folder) => [...sources(join(root, folder))])
    .filter((file) => file.endsWith('.test.ts') && forbiddenUses(readFileSync(file, 'utf8')).length > 0)
    .map((file) => relative(root, file).replaceAll('\\', '/'))
    .sort();
}
