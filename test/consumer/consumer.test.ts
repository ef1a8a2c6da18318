// The package as another project gets it (test/consumer/project.ts: packed from a
// checkout without dist/, installed offline into a throw-away project): what the tarball
// holds, a strict consumer's type check under every supported resolution, ESM and
// CommonJS, with and without the DOM library, its program (compiled by TypeScript 7) run against the mock of the
// contract project, its own vitest suite against the packaged mock (useMock, and startMock
// for a server of its own), and the mock's installed command.
//
// One pack and one install for all of it. The TypeScript 5.9 checks run in this process
// (test/helpers/typecheck.ts: one program per project, the declaration files parsed once);
// TypeScript 7, which has no API, runs as its own command.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { tsc7 } from '../helpers/tsc7.js';
import { typecheck } from '../helpers/typecheck.js';
import { sharedResult, sharedVerdict, treeHash } from '../helpers/verdicts.js';
import { filesUnder } from '../../lib/walk.mjs';
import { CONSUMER_SOURCE, NODE_SERVICE_SOURCE } from './consumer-source.js';
import { APP_SOURCE, TEST_SOURCE } from './consumer-suite.js';
import { makeConsumerProject, type ConsumerProject } from './project.js';

const run = promisify(execFile);

type Format = 'ESM' | 'CommonJS';
/** The consumer's compiler: TypeScript 7 (the native one, current) or 5.9 (the last 5.x). */
type Compiler = '7' | '5.9';
type Row = [name: string, options: Record<string, unknown>, formats: Format[], compilers: Compiler[]];

// Supported: node16, nodenext and bundler, from ESM and CommonJS (bundler is ESM-only
// by TypeScript's rules); node10 too, for CommonJS (main/types/typesVersions). Each
// resolution is one project: its ESM and CommonJS files sit in folders with their own
// package.json `type`, which is how TypeScript (and Node) pick each file's format, so
// one program checks both, as one tsc run would in a project that has both.
// Consumers compile with TypeScript 7 or 5.x: every resolution TypeScript 7 has is checked
// with it; nodenext (the Node default) with 5.9 too; node10, which TypeScript 7 removed,
// with 5.9 only.
const RESOLUTIONS: Row[] = [
  ['node16', { module: 'node16', moduleResolution: 'node16' }, ['ESM', 'CommonJS'], ['7']],
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['ESM', 'CommonJS'], ['7', '5.9']],
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['ESM'], ['7']],
  ['node10', { module: 'commonjs', moduleResolution: 'node10' }, ['CommonJS'], ['5.9']],
];
// A strict Node service: no DOM library (`lib: ["ES2022"]`), so nothing in the
// declarations may lean on DOM types that Node does not declare.
const WITHOUT_DOM: Row[] = [
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['ESM', 'CommonJS'], ['7', '5.9']],
  ['node16', { module: 'node16', moduleResolution: 'node16' }, ['ESM'], ['7']],
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['ESM'], ['7']],
];
/** One row per compiler, its title first: "node16, ESM and CommonJS, TypeScript 7". */
const titled = (rows: Row[]) =>
  rows.flatMap(([name, options, formats, compilers]) =>
    compilers.map((compiler) => [`${name}, ${formats.join(' and ')}, TypeScript ${compiler}`, name, options, formats, compiler] as const),
  );
const folderOf = (format: Format) => (format === 'ESM' ? 'esm' : 'cjs');

/**
 * `tsc -p <dir>` of the given compiler: its report, '' when clean. TypeScript 5.9 runs in
 * this process (test/helpers/typecheck.ts); TypeScript 7 as its own command
 * (test/helpers/tsc7.ts), checking every file the options say to (@types/node included).
 */
async function typecheckWith(compiler: Compiler, dir: string): Promise<string> {
  return compiler === '5.9' ? typecheck(dir, 'tsconfig.json', CONSUMER_OWN).output : tsc7(dir);
}

/**
 * The same, for a project that emits nothing (its report is all it gives): the verdict is
 * shared between the Node lines of one `.ci/run` (test/helpers/verdicts.ts), keyed by the
 * compiler, the files of `dir` and what the consumer installed.
 */
async function verdictOf(compiler: Compiler, dir: string): Promise<string> {
  return sharedVerdict([COMPILERS[compiler], String(CONSUMER_OWN.notChecked), ...consumerInputs], dir, () => typecheckWith(compiler, dir));
}
/**
 * TypeScript 7's compile of a project that emits: its report, with the programs written
 * beside their sources. Shared between the Node lines of one `.ci/run` like the verdicts
 * (test/helpers/verdicts.ts): the native compiler's report and emit are a function of its
 * version, the project's files and what the consumer installed, not of the Node line; a clean
 * compile is recorded with the files it wrote, and another line writes those files instead
 * of compiling again. The programs themselves run on every line.
 */
