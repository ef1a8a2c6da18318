// The compiler command .ci/run shares between Node lines (test/helpers/shared-tsc.mjs): a
// clean run is recorded with what it emitted and replayed for the same key; anything else
// runs the real compiler.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const WRAPPER = join(ROOT, 'test/helpers/shared-tsc.mjs');
const base = mkdtempSync(join(tmpdir(), 'shared-tsc-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A project with node_modules (this workspace's), a tsconfig and main.ts. */
function project(source: string, tsconfig: object = { compilerOptions: { declaration: true, strict: true, types: [], lib: ['ES5'] }, include: ['main.ts'] }) {
  const dir = mkdtempSync(join(base, 'project-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  writeFileSync(join(dir, 'main.ts'), source);
  return dir;
}

/** The wrapper as the pipeline runs it: `-p tsconfig.json --outDir <dir>/dist.tmp-<pid>-<hex>`. */
async function compile(dir: string, records: string | undefined, scratch = `dist.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`) {
  const env = { ...process.env, CHECK_VERDICTS: records };
  if (!records) delete env.CHECK_VERDICTS;
  const outDir = join(dir, scratch);
  const result = await run(process.execPath, [WRAPPER, '-p', 'tsconfig.json', '--outDir', outDir, '--pretty', 'false'], { cwd: dir, env }).then(
    ({ stdout }) => ({ code: 0, report: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, report: error.stdout }),
  );
  const js = existsSync(join(outDir, 'main.js')) ? readFileSync(join(outDir, 'main.js'), 'utf8') : undefined;
  const dts = existsSync(join(outDir, 'main.d.ts')) ? readFileSync(join(outDir, 'main.d.ts'), 'utf8') : undefined;
  return { ...result, js, dts };
}

const recordsIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith('tsc-')) : []);

describe('the compiler shared between Node lines', () => {
  it('replays a clean run for the same sources into another scratch outDir, and compiles again after an edit', async () => {
    const records = join(base, 'records');
    const dir = project('export const answer: number = 41;\n');
    const first = await compile(dir, records);
    expect(first).toMatchObject({ code: 0, report: '' });
    expect(first.js).toContain('answer = 41');
    expect(first.dts).toContain('answer: number');
    const [record] = recordsIn(records);
    expect(record).toBeDefined();
    // Altered on purpose: what the next run writes is the record's, not a compile's.
    const path = join(records, record!);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { files: [string, string][] };
    saved.files = saved.files.map(([name, bytes]) => [name, name.endsWith('main.js') ? Buffer.from('// from the record\n').toString('base64') : bytes]);
    writeFileSync(path, JSON.stringify(saved));
    const replayed = await compile(dir, records);
    expect(replayed).toMatchObject({ code: 0, report: '', js: '// from the record\n' });
    expect(replayed.dts).toBe(first.dts);
    // Another source: another key, a real compile, a second record.
    writeFileSync(join(dir, 'main.ts'), 'export const answer: number = 42;\n');
    const edited = await compile(dir, records);
    expect(edited.js).toContain('answer = 42');
    expect(recordsIn(records)).toHaveLength(2);
  });

  it('never records a failing run: its report and exit code come from the compiler each time', async () => {
    const records = join(base, 'failing');
    const dir = project("export const answer: number = 'no';\n");
    for (const _ of [1, 2]) {
      const result = await compile(dir, records);
      expect(result.code).not.toBe(0);
      expect(result.report).toMatch(/main\.ts\(1,14\): error TS2322/);
    }
    expect(recordsIn(records)).toEqual([]);
  });

  it('shares nothing for a project that may read outside its folder, nor outside .ci/run', async () => {
    const records = join(base, 'outside');
    const outside = project('export const answer = 1;\n', { extends: '../base.json', include: ['main.ts'] });
    writeFileSync(join(base, 'base.json'), JSON.stringify({ compilerOptions: { declaration: true, types: [], lib: ['ES5'] } }));
    expect((await compile(outside, records)).code).toBe(0);
    const dotted = project('export const answer = 4;\n', { extends: './../base.json', include: ['main.ts'] });
    expect((await compile(dotted, records)).code).toBe(0);
    const linked = project('export const answer = 2;\n');
    mkdirSync(join(base, 'elsewhere'), { recursive: true });
    symlinkSync(join(base, 'elsewhere'), join(linked, 'types'));
    expect((await compile(linked, records)).code).toBe(0);
    expect(recordsIn(records)).toEqual([]);
    const plain = project('export const answer = 3;\n');
    const unset = await compile(plain, undefined);
    expect(unset.js).toContain('answer = 3');
  });
});
