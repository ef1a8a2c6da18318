// The package as another project gets it: packed (its `prepare` builds dist/ from a
// copy of the sources, never touching this worktree's dist/), installed from the
// tarball offline (openapi-fetch and @types/node come from the local npm cache),
// type-checked as a strict consumer under every supported resolution, ESM and
// CommonJS, and run against the mock of the contract project.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONSUMER_SOURCE } from './consumer-source.js';
import { APP_SOURCE, TEST_SOURCE } from './consumer-suite.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const TYPES_NODE = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')).version as string;
// npm without this workspace's .npmrc, the user's update checks or colour.
const PEERS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies;
const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', NO_COLOR: '1' };

interface Variant {
  type: 'module' | 'commonjs';
  compilerOptions: Record<string, unknown>;
}

// Supported: node16, nodenext and bundler, from ESM and CommonJS (bundler is ESM-only
// by TypeScript's rules); node10 too, for CommonJS (main/types/typesVersions).
const VARIANTS: Record<string, Variant> = {
  'node16, ESM': { type: 'module', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  'node16, CommonJS': { type: 'commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  'nodenext, ESM': { type: 'module', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  'nodenext, CommonJS': { type: 'commonjs', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } },
  'bundler, ESM': { type: 'module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
  'node10, CommonJS': { type: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
};

const STRICT = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  // The package's own .d.ts files are checked too.
  skipLibCheck: false,
  esModuleInterop: true,
  outDir: 'out',
  rootDir: 'src',
};

/**
 * The consumer's package.json and package-lock.json: the tarball, plus @types/node (a
 * Node consumer's types), with every other package pinned to what this workspace's
 * lockfile holds. With a lockfile, `npm ci --offline` takes each tarball from the
 * local cache by its integrity and needs no registry metadata, which the cache may
 * not hold.
 */
function writeConsumerProject(dir: string, packed: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; dependencies?: Record<string, string> }> };
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; engines?: unknown };
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(work, packed))).digest('base64')}`;
  const dependencies = { [manifest.name]: `file:../${packed}`, '@types/node': TYPES_NODE };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies },
    [`node_modules/${manifest.name}`]: { version: manifest.version, resolved: `file:../${packed}`, integrity, dependencies: manifest.dependencies, engines: manifest.engines },
  };
  const add = (name: string) => {
    const key = `node_modules/${name}`;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`${name} is not in package-lock.json (hoisted)`);
    if (packages[key]) return;
    packages[key] = { ...entry, dev: undefined, devOptional: undefined, peer: undefined };
    for (const dep of Object.keys(entry.dependencies ?? {})) add(dep);
  };
  for (const dep of [...Object.keys(manifest.dependencies), '@types/node']) add(dep);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
}

let work: string;
let consumer: string;
let tarball: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'consumer-'));
  // 1. A copy of what the package is built from, with this workspace's dev tools.
  const stage = join(work, 'package');
  mkdirSync(join(stage, 'generated'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json']) cpSync(join(ROOT, file), join(stage, file));
  // scripts/: `prepare` runs scripts/compile.mjs, as it does in a git checkout.
  // generated/bundled: the documents the packaged mock serves.
  for (const dir of ['src', 'scripts', 'generated/types', 'generated/bundled']) cpSync(join(ROOT, dir), join(stage, dir), { recursive: true });
  for (const file of ['generated/client-manifest.ts', 'generated/operations.ts', 'generated/versions.ts', 'redocly.yaml']) cpSync(join(ROOT, file), join(stage, file));
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  // 2. npm pack runs `prepare`, as `npm install git+…` does: nothing built beforehand.
  await run('npm', ['pack', '--ignore-scripts=false', '--loglevel=error', '--pack-destination', work], { cwd: stage, env: NPM_ENV });
  const packed = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!packed) throw new Error('npm pack made no tarball');
  tarball = join(work, packed);
  const packedName = packed;
  // 3. A consumer project, installed offline from the tarball and the npm cache.
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeConsumerProject(consumer, packedName);
  await run('npm', ['ci', '--offline', '--ignore-scripts', '--loglevel=error'], { cwd: consumer, env: NPM_ENV });
  // 4. The mock's optional peers and vitest, as a project that tests against the mock adds
  //    them as dev dependencies: linked from this workspace (same versions, no registry).
  for (const name of [...Object.keys(PEERS), 'vitest']) {
    const link = join(consumer, 'node_modules', name);
    mkdirSync(join(link, '..'), { recursive: true });
    if (!existsSync(link)) symlinkSync(join(ROOT, 'node_modules', name), link, 'dir');
  }
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the package, installed into another project', () => {
  it('ships the ESM and CommonJS builds, their types and a README for consumers, and no tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    for (const file of ['package/dist/src/index.node.js', 'package/dist/src/index.d.ts', 'package/dist/cjs/package.json', 'package/dist/cjs/src/index.node.js', 'package/dist/cjs/src/index.d.ts']) {
      expect(files).toContain(file);
    }
    expect(files.some((f) => f.startsWith('package/test/'))).toBe(false);
    // The clients read the run-time manifest only; the catalogue of every version ships for
    // the mock and tools but no client module imports it (it would grow an app's bundle).
    for (const file of ['package/dist/generated/client-manifest.js', 'package/dist/cjs/generated/client-manifest.js', 'package/dist/generated/operations.js']) {
      expect(files).toContain(file);
    }
    const installed = join(consumer, 'node_modules/provider-api-clients');
    for (const dir of ['dist/src', 'dist/cjs/src']) {
      const modules = readdirSync(join(installed, dir)).filter((f) => f.endsWith('.js'));
      expect(modules).toContain('core.js');
      for (const module of modules) expect(readFileSync(join(installed, dir, module), 'utf8'), `${dir}/${module}`).not.toMatch(/generated\/operations/);
      expect(readFileSync(join(installed, dir, 'core.js'), 'utf8')).toMatch(/generated\/client-manifest\.js/);
    }
    const readme = readFileSync(join(consumer, 'node_modules/provider-api-clients/README.md'), 'utf8');
    expect(readme).toContain('## Using the package from another project');
    expect(JSON.parse(readFileSync(join(consumer, 'node_modules/provider-api-clients/dist/cjs/package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  }, 60_000);

  // Concurrent: each variant is a tsc process of its own, and the machine has cores to spare for them.
  it.concurrent.each(Object.entries(VARIANTS))('%s: a strict consumer type-checks and runs against the mock', async (_name, variant) => {
    const dir = mkdtempSync(join(consumer, 'variant-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: variant.type }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...STRICT, ...variant.compilerOptions }, include: ['src'] }));
    writeFileSync(join(dir, 'src/main.ts'), CONSUMER_SOURCE);
    const check = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).catch((e: { stdout: string }) => e);
    expect(check.stdout, 'tsc output').toBe('');
    expect(existsSync(join(dir, 'out/main.js'))).toBe(true);
    const { stdout } = await run(process.execPath, ['out/main.js', inject('mockUrl')], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      created: 201,
      methodCode: 'string',
      role: 200,
      roleHasId: true,
      refused: 'invalid-argument',
      change: 'Fixture',
    });
  }, 120_000);

  it("the project's own vitest suite contract-tests its app code against the mock: useMock, seed, override, requests", async () => {
    const dir = join(consumer, 'suite');
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'src/app.ts'), APP_SOURCE);
    writeFileSync(join(dir, 'test/app.test.ts'), TEST_SOURCE);
    // Typed as a strict consumer writes it (vitest's own declarations are not ours to check).
    const compilerOptions = { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, skipLibCheck: true, rootDir: '.' };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src', 'test'] }));
    const check = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).catch((e: { stdout: string }) => e);
    expect(check.stdout, 'tsc output').toBe('');
    // This run's own vitest settings stay out of the consumer's run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_OPTIONS$)/.test(name)));
    const vitest = join(consumer, 'node_modules/vitest/vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--reporter=json', '--outputFile=report.json'], { cwd: dir, env, timeout: 240_000 }).catch((e: { stdout: string; stderr: string }) => e);
    type Report = { numTotalTests: number; numPassedTests: number; testResults: { message: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[] };
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
