// `npm run lint` on a copy of the workspace, broken in the three ways the lint must
// catch. Each broken copy must fail with the file and line of the problem.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceCopy as copyWorkspace } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const copies: Array<() => Promise<void>> = [];

async function workspaceCopy(documents: 'bounded' | 'all' = 'bounded'): Promise<string> {
  const { dir, remove } = await copyWorkspace('lint-catches-', { documents });
  copies.push(remove);
  return dir;
}

async function edit(file: string, change: (text: string) => string) {
  await writeFile(file, change(await readFile(file, 'utf8')));
}

// A broken copy lints only the document it breaks (`npm run lint <api>`): the time of
// these tests must not grow with the number of documents in the workspace.
const BROKEN = 'businesscentral@v1.0';

async function lintIn(dir: string, ...apis: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/lint.mjs', ...apis], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return { code: error.code, output: String(error.stdout) + String(error.stderr) };
  }
}

afterAll(async () => {
  await Promise.all(copies.map((remove) => remove()));
});

const SHIPMENT_PATH = 'specs/business-central/v1.0/paths/shipmentMethods.yaml';
const SHIPMENT_EXAMPLE = 'specs/business-central/v1.0/examples/createShipmentMethod_CodeAndDisplayName.yaml';

// Generous: four linters start at once, and on a shared 2-core machine loading the
// engines alone can take most of the default 30 s.
describe.concurrent('npm run lint', { timeout: 120_000 }, () => {
  it('passes on the workspace as it is', async () => {
    // Every document (the one lint here whose work grows with the workspace: it is the check).
    const { code, output } = await lintIn(await workspaceCopy('all'));
    expect(output).toContain('lint  passed');
    expect(output).not.toMatch(/error|warning/);
    expect(code).toBe(0);
  });

  it('fails on a dangling $ref, naming the file and line', async () => {
    const dir = await workspaceCopy();
    await edit(join(dir, SHIPMENT_PATH), (t) => t.replace('../schemas/ShipmentMethod.yaml', '../schemas/Missing.yaml'));
    const { code, output } = await lintIn(dir, BROKEN);
    expect(code).not.toBe(0);
    expect(output).toMatch(/specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:20:11  error  no-unresolved-refs .*\(redocly\)/);
    expect(output).toMatch(/paths\/shipmentMethods\.yaml:\d+:\d+  error  invalid-ref .*\(spectral\)/);
  });

  it('fails on an operation without responses', async () => {
    const dir = await workspaceCopy();
    await edit(join(dir, SHIPMENT_PATH), (t) => t.slice(0, t.indexOf('  responses:')));
    const { code, output } = await lintIn(dir, BROKEN);
    expect(code).not.toBe(0);
    expect(output).toMatch(/specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:\d+:\d+  error  house-operation-responses .*\(spectral\)/);
  });

  it('fails on an example that breaks its schema, naming the example file and line', async () => {
    const dir = await workspaceCopy();
    await edit(join(dir, SHIPMENT_EXAMPLE), (t) => t.replace('code: EXW', 'code: 12'));
    const { code, output } = await lintIn(dir, BROKEN);
    expect(code).not.toBe(0);
    expect(output).toMatch(/examples\/createShipmentMethod_CodeAndDisplayName\.yaml:4:9  error  no-invalid-media-type-examples .*\(redocly\)/);
    expect(output).toMatch(/examples\/createShipmentMethod_CodeAndDisplayName\.yaml:4:9  error  oas3-valid-media-example .*\(spectral\)/);
  });
});