async function compiled(dir: string): Promise<string> {
  const inputs = [COMPILERS['7'], 'emit', String(CONSUMER_OWN.notChecked), ...consumerInputs, treeHash(dir)];
  let compiledHere = false;
  const { report, files } = await sharedResult(
    inputs,
    async () => {
      compiledHere = true;
      const before = new Set(filesUnder(dir));
      const report = await tsc7(dir);
      const files = filesUnder(dir)
        .filter((file: string) => !before.has(file))
        .map((file: string) => [relative(dir, file), readFileSync(file, 'utf8')] as [string, string]);
      return { report, files };
    },
    ({ report, files }) => report === '' && files.length > 0,
  );
  if (!compiledHere) for (const [path, text] of files) writeFileSync(join(dir, path), text);
  return report;
}
const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(join(import.meta.dirname, '../../node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
const COMPILERS: Record<Compiler, string> = { '5.9': `typescript@${versionOf('typescript')}`, '7': `typescript@${versionOf('typescript-7')}` };
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const STRICT = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  // The package's own .d.ts files are checked too, and openapi-fetch's (its dependency).
  // Not re-checked in every project: TypeScript's own lib.*.d.ts (skipDefaultLibCheck) and
  // the consumer's @types/node with its undici-types (CONSUMER_OWN below). They are the
  // compiler's and the consumer's choice, not the package's, and checking them again was
  // most of what each project cost.
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  esModuleInterop: true,
};

let project: ConsumerProject;
/** What a check reads outside its own folder: the installed package, and what npm installed and linked beside it. */
let consumerInputs: string[] = [];
const CONSUMER_OWN = { notChecked: /[\\/]node_modules[\\/](@types[\\/]node|undici-types)[\\/]/ };

beforeAll(async () => {
  project = await makeConsumerProject();
  consumerInputs = [treeHash(project.installed), sha(join(project.consumer, 'package-lock.json')), sha(join(import.meta.dirname, '../../package-lock.json'))];
}, 300_000);

afterAll(() => {
  if (project) rmSync(project.work, { recursive: true, force: true });
});

/** A project folder under the consumer: tsconfig.json and files (a package.json is a file too). */
function writeProject(name: string, compilerOptions: Record<string, unknown>, files: Record<string, string>, include: string[]): string {
  const dir = mkdtempSync(join(project.consumer, `${name.replace(/\W+/g, '-')}-`));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** One folder per format, with its package.json `type` and `source` as main.ts. */
function formatFolders(formats: Format[], source: string): Record<string, string> {
  return Object.fromEntries(
    formats.flatMap((format) => [
      [`${folderOf(format)}/package.json`, JSON.stringify({ type: format === 'ESM' ? 'module' : 'commonjs' })],
      [`${folderOf(format)}/main.ts`, source],
    ]),
  );
}

describe('the tarball', () => {
  it('was compiled by prepack from a checkout without dist/: ESM and CommonJS builds, their types, the mock, a README, no tests', () => {
    for (const file of [
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/index.node.js',
      'dist/cjs/package.json',
      'dist/cjs/src/index.node.js',
      'dist/cjs/src/index.d.ts',
      'mock/index.mjs',
      'README.md',
    ]) {
      expect(project.packed, file).toContain(file);
    }
    expect(project.packed.some((f) => f.startsWith('test/'))).toBe(false);
    // The clients read the run-time manifest only; the catalogue of every version ships for
    // the mock and tools but no client module imports it (it would grow an app's bundle).
    for (const file of ['dist/generated/client-manifest.js', 'dist/cjs/generated/client-manifest.js', 'dist/generated/operations.js']) {
      expect(project.packed).toContain(file);
    }
    for (const dir of ['dist/src', 'dist/cjs/src']) {
      const modules = readdirSync(join(project.installed, dir)).filter((f) => f.endsWith('.js'));
      const texts = modules.map((module) => readFileSync(join(project.installed, dir, module), 'utf8'));
      for (const [i, text] of texts.entries()) expect(text, `${dir}/${modules[i]}`).not.toMatch(/generated\/operations/);
      // Some client module reads the run-time manifest (which one is the client's own layout).
      expect(
        texts.some((text) => /generated\/client-manifest\.js/.test(text)),
        `${dir}: a module importing generated/client-manifest.js`,
      ).toBe(true);
    }
    expect(readFileSync(join(project.installed, 'README.md'), 'utf8')).toContain('## Using the package from another project');
    expect(JSON.parse(readFileSync(join(project.installed, 'dist/cjs/package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  });
});

describe('a strict consumer of the installed package', () => {
  // What the consumer's program does at run time is Node's and the package's business, not
  // the consumer's compiler's: TypeScript 7 compiles each resolution's program and it runs
  // (node10 resolves types only; at run time Node's `require` takes the same path as in the
  // node16 and nodenext rows); TypeScript 5.9 type-checks the same source.
  const rows = titled(RESOLUTIONS).map(
    ([title, ...row]) => [`${title}: ${row[3] === '7' ? 'type-checks, compiles and runs against the mock' : 'type-checks'}`, ...row] as const,
  );
  it.each(rows)(
    '%s',
    async (_title, name, options, formats, compiler) => {
      const runs = compiler === '7';
      const dir = writeProject(
        `${name} ts${compiler}`,
        { ...STRICT, ...options, ...(runs ? {} : { noEmit: true }) },
        formatFolders(formats, CONSUMER_SOURCE),
        formats.map(folderOf),
      );
      expect(await (runs ? compiled(dir) : verdictOf(compiler, dir)), 'tsc output').toBe('');
      if (!runs) return;
      for (const format of formats) {
        // Emitted beside its source, where its package.json gives Node its format.
        const main = join(folderOf(format), 'main.js');
        expect(existsSync(join(dir, main)), main).toBe(true);
        const { stdout } = await run(process.execPath, [main, inject('mockUrl')], { cwd: dir });
        expect(JSON.parse(stdout), `${name}, ${format}`).toEqual({
          created: 201,
          methodCode: 'string',
          role: 200,
          roleHasId: true,
          refused: 'invalid-argument',
          change: 'Fixture',
        });
      }
    },
    120_000,
  );

  it.each(titled(WITHOUT_DOM))('%s, without the DOM library: type-checks with skipLibCheck: false', async (_title, name, options, formats, compiler) => {
    const dir = writeProject(
      `no-dom ${name} ts${compiler}`,
      { ...STRICT, lib: ['ES2022'], noEmit: true, ...options },
      formatFolders(formats, NODE_SERVICE_SOURCE),
      formats.map(folderOf),
    );
    expect(await verdictOf(compiler, dir), 'tsc output').toBe('');
  });

  it("the project's own vitest suite contract-tests its app code against the mock: useMock, seed, override, requests, startMock", async () => {
    // Typed as a strict consumer writes it (vitest's own declarations are not ours to
    // check), with TypeScript 7: the rows above check the package's declarations with both.
    const compilerOptions = { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, skipLibCheck: true };
    const dir = writeProject(
      'suite',
      compilerOptions,
      { 'package.json': JSON.stringify({ type: 'module' }), 'src/app.ts': APP_SOURCE, 'test/app.test.ts': TEST_SOURCE },
      ['src', 'test'],
    );
    expect(await verdictOf('7', dir), 'tsc output').toBe('');
    // This run's own vitest settings stay out of the consumer's run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|TEST$|NODE_OPTIONS$)/.test(key)));
    const vitest = join(project.consumer, 'node_modules/vitest/vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--reporter=json', '--outputFile=report.json'], { cwd: dir, env, timeout: 240_000 }).catch(
      (e: { stdout: string; stderr: string }) => e,
    );
    type Report = {
      numTotalTests: number;
      numPassedTests: number;
      testResults: { message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
    };
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const failed = report.testResults.flatMap((file) => [
      ...(file.message ? [file.message.slice(0, 1000)] : []),
      ...file.assertionResults.filter((t) => t.status !== 'passed').map((t) => `${t.fullName} (${t.status}): ${t.failureMessages.join('\n').slice(0, 600)}`),
    ]);
    expect(failed, String((result as { stderr?: string }).stderr ?? '')).toEqual([]);
    expect(report.numTotalTests).toBe(TEST_SOURCE.match(/\n  it\(/g)!.length);
    expect(report.numPassedTests).toBe(report.numTotalTests);
  }, 300_000);
});

// Another project's view of the mock: the installed command (`bin`), and the entry without
// its optional peers. (The documented entry, `import { startMock } from
// 'provider-api-clients/mock'`, is used by the consumer's own suite above.)
describe('the mock from the installed package', () => {
  it('the installed command (bin) starts, prints its URL, stops on SIGTERM', async () => {
    const pkg = JSON.parse(readFileSync(join(project.installed, 'package.json'), 'utf8'));
    const bin = join(project.installed, pkg.bin['provider-api-mock']);
    const child = spawn(process.execPath, [bin, '--port', '0'], { cwd: project.consumer, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 20_000);
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const ready = /^mock {2}(http:\/\/\S+) /m.exec(out);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    child.removeAllListeners('exit');
    const answer = await fetch(`${url}/api/v1.0/companies(x)/shipmentMethods`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'EXW', displayName: 'Ex Works' }),
    });
    expect(answer.status).toBe(201);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  });

  it('a project without the optional Prism peers gets a message naming them', async () => {
    // Not under the consumer project: module resolution would walk up to its node_modules.
    const bare = mkdtempSync(join(tmpdir(), 'mock-bare-consumer-'));
    onTestFinished(() => rmSync(bare, { recursive: true, force: true }));
    cpSync(project.installed, join(bare, 'node_modules/provider-api-clients'), { recursive: true });
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
    writeFileSync(
      join(bare, 'try.mjs'),
      `import { startMock } from 'provider-api-clients/mock';\nconst mock = await startMock({ port: 0 }).catch((e) => console.log(e.message));\nawait mock?.close();\n`,
    );
    const { stdout } = await run(process.execPath, ['try.mjs'], { cwd: bare, timeout: 20_000 });
    expect(stdout).toMatch(/optional peer dependency: npm install --save-dev @stoplight\/prism-http@5\.12\.0 .*js-yaml@4\.3\.2/);
  });
});
