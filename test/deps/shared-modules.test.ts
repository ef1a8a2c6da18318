// The contract project runs its files without isolation (vitest.config.ts: `isolate:
// false`): the files of one worker share its modules, so a file that mocked a module,
// stubbed a global or changed the environment would change it for the files after it.
// This holds every file of that project to what makes sharing safe.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SHARED = ['test/contract', 'test/consumer', 'test/scenarios'];

// What a file must not do when its worker's modules are shared with the next file.
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bvi\s*\.\s*(mock|doMock|unmock|stubGlobal|stubEnv|resetModules|spyOn)\s*\(/, 'vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn'],
  [/\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\+=|\?\?=|\|\|=)/, 'an assignment to process.env'],
  [/\bdelete\s+process\.env\b/, 'delete process.env'],
  [/\bprocess\.(chdir|umask)\s*\(/, 'process.chdir / process.umask'],
  [/\bglobalThis\.\w+\s*=(?!=)/, 'an assignment to globalThis'],
];

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures') yield* sources(path);
    } else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) yield path;
  }
}

/** Every forbidden use in `text`, as "line: what". */
export function forbiddenUses(text: string): string[] {
  return text.split('\n').flatMap((line, i) => FORBIDDEN.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${i + 1}: ${what}`));
}

describe('the files that share modules (the contract project: isolate false)', () => {
  it('the check finds each forbidden use (control)', () => {
    const text = ["vi.mock('x');", 'vi.stubEnv("A", "1");', "process.env.TOKEN = 'x';", "process.env['A'] ??= '1';", 'delete process.env.A;', "process.chdir('/');", 'globalThis.fetch = f;', 'if (process.env.A === "1") {}', "const a = vi.fn();"].join('\n');
    expect(forbiddenUses(text)).toEqual([
      '1: vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn',
      '2: vi.mock / vi.stubGlobal / vi.stubEnv / vi.resetModules / vi.spyOn',
      '3: an assignment to process.env',
      '4: an assignment to process.env',
      '5: delete process.env',
      '6: process.chdir / process.umask',
      '7: an assignment to globalThis',
    ]);
  });

  it.each(SHARED)('%s/ neither mocks modules nor changes process-wide state', (folder) => {
    const found = [...sources(join(ROOT, folder))].flatMap((file) => forbiddenUses(readFileSync(file, 'utf8')).map((use) => `${relative(ROOT, file)}:${use}`));
    expect(found).toEqual([]);
  });
});
