// The compile behind dist/ (pipeline/compile-dist.mjs: TypeScript 7, ES modules and
// CommonJS, into a fresh folder swapped in for dist/): it must give exactly the dist/
// that TypeScript 5.9 emits for the same sources (the compiler the package was built with
// before, and the one whose API the tests use; compared in the first case), and after each
// kind of change the dist/ of the sources as they are, never a mix of old and new (each
// later case compares with the dist/ the same sources gave before it); a failed compile
// must leave dist/ alone.
// Runs on a throw-away copy of the workspace (its dist/ is the copy's own).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typecheck } from '../helpers/typecheck.js';
import { sharedResult, treeHash } from '../helpers/verdicts.js';
import { filesUnder } from '../../lib/walk.mjs';
import { workspaceCopy } from '../helpers/workspace-copy.js';

let dir: string;
let remove: (() => Promise<void>) | undefined;
let compile: () => Promise<{ files: number }>;
let CompileFailed: new (...args: any[]) => Error;

const file = (path: string) => join(dir, path);

/** Every file under dist/ (path -> text). */
async function tree(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // Not readdir's `recursive`: it follows symlinked folders on every Node line (lib/walk.mjs).
  for (const file of filesUnder(root)) files.set(relative(root, file), await readFile(file, 'utf8'));
  return files;
}

// TypeScript 5.9 compiles tsconfig.cjs.json under Node10 resolution: it refuses Bundler with
// CommonJS (TS5095), and TypeScript 7 removed Node10. The reference config says so.
const CJS_59 = 'tsconfig.cjs-5.9.json';
const PROJECTS = [
  { config: 'tsconfig.build.json', commonjs: false },
  { config: CJS_59, commonjs: true },
];

interface Reference {
  /** Each project's report and whether its emit was skipped. */
  projects: { config: string; output: string; emitSkipped: boolean }[];
  /** path under dist/ -> text */
  files: [string, string][];
}

/**
 * What TypeScript 5.9 emits for the copy's sources, as dist/ would hold it (path -> text):
 * a plain program per project (test/helpers/typecheck.ts), as `tsc -p tsconfig.build.json`
 * and `tsc -p tsconfig.cjs.json` of 5.9 would emit, plus the CommonJS build's
 * {"type":"commonjs"}: a reference independent of the compiler under test. Emit only: the
 * compile under test has just checked these sources.
 */
function emitReference(): Reference {
  const files = new Map<string, string>();
  const projects: Reference['projects'] = [];
  for (const { config, commonjs } of PROJECTS) {
    const { output, emitSkipped } = typecheck(dir, config, { check: false, writeFile: (path, text) => void files.set(relative(file('dist'), path), text) });
    projects.push({ config, output, emitSkipped });
    if (commonjs) files.set('cjs/package.json', '{"type":"commonjs"}\n');
  }
  return { projects, files: [...files] };
}

/** A hash of every .ts file under the copy's generated/ (relative path and bytes). */
function typesHash(): string {
  const hash = createHash('sha256');
  for (const path of filesUnder(file('generated')).filter((path: string) => path.endsWith('.ts')))
    hash.update(relative(dir, path)).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex');
}
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(join(import.meta.dirname, '../../node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The reference emit, shared between the Node lines of one `.ci/run` (test/helpers/verdicts.ts):
 * TypeScript 5.9's emit is a function of the compiler and what it reads (the copy's sources,
 * generated/, its tsconfigs and package.json, and node_modules, which the lockfile pins),
 * not of the Node line. A clean emit is recorded; the TypeScript 7 compile under test runs
 * on every line and is compared with it there.
 */
async function reference(): Promise<Map<string, string>> {
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json', CJS_59, 'package.json', 'package-lock.json'];
  const inputs = [
    `typescript@${versionOf('typescript')}`,
    'dist/ reference emit (test/pipeline/compile.test.ts)',
    ...PROJECTS.map(({ config }) => config),
    ...configs.map((config) => `${config}:${sha(file(config))}`),
    `src:${treeHash(file('src'))}`,
    // tsconfig.build.json reads generated/**/*.ts (not the bundles or the docs pages).
    `generated:${typesHash()}`,
  ];
  const clean = (ref: Reference) => ref.projects.every(({ output, emitSkipped }) => output === '' && !emitSkipped);
  const { projects, files } = await sharedResult(inputs, emitReference, clean);
  for (const { config, output, emitSkipped } of projects) {
    expect(output, config).toBe('');
    expect(emitSkipped, config).toBe(false);
  }
  return new Map(files);
}

async function expectSameAsReference(): Promise<Map<string, string>> {
  const compiled = await tree(file('dist'));
  const expected = await reference();
  expect([...compiled.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [path, text] of expected) expect(compiled.get(path), path).toBe(text);
  return compiled;
}

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('compile-test-'));
  const root = join(import.meta.dirname, '../..');
  await cp(join(root, 'tsconfig.cjs.json'), file('tsconfig.cjs.json'));
  await writeFile(file(CJS_59), JSON.stringify({ extends: './tsconfig.cjs.json', compilerOptions: { moduleResolution: 'Node10' } }));
  const module = await import(pathToFileURL(file('pipeline/compile-dist.mjs')).href);
  CompileFailed = module.CompileFailed;
  compile = module.createCompiler({ root: dir });
}, 180_000);

