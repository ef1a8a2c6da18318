// The type-check verdicts .ci/run shares between Node lines (test/helpers/verdicts.ts):
// keyed by every input, only clean ones recorded, nothing shared without CHECK_VERDICTS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const base = mkdtempSync(join(tmpdir(), 'verdicts-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function helper(folder: string | undefined) {
  vi.resetModules();
  vi.stubEnv('CHECK_VERDICTS', folder);
  try {
    return await import('../helpers/verdicts.js');
  } finally {
    vi.unstubAllEnvs();
  }
}

describe('shared type-check verdicts', () => {
  it('reuse a clean verdict for the same inputs, and check again when any input or file differs', async () => {
    const { sharedVerdict } = await helper(join(base, 'records'));
    const project = mkdtempSync(join(base, 'project-'));
    writeFileSync(join(project, 'main.ts'), 'export const a = 1;\n');
    let checks = 0;
    const check = () => {
      checks++;
      return '';
    };
    expect(await sharedVerdict(['typescript@x', 'options'], project, check)).toBe('');
    expect(await sharedVerdict(['typescript@x', 'options'], project, check)).toBe('');
    expect(checks).toBe(1);
    await sharedVerdict(['typescript@y', 'options'], project, check); // another compiler
    expect(checks).toBe(2);
    writeFileSync(join(project, 'main.ts'), 'export const a = 2;\n'); // another input
    await sharedVerdict(['typescript@x', 'options'], project, check);
    expect(checks).toBe(3);
  });

  it('never record a failing verdict', async () => {
    const { sharedVerdict } = await helper(join(base, 'failing'));
    const project = mkdtempSync(join(base, 'project-'));
    writeFileSync(join(project, 'main.ts'), 'export const a: string = 1;\n');
    let checks = 0;
    const check = () => {
      checks++;
      return "main.ts(1,14): error TS2322: Type 'number' is not assignable to type 'string'.";
    };
    await sharedVerdict(['typescript@x'], project, check);
    expect(await sharedVerdict(['typescript@x'], project, check)).toMatch(/TS2322/);
    expect(checks).toBe(2);
  });

  it('share nothing outside .ci/run (no CHECK_VERDICTS)', async () => {
    const { sharedVerdict } = await helper(undefined);
    const project = mkdtempSync(join(base, 'project-'));
    let checks = 0;
    await sharedVerdict(['typescript@x'], project, () => {
      checks++;
      return '';
    });
    await sharedVerdict(['typescript@x'], project, () => {
      checks++;
      return '';
    });
    expect(checks).toBe(2);
  });
});
