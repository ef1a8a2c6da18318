// The package as another project gets it, made once for test/consumer/: `npm pack` in a
// copy of the checkout that has never built dist/ (the repository's own .npmrc, no flags),
// so the package's `prepack` compiles dist/ as it does for `npm publish` or a git install;
// then a throw-away consumer project that installs the tarball offline (openapi-fetch and
// @types/node from the local npm cache, by this workspace's lockfile) and links the mock's
// optional peers and vitest from this workspace, as a project that tests against the mock
// adds them as dev dependencies (same versions, no registry).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
// @ts-expect-error: plain ESM module without types
import { CODE_ROOMS } from '../../model/workspace-paths.mjs';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  engines?: unknown;
};
const TYPES_NODE = (JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }).version;
// No colour in what the tests read; the rest of npm's settings come from the copy's .npmrc.
const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1' };

export interface ConsumerProject {
  /** The temporary folder holding everything below (remove it when done). */
  work: string;
  /** The tarball `npm pack` made. */
  tarball: string;
  /** The paths npm reported packing (relative, without the `package/` prefix). */
  packed: string[];
  /** The consumer project: node_modules/provider-api-clients is the installed tarball. */
  consumer: string;
  /** node_modules/provider-api-clients of the consumer. */
  installed: string;
}

/**
 * The consumer's package.json and package-lock.json: the tarball, plus @types/node (a
 * Node consumer's types), with every other package pinned to what this workspace's
 * lockfile holds. With a lockfile, `npm ci --offline` takes each tarball from the local
 * cache by its integrity and needs no registry metadata, which the cache may not hold.
 */
function writeConsumerManifests(dir: string, tarball: string, packedName: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string; dependencies?: Record<string, string> }>;
  };
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const dependencies = { [PACKAGE.name]: `file:../${packedName}`, '@types/node': TYPES_NODE };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies },
    [`node_modules/${PACKAGE.name}`]: {
      version: PACKAGE.version,
      resolved: `file:../${packedName}`,
      integrity,
      dependencies: PACKAGE.dependencies,
      engines: PACKAGE.engines,
    },
  };
  const add = (name: string) => {
    const key = `node_modules/${name}`;
    const entry = lock.packages[key];
    if (!entry) throw new Error(`${name} is not in package-lock.json (hoisted)`);
    if (packages[key]) return;
    packages[key] = { ...entry, dev: undefined, devOptional: undefined, peer: undefined };
    for (const dep of Object.keys(entry.dependencies ?? {})) add(dep);
  };
  for (const dep of [...Object.keys(PACKAGE.dependencies), '@types/node']) add(dep);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
}

export async function makeConsumerProject(): Promise<ConsumerProject> {
  const work = mkdtempSync(join(tmpdir(), 'consumer-'));
  // 1. A checkout without dist/: what the package is built from, the repository's .npmrc,
  //    and this workspace's dev tools (node_modules linked).
  const stage = join(work, 'checkout');
  mkdirSync(stage);
  for (const entry of [
    'package.json',
    '.npmrc',
    'README.md',
    'tsconfig.json',
    'tsconfig.build.json',
    'tsconfig.cjs.json',
    'redocly.yaml',
    'src',
    ...CODE_ROOMS,
    'generated',
  ]) {
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true, filter: (source) => !source.startsWith(join(ROOT, 'generated/docs')) });
  }
  if (existsSync(join(stage, 'dist'))) throw new Error('the staged checkout has a dist/ before packing');
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  // 2. `npm pack`, no flags beyond where to put it and what to report.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: stage, env: NPM_ENV, maxBuffer: 32 * 1024 * 1024 });
  const [report] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!report) throw new Error(`npm pack reported no tarball: ${stdout.slice(0, 500)}`);
  const tarball = join(work, report.filename);
  // 3. The consumer project, installed offline from the tarball and the npm cache.
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeConsumerManifests(consumer, tarball, report.filename);
  await run('npm', ['ci', '--offline', '--ignore-scripts', '--loglevel=error'], { cwd: consumer, env: NPM_ENV });
  // 4. The mock's optional peers and vitest, linked from this workspace.
  for (const name of [...Object.keys(PACKAGE.peerDependencies), 'vitest']) {
    const link = join(consumer, 'node_modules', name);
    mkdirSync(join(link, '..'), { recursive: true });
    if (!existsSync(link)) symlinkSync(join(ROOT, 'node_modules', name), link, 'dir');
  }
  return { work, tarball, packed: report.files.map((f) => f.path), consumer, installed: join(consumer, 'node_modules', PACKAGE.name) };
}
