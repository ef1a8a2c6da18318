// Malformed input, fed to `npm run lint`, `npm run generate` and `npm run build` on a
// throw-away copy of the workspace: each must end in `file:line:col` lines naming what
// is wrong and a non-zero exit, never a stack trace.
// The table runs each command's `main` in this process (test/helpers/in-process.ts), on a
// copy holding only the document the case breaks (one copy per such document, each case
// breaking it and putting it back): the engines load once, not once per case, and a case
// lints one document, however many the workspace has. One case also runs each command as the shell does, a new Node process on a copy
// of its own, for the exit code and the output it really prints.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess, type CommandResult } from '../helpers/in-process.js';
import { editFiles, workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const copies: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(copies.map((remove) => remove())));

const SHIPMENT_ROOT = 'specs/business-central/v1.0/openapi.yaml';
const SQL_ROOT = 'specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml';
// Each case runs on a copy that holds the one document it breaks (`in`), and no other:
// it lints what it broke, not every document of a growing workspace.

type Edit = [file: string, change: (text: string) => string];

interface Case {
  what: string;
  /** The root of the one document the copy holds. */
  in: string;
  edits: Edit[];
  /** The one line that must name the problem. */
  expected: RegExp;
  /** Also run generate and build (not only lint). */
  all?: boolean;
}

const cases: Case[] = [
  {
    what: 'a YAML syntax error in a root document',
    in: SHIPMENT_ROOT,
    edits: [[SHIPMENT_ROOT, (t) => t.replace('info:', 'info: [unclosed')]],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  yaml-syntax  .+$/m,
    all: true,
  },
  {
    what: 'a root document that is a list',
    in: SHIPMENT_ROOT,
    edits: [[SHIPMENT_ROOT, () => '- openapi\n- 3.1.0\n']],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:1:1  error  not-an-object  the root document is a list, not a YAML mapping/m,
  },
  {
    what: 'an empty root document',
    in: SHIPMENT_ROOT,
    edits: [[SHIPMENT_ROOT, () => '']],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:1:1  error  not-an-object  the root document is empty/m,
  },
  {
    what: 'a $ref to a missing file in a root document',
    in: SHIPMENT_ROOT,
    edits: [[SHIPMENT_ROOT, (t) => t.replace('./paths/shipmentMethods.yaml', './paths/missing.yaml')]],
    expected: /^specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  (no-unresolved-refs|bundler)  .*paths\/missing\.yaml/m,
    all: true,
  },
  {
    what: 'a YAML syntax error in a referenced file',
    in: SHIPMENT_ROOT,
    edits: [['specs/business-central/v1.0/paths/shipmentMethods.yaml', (t) => `${t}oops: [\n`]],
    expected: /^specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:\d+:\d+  error  /m,
  },
  {
    what: 'an unparsable redocly.yaml',
    in: SHIPMENT_ROOT,
    edits: [['redocly.yaml', (t) => t.replace('apis:', 'apis: [')]],
    expected: /^redocly\.yaml:\d+:\d+  error  yaml-syntax  .+$/m,
    all: true,
  },
  {
    what: 'a redocly.yaml without apis',
    in: SHIPMENT_ROOT,
    edits: [['redocly.yaml', (t) => t.replace('apis:', 'notapis:')]],
    expected: /^redocly\.yaml:1:1  error  apis-entry  `apis:` must map each/m,
  },
  {
    what: 'an API whose root document does not exist',
    in: SHIPMENT_ROOT,
    edits: [['redocly.yaml', (t) => t.replace('specs/business-central/v1.0/openapi.yaml', 'specs/business-central/v1.0/nothere.yaml')]],
    expected: /^specs\/business-central\/v1\.0\/nothere\.yaml:1:1  error  file-not-found/m,
  },
  {
    what: 'an info.version that disagrees with its redocly.yaml key',
    in: SQL_ROOT,
    edits: [[SQL_ROOT, (t) => t.replace('version: 2025-01-01', 'version: 2025-06-01')]],
    expected:
      /^specs\/resource-manager\/Provider\.Sql\/2025-01-01\/openapi\.yaml:\d+:\d+  error  api-version-mismatch  info\.version "2025-06-01" disagrees with its redocly\.yaml key "sql@2025-01-01"/m,
  },
  {
    what: 'a redocly.yaml key whose version disagrees with the folder',
    in: SQL_ROOT,
    edits: [['redocly.yaml', (t) => t.replace('sql@2025-01-01:', 'sql@2025-06-01:')]],
    expected: /^redocly\.yaml:\d+:\d+  error  api-version-mismatch  "sql@2025-06-01": its root document lives in the folder "2025-01-01"/m,
  },
  {
    what: 'a business-data server prefix that disagrees with its version',
    in: SHIPMENT_ROOT,
    edits: [[SHIPMENT_ROOT, (t) => t.replace('default: http://127.0.0.1:4010/api/v1.0', 'default: http://127.0.0.1:4010/api/v1.1')]],
    expected:
      /^specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  api-version-mismatch  the server prefix "[^"]*\/api\/v1\.1" disagrees with the version "v1\.0"/m,
  },
  {
    what: 'two entries that claim the same document',
    in: SQL_ROOT,
    edits: [
      [
        'redocly.yaml',
        (t) =>
          `${t.replace('apis:\n', 'apis:\n  sql@2025-01-02:\n    root: specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml\n    output: generated/bundled/sql-2025-01-02.yaml\n')}`,
      ],
    ],
    expected: /^redocly\.yaml:\d+:\d+  error  api-version-mismatch  "sql@2025-01-01" and "sql@2025-01-02" claim the same root/m,
  },
];

