// The incremental compiler behind dist/ (scripts/lib/compile.mjs), warm in `npm run dev`
// and resumed from saved build info by the next `npm run build`: after each kind of
// change it must leave exactly the dist/ a fresh compile of the same sources would, never
// a mix of old and new, and a failed compile must leave dist/ alone.
// Runs on a throw-away copy of the workspace (its dist/ is the copy's own). The fresh
// compile each result is compared with is an independent reference (freshDist below).
import { execFile } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typecheck } from '../helpers/typecheck.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
let dir: string;
let remove: (() => Promise<void>) | undefined;
let compile: (options?: { write?: boolean }) => Promise<{ files: number; from: string[] }>;
let CompileFailed: new (...args: any[]) => Error;
let createCompiler: () => typeof compile;

const file = (path: string) => join(dir, path);

/** Every file under dist/ (path -> text). */
async function tree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(relative(root, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

/** Compiles the copy in a new process (which may resume from the saved build info). */
async function compileInNewProcess(): Promise<string[]> {
  const script = `const { createCompiler } = await import(${JSON.stringify(pathToFileURL(file('scripts/lib/compile.mjs')).href)}); console.log(JSON.stringify((await createCompiler()()).from));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
  return JSON.parse(stdout);
}

const PROJECTS = [
  { config: 'tsconfig.build.json', under: '', commonjs: false },
  { config: 'tsconfig.cjs.json', under: 'cjs', commonjs: true },
];

/**
 * What a fresh compile of the copy's sources gives, as dist/ would hold it (path -> text):
 * a plain program per project (test/helpers/typecheck.ts), as `tsc -p tsconfig.build.json`
 * and `tsc -p tsconfig.cjs.json` would emit, plus the CommonJS build's {"type":"commonjs"}.
 * Not scripts/lib/compile.mjs (no builder, no saved state, no swap): the incremental
 * compiler is checked against an independent reference. Emit only: the compile under test
 * has just passed on these sources, and emit gives the same files with or without a check.
 * The helper's shared parsed files make each reference cost the emit, not a cold start.
 */
function freshDist(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { config, under, commonjs } of PROJECTS) {
    const { output, emitSkipped } = typecheck(dir, config, { check: false, writeFile: (path, text) => void files.set(relative(file('dist'), path), text) });
    expect(output, config).toBe('');
    expect(emitSkipped, config).toBe(false);
    if (commonjs) files.set(join(under, 'package.json'), '{"type":"commonjs"}\n');
  }
  return files;
}

async function expectSameAsFresh(): Promise<Map<string, string>> {
  const incremental = await tree(file('dist'));
  const fresh = freshDist();
  expect([...incremental.keys()].sort()).toEqual([...fresh.keys()].sort());
  for (const [path, text] of fresh) expect(incremental.get(path), path).toBe(text);
  return incremental;
}

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('compile-test-'));
  const root = join(import.meta.dirname, '../..');
  await cp(join(root, 'tsconfig.cjs.json'), file('tsconfig.cjs.json'));
  // This checkout's dist/ and the compiler's saved state, when built: the first compile
  // resumes from them instead of compiling everything (a stale or missing dist/ is simply
  // compiled afresh; every result below is checked against the reference either way).
  for (const path of ['dist', '.cache/provider-api/tsc']) {
    if (existsSync(join(root, path))) await cp(join(root, path), file(path), { recursive: true });
  }
  const module = await import(pathToFileURL(file('scripts/lib/compile.mjs')).href);
  CompileFailed = module.CompileFailed;
  createCompiler = module.createCompiler;
  compile = createCompiler();
  await compile();
}, 180_000);

afterAll(async () => {
  await remove?.();
});

describe.sequential('incremental dist/ compile', () => {
  it('gives what a fresh compile gives after a source edit and a regenerated types file (ESM and CommonJS)', async () => {
    const errors = file('src/errors.ts');
    await writeFile(errors, `${await readFile(errors, 'utf8')}\nexport const compiledMarker = 'edit one';\n`);
    // What a spec save produces: one regenerated file under generated/types/.
    const types = file('generated/types/sql-2025-01-01.ts');
    await writeFile(types, `${await readFile(types, 'utf8')}\nexport type RegeneratedMarker = 'regenerated';\n`);
    expect((await compile()).from).toEqual(['memory', 'memory']); // started from its own last compile
    const dist = await expectSameAsFresh();
    expect(dist.get('src/errors.js')).toContain('edit one');
    expect(dist.get('cjs/src/errors.js')).toContain('edit one');
    expect(dist.get('src/errors.d.ts')).toContain('compiledMarker');
    expect(dist.get('generated/types/sql-2025-01-01.d.ts')).toContain('RegeneratedMarker');
  }, 180_000);

  it('drops the outputs of a source that is gone, and adds those of a new one', async () => {
    await writeFile(file('src/extra.ts'), "export const extra = 'added';\n");
    await compile();
    expect((await tree(file('dist'))).get('src/extra.js')).toContain('added');
    await rm(file('src/extra.ts'));
    await compile();
    const dist = await expectSameAsFresh();
    expect([...dist.keys()].filter((path) => path.includes('extra'))).toEqual([]);
  }, 180_000);

  it('leaves dist/ as it was when the sources do not compile, and catches up once fixed', async () => {
    const before = await tree(file('dist'));
    const errors = file('src/errors.ts');
    const good = await readFile(errors, 'utf8');
    await writeFile(errors, `${good}\nexport const broken: number = 'not a number';\n`);
    await expect(compile()).rejects.toThrow(CompileFailed);
    await expect(compile()).rejects.toThrow(/src\/errors\.ts.*not assignable to type 'number'/s);
    expect(await tree(file('dist'))).toEqual(before);
    await writeFile(errors, `${good}\nexport const fixed = 2;\n`);
    await compile();
    const dist = await expectSameAsFresh();
    expect(dist.get('src/errors.d.ts')).toContain('fixed');
  }, 180_000);

  it('resumes in a new process from the saved build info, and gives what a fresh compile gives', async () => {
    const paging = file('src/paging.ts');
    await writeFile(paging, `${await readFile(paging, 'utf8')}\nexport const resumedMarker = 'resumed';\n`);
    expect(await compileInNewProcess()).toEqual(['saved', 'saved']); // ESM and CommonJS
    const dist = await expectSameAsFresh();
    expect(dist.get('src/paging.js')).toContain('resumed');
  }, 180_000);

  it('compiles afresh when dist/ is not the tree the build info describes (edited by hand)', async () => {
    // A file the next change does not touch: resuming would keep the hand edit.
    await writeFile(file('dist/src/errors.js'), `${await readFile(file('dist/src/errors.js'), 'utf8')}\n// edited by hand\n`);
    const paging = file('src/paging.ts');
    await writeFile(paging, `${await readFile(paging, 'utf8')}\nexport const secondMarker = 2;\n`);
    // A new compiler (no state in memory) reads dist/ and the saved state from disk, as a
    // new process does (the case above crosses the process boundary).
    expect((await createCompiler()()).from).toEqual(['fresh', 'fresh']);
    // A fresh compile already (asserted above): comparing it with another fresh compile
    // would check the compiler against itself. Whole means nothing of the hand-edited tree
    // is left and every output is the current source's.
    const dist = await tree(file('dist'));
    expect(dist.get('src/errors.js')).not.toContain('edited by hand');
    expect(dist.get('src/paging.d.ts')).toContain('secondMarker');
  }, 180_000);
});
