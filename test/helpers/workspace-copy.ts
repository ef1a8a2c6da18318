// A throw-away copy of what the pipeline needs (specs, scripts, configs, generated/;
// node_modules linked), for tests that break specs or run `npm run dev` on purpose.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const ENTRIES = ['specs', 'scripts', 'spectral', 'generated', 'src', 'redocly.yaml', '.spectral.yaml', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

export async function workspaceCopy(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const entry of ENTRIES) await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
