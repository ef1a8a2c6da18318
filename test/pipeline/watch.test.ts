// `npm run dev` on a throw-away copy of the workspace: a change regenerates only the
// affected document; a broken edit prints file:line and leaves generated/ as it was;
// fixing the edit recovers without a restart; a change in specs/common/ redoes every
// document that references it. (Timings are the benchmark's business, not this test's.)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceCopy } from '../helpers/workspace-copy.js';

let dir: string;
let remove: (() => Promise<void>) | undefined;
let child: ChildProcess;
let output = '';

function waitFor(pattern: RegExp, from: number, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const seen = output.slice(from);
      if (pattern.test(seen)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(seen);
      }
    };
    const poll = setInterval(check, 20);
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no ${pattern} in:\n${output.slice(from)}`));
    }, timeoutMs);
    check();
  });
}

const file = (path: string) => join(dir, path);
const SHIPMENT_SCHEMA = 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml';
const SHIPMENT_TYPES = 'generated/types/shipmentmethods-v1.0.ts';
const VENDOR_TYPES = 'generated/types/vendors-v2.0.ts';

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('watch-test-'));
  child = spawn(process.execPath, ['scripts/watch.mjs', '--no-mock', '--no-docs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  await waitFor(/dev  watch/, 0, 60_000);
}, 90_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await remove?.();
});

describe('npm run dev', () => {
  it('regenerates the types of the changed document only', async () => {
    const vendorBefore = await readFile(file(VENDOR_TYPES), 'utf8');
    const from = output.length;
    const schema = await readFile(file(SHIPMENT_SCHEMA), 'utf8');
    await writeFile(file(SHIPMENT_SCHEMA), schema.replace('description: Short code.', 'description: Short code, edited.'));
    const cycle = await waitFor(/dev  done /, from);
    expect(cycle).toContain('shipmentmethods@v1.0');
    expect(cycle).not.toContain('vendors@v2.0');
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, edited.');
    expect(await readFile(file(VENDOR_TYPES), 'utf8')).toBe(vendorBefore);
  });

  it('keeps the last good outputs on a broken edit and names file and line', async () => {
    const typesBefore = await readFile(file(SHIPMENT_TYPES), 'utf8');
    const bundleBefore = await readFile(file('generated/bundled/shipmentmethods-v1.0.yaml'), 'utf8');
    const good = await readFile(file(SHIPMENT_SCHEMA), 'utf8');
    const from = output.length;
    await writeFile(file(SHIPMENT_SCHEMA), good.replace('  code:\n    type: string', '  code:\n    type: strin'));
    const report = await waitFor(/keep the last good version/, from);
    expect(report).toMatch(/specs\/business-central\/v1\.0\/schemas\/ShipmentMethod\.yaml:\d+:\d+  error  /);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toBe(typesBefore);
    expect(await readFile(file('generated/bundled/shipmentmethods-v1.0.yaml'), 'utf8')).toBe(bundleBefore);

    const fixed = output.length;
    await writeFile(file(SHIPMENT_SCHEMA), good.replace('description: Short code, edited.', 'description: Short code, fixed.'));
    await waitFor(/dev  done .*shipmentmethods@v1\.0/, fixed);
    expect(await readFile(file(SHIPMENT_TYPES), 'utf8')).toContain('Short code, fixed.');
  });

  it('redoes every document that references a changed file in specs/common/', async () => {
    const from = output.length;
    const common = file('specs/common/business-central/parameters/company_id.yaml');
    await writeFile(common, (await readFile(common, 'utf8')).replace('Key of the company', 'Key (id) of the company'));
    const cycle = await waitFor(/dev  done /, from);
    expect(cycle).toContain('vendors@v2.0');
    expect(cycle).toContain('shipmentmethods@v1.0');
    expect(cycle).not.toContain('sql@2025-01-01');
    expect(await readFile(file(VENDOR_TYPES), 'utf8')).toContain('Key (id) of the company');
  });
});