async function runAsProcess(dir: string, script: string, ...args: string[]): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { cwd: dir });
    return { code: 0, output: stdout + stderr, stdout, stderr };
  } catch (error: any) {
    const [stdout, stderr] = [String(error.stdout), String(error.stderr)];
    return { code: error.code as number, output: stdout + stderr, stdout, stderr };
  }
}

const commandsOf = ({ all }: Case): Array<[string, string[]]> => [
  ['pipeline/lint.mjs', []],
  ...(all
    ? ([
        ['pipeline/generate.mjs', []],
        ['pipeline/build.mjs', ['--no-docs', '--no-compile']],
      ] as Array<[string, string[]]>)
    : []),
];

/** A copy of its own with the case's edits made. */
async function brokenCopy(input: Case): Promise<string> {
  const { dir, remove } = await workspaceCopy('bad-input-', { documents: [input.in] });
  copies.push(remove);
  await editFiles(dir, input.edits);
  return dir;
}

function expectNamedProblem({ code, output }: CommandResult, expected: RegExp) {
  expect(code, output).toBe(1);
  expect(output).toMatch(expected);
  expect(output).not.toMatch(/^\s+at /m); // no stack frame
  expect(output).not.toMatch(/Error:|node:internal/);
  expect(output.trim().split('\n').length, output).toBeLessThan(15);
}

describe.sequential('in-process, one copy per document, broken and put back per case', () => {
  // root -> a copy holding that document alone, made when a case first needs it.
  const shared = new Map<string, Promise<string>>();
  const copyFor = (root: string) => {
    if (!shared.has(root))
      shared.set(
        root,
        workspaceCopy('bad-input-', { documents: [root] }).then((copy) => {
          copies.push(copy.remove);
          return copy.dir;
        }),
      );
    return shared.get(root)!;
  };

  describe.each(cases)('$what', (input) => {
    it.each(commandsOf(input))(
      '%s fails with file:line:col and no stack trace',
      async (script, args) => {
        const dir = await copyFor(input.in);
        const restore = await editFiles(dir, input.edits);
        try {
          expectNamedProblem(await runInProcess(dir, script, ...args), input.expected);
        } finally {
          await restore();
        }
      },
      60_000,
    );
  });
});

// The exit code the shell sees is main()'s (each script ends in `process.exitCode = await
// main()`): one process run per command shows it. lint.mjs and build.mjs are run as
// processes on a bad document in test/security/untrusted-specs.test.ts (the alias bomb,
// with their CPU and memory measured); generate.mjs here.
describe('as the shell runs them: a new Node process, its exit code and output', () => {
  const input = cases.find((c) => c.all)!;
  it(`pipeline/generate.mjs on ${input.what}`, async () => {
    expectNamedProblem(await runAsProcess(await brokenCopy(input), 'pipeline/generate.mjs'), input.expected);
  }, 120_000);
});
