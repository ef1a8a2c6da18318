// The unit project's scratch folder for this run: the growth files' shared copy
// (test/growth/grown.ts) is made inside it, and it is removed when the project's run
// ends. A test worker is stopped when the run is over, not asked to exit, so the worker
// that made the copy has no moment of its own to remove it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    runScratch: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'provider-api-run-'));
  project.provide('runScratch', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
