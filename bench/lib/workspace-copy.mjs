// A throw-away copy of the workspace (specs, scripts, configs, generated, src; node_modules
// linked), so benchmarks can edit specs and regenerate without touching the real tree.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_ENTRIES } from '../../model/workspace-paths.mjs';

export const ROOT = join(import.meta.dirname, '../..');

export async function workspaceCopy(prefix = 'bench-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const entry of BUILD_ENTRIES) await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
