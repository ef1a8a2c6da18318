// Malformed input, fed to `npm run lint`, `npm run generate` and `npm run build` on a
// throw-away copy of the workspace: each must end in `file:line:col` lines naming what
// is wrong and a non-zero exit, never a stack trace.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const copies: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(copies.map((remove) => remove())));

const SHIPMENT_ROOT = 'specs/business-central/v1.0/openapi.yaml';
const VENDOR_ROOT = 'specs/business-central/v2.0/openapi.yaml';
const SQL_ROOT = 'specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml';

type Edit = [file: string, change: (text: string) => string];

interface Case {
  what: string;
  edits: Edit[];
  /** The one line that must name the problem. */
  expected: RegExp;
  /** Also run generate and build (not only lint). */
  all?: boolean;
}

const cases: Case[] = [
  {
    what: 'a YAML syntax error in a root document',
    edits: [[SHIPMENT_ROOT, (t) => t.replace('info:', 'info: [unclosed')]],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  yaml-syntax  .+$/m,
    all: true,
  },
  {
    what: 'a root document that is a list',
    edits: [[SHIPMENT_ROOT, () => '- openapi\n- 3.1.0\n']],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:1:1  error  not-an-object  the root document is a list, not a YAML mapping/m,
  },
  {
    what: 'an empty root document',
    edits: [[SHIPMENT_ROOT, () => '']],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:1:1  error  not-an-object  the root document is empty/m,
  },
  {
    what: 'a $ref to a missing file in a root document',
    edits: [[SHIPMENT_ROOT, (t) => t.replace('./paths/shipmentMethods.yaml', './paths/missing.yaml')]],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  (no-unresolved-refs|bundler)  .*paths\/missing\.yaml/m,
    all: true,
  },
  {
    what: 'a YAML syntax error in a referenced file',
    edits: [['specs/business-central/v1.0/paths/shipmentMethods.yaml', (t) => `${t}oops: [\n`]],
    expected: /^specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:\d+:\d+  error  /m,
  },
  {
    what: 'an unparsable redocly.yaml',
    edits: [['redocly.yaml', (t) => t.replace('apis:', 'apis: [')]],
    expected: /^redocly\.yaml:\d+:\d+  error  yaml-syntax  .+$/m,
    all: true,
  },
  {
    what: 'a redocly.yaml without apis',
    edits: [['redocly.yaml', (t) => t.replace('apis:', 'notapis:')]],
    expected: /^redocly\.yaml:1:1  error  apis-entry  `apis:` must map each/m,
  },
  {
    what: 'an API whose root document does not exist',
    edits: [['redocly.yaml', (t) => t.replace('specs/business-central/v1.0/openapi.yaml', 'specs/business-central/v1.0/nothere.yaml')]],
    expected: /^specs\/business-central\/v1\.0\/nothere\.yaml:1:1  error  file-not-found/m,
  },
  {
    what: 'an info.version that disagrees with its redocly.yaml key',
    edits: [[SQL_ROOT, (t) => t.replace('version: 2025-01-01', 'version: 2025-06-01')]],
    expected: /^specs\/resource-manager\/Provider\.Sql\/2025-01-01\/openapi\.yaml:\d+:\d+  error  api-version-mismatch  info\.version "2025-06-01" disagrees with its redocly\.yaml key "sql@2025-01-01"/m,
  },
  {
    what: 'a redocly.yaml key whose version disagrees with the folder',
    edits: [['redocly.yaml', (t) => t.replace('sql@2025-01-01:', 'sql@2025-06-01:')]],
    expected: /^redocly\.yaml:\d+:\d+  error  api-version-mismatch  "sql@2025-06-01": its root document lives in the folder "2025-01-01"/m,
  },
  {
    what: 'a business-data server prefix that disagrees with its version',
    edits: [[VENDOR_ROOT, (t) => t.replace('default: http://127.0.0.1:4010/api/v2.0', 'default: http://127.0.0.1:4010/api/v2.1')]],
    expected: /^specs\/business-central\/v2\.0\/openapi\.yaml:\d+:\d+  error  api-version-mismatch  the server prefix "[^"]*\/api\/v2\.1" disagrees with the version "v2\.0"/m,
  },
  {
    what: 'two entries that claim the same document',
    edits: [['redocly.yaml', (t) => `${t.replace('apis:\n', 'apis:\n  sql@2025-01-02:\n    root: specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml\n    output: generated/bundled/sql-2025-01-02.yaml\n')}`]],
    expected: /^redocly\.yaml:\d+:\d+  error  api-version-mismatch  "sql@2025-01-01" and "sql@2025-01-02" claim the same root/m,
  },
];

async function runIn(dir: string, script: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return { code: error.code as number, output: String(error.stdout) + String(error.stderr) };
  }
}

describe.concurrent.each(cases)('$what', ({ edits, expected, all }) => {
  const commands: Array<[string, string[]]> = [['scripts/lint.mjs', []]];
  if (all) commands.push(['scripts/generate.mjs', []], ['scripts/build.mjs', ['--no-docs', '--no-compile']]);

  it.each(commands)('%s fails with file:line:col and no stack trace', async (script, args) => {
    const { dir, remove } = await workspaceCopy('bad-input-');
    copies.push(remove);
    for (const [file, change] of edits) await writeFile(join(dir, file), change(await readFile(join(dir, file), 'utf8')));
    const { code, output } = await runIn(dir, script, ...args);
    expect(code, output).toBe(1);
    expect(output).toMatch(expected);
    expect(output).not.toMatch(/^\s+at /m); // no stack frame
    expect(output).not.toMatch(/Error:|node:internal/);
    expect(output.trim().split('\n').length, output).toBeLessThan(15);
  }, 120_000); // each spawns a CLI; many run at once on 2 cores
});
