// `npm pack` from a checkout that has never built dist/, with the repository's own .npmrc
// (no flags): the tarball holds the compiled package, because `prepack` compiles it.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
let stage: string;

beforeAll(async () => {
  stage = await mkdtemp(join(tmpdir(), 'pack-'));
  for (const entry of ['package.json', '.npmrc', 'README.md', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cjs.json', 'src', 'scripts', 'generated', 'redocly.yaml']) {
    await cp(join(ROOT, entry), join(stage, entry), { recursive: true, filter: (source) => !source.includes(`${join(ROOT, 'generated/docs')}`) });
  }
  await symlink(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
}, 60_000);

afterAll(() => rm(stage, { recursive: true, force: true }));

describe('npm pack in a checkout without dist/', () => {
  it('compiles dist/ first (prepack), so the tarball holds the ESM and CommonJS builds with types', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: stage, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 32 * 1024 * 1024 });
    const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ files: Array<{ path: string }> }>;
    const paths = packed[0]!.files.map((f: { path: string }) => f.path);
    for (const file of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/index.node.js', 'dist/cjs/src/index.node.js', 'dist/cjs/src/index.d.ts', 'scripts/mock/index.mjs']) {
      expect(paths, file).toContain(file);
    }
  }, 180_000);
});