afterAll(async () => {
  await remove?.();
});

describe.sequential('the dist/ compile', () => {
  it('gives what TypeScript 5.9 emits, ESM and CommonJS, after a source edit and a regenerated types file', async () => {
    const errors = file('src/errors.ts');
    await writeFile(errors, `${await readFile(errors, 'utf8')}\nexport const compiledMarker = 'edit one';\n`);
    // What a spec save produces: one regenerated file under generated/types/.
    const types = file('generated/types/sql-2025-01-01.ts');
    await writeFile(types, `${await readFile(types, 'utf8')}\nexport type RegeneratedMarker = 'regenerated';\n`);
    await compile();
    const dist = await expectSameAsReference();
    expect(dist.get('src/errors.js')).toContain('edit one');
    expect(dist.get('cjs/src/errors.js')).toContain('edit one');
    expect(dist.get('src/errors.d.ts')).toContain('compiledMarker');
    expect(dist.get('generated/types/sql-2025-01-01.d.ts')).toContain('RegeneratedMarker');
  }, 180_000);

  // Each compile is a whole one, so the cases below compare with the dist/ of the same
  // sources before them; the first compares with TypeScript 5.9. (Changes that need no
  // compile of their own share one: each compile is two tsc processes.)
  it('replaces dist/ whole: a new source adds its outputs; a removed one, a hand edit and a stray file are gone after the next compile', async () => {
    const before = await tree(file('dist'));
    await writeFile(file('src/extra.ts'), "export const extra = 'added';\n");
    await compile();
    const added = await tree(file('dist'));
    expect(added.get('src/extra.js')).toContain('added');
    expect(added.get('cjs/src/extra.d.ts')).toContain('extra');
    // A file the next change does not touch, edited by hand, and one no source produces.
    await writeFile(file('dist/src/errors.js'), `${before.get('src/errors.js')}\n// edited by hand\n`);
    await writeFile(file('dist/src/stray.js'), 'export const stray = 1;\n');
    await rm(file('src/extra.ts'));
    await compile();
    expect(await tree(file('dist'))).toEqual(before);
  }, 180_000);

  it('leaves dist/ as it was when the sources do not compile, names each file and line once, checks the CommonJS build too, and catches up once fixed', async () => {
    const before = await tree(file('dist'));
    const errors = file('src/errors.ts');
    const good = await readFile(errors, 'utf8');
    const line = good.split('\n').length + 1;
    // A source only an ES module may hold: the ES module compile passes, the CommonJS
    // compile alone fails, and dist/ is left alone all the same.
    await writeFile(file('src/esm-only.ts'), 'export const here = import.meta.url;\n');
    await expect(compile()).rejects.toThrow(/src\/esm-only\.ts\(1,\d+\): error TS1343/);
    expect(await tree(file('dist'))).toEqual(before);
    // And an error both compiles find, beside it.
    await writeFile(errors, `${good}\nexport const broken: number = 'not a number';\n`);
    const failure = await compile().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(CompileFailed);
    expect(failure?.message).toContain(`src/errors.ts(${line},14): error TS2322: Type 'string' is not assignable to type 'number'.`);
    expect(failure?.message).toMatch(/src\/esm-only\.ts\(1,\d+\): error TS1343/);
    // Reported once, though both the ES module and the CommonJS compile find it.
    expect(failure?.message.split('\n').filter((l) => l.includes('TS2322'))).toHaveLength(1);
    expect(await tree(file('dist'))).toEqual(before);
    await rm(file('src/esm-only.ts'));
    await writeFile(errors, `${good}\nexport const fixed = 2;\n`);
    await compile();
    const dist = await tree(file('dist'));
    expect([...dist.keys()].sort()).toEqual([...before.keys()].sort());
    expect(dist.get('src/errors.d.ts')).toContain('fixed');
    expect(dist.get('cjs/src/errors.js')).toContain('exports.fixed = 2');
  }, 180_000);
});
