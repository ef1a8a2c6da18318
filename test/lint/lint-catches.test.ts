// `npm run lint` on a copy of the workspace, broken in the ways the lint must catch. Each broken copy must fail with the file and line of the problem.
// In-process (test/helpers/in-process.ts): one copy, broken and put back per case; the
// exit code a shell sees is test/lint/bad-input.test.ts's business.
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../lib/walk.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { editFiles, workspaceCopy as copyWorkspace } from '../helpers/workspace-copy.js';

const copies: Array<() => Promise<void>> = [];

async function workspaceCopy(documents: 'bounded' | 'all' = 'bounded'): Promise<string> {
  const { dir, remove } = await copyWorkspace('lint-catches-', { documents });
  copies.push(remove);
  return dir;
}

// A broken copy lints only the document it breaks (`npm run lint <api>`): the time of
// these tests must not grow with the number of documents in the workspace.
const BROKEN = 'businesscentral@v1.0';
const lintIn = (dir: string, ...apis: string[]) => runInProcess(dir, 'pipeline/lint.mjs', ...apis);

let dir: string;
beforeAll(async () => {
  dir = await workspaceCopy();
});

/** Lints the one document with `edits` made, then puts the files back. */
async function lintBroken(file: string, change: (text: string) => string) {
  const restore = await editFiles(dir, [[file, change]]);
  try {
    return await lintIn(dir, BROKEN);
  } finally {
    await restore();
  }
}

afterAll(async () => {
  await Promise.all(copies.map((remove) => remove()));
});

/** `base`, or `base2`, `base3` …: the first that no file under the copy's specs/ gives as an operationId. */
function unusedOperationId(base: string): string {
  const used = new Set(
    filesUnder(join(dir, 'specs')).flatMap((file: string) => [...readFileSync(file, 'utf8').matchAll(/operationId:\s*['"]?([\w.-]+)/g)].map((m) => m[1])),
  );
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}${n}`;
  return name;
}

/** The edit of .spectral.yaml that turns `rule` off at `place`, written as docs/lint.md says. */
const suppressed = (rule: string, place: string): [string, (text: string) => string] => [
  '.spectral.yaml',
  (text) => `${text.trimEnd()}\n  # Why: a test of the suppression form.\n  - files:\n      - "${place}"\n    rules:\n      ${rule}: off\n`,
];

const SHIPMENT_PATH = 'specs/business-central/v1.0/paths/shipmentMethods.yaml';
const SHIPMENT_ROOT = 'specs/business-central/v1.0/openapi.yaml';
const SHIPMENT_EXAMPLE = 'specs/business-central/v1.0/examples/createShipmentMethod_CodeAndDisplayName.yaml';

describe.sequential('npm run lint', { timeout: 60_000 }, () => {
  it('passes on the workspace as it is', async () => {
    // Every document (the one lint here whose work grows with the workspace: it is the check).
    const { code, output } = await lintIn(await workspaceCopy('all'));
    expect(output).toContain('lint  passed');
    expect(output).not.toMatch(/error|warning/);
    expect(code).toBe(0);
  });

  it('fails on a dangling $ref, naming the file and line', async () => {
    // Where the broken $ref is: the line of its first use, the column of its key (an
    // operation added above it moves both).
    let at = '';
    const { code, output } = await lintBroken(SHIPMENT_PATH, (t) => {
      const line = t.slice(0, t.indexOf('../schemas/ShipmentMethod.yaml')).split('\n');
      at = `${line.length}:${line.at(-1)!.indexOf('$ref') + 1}`;
      return t.replace('../schemas/ShipmentMethod.yaml', '../schemas/Missing.yaml');
    });
    expect(code).not.toBe(0);
    expect(output).toContain(`specs/business-central/v1.0/paths/shipmentMethods.yaml:${at}  error  no-unresolved-refs `);
    expect(output).toMatch(/no-unresolved-refs .*\(redocly\)/);
    expect(output).toMatch(/paths\/shipmentMethods\.yaml:\d+:\d+  error  invalid-ref .*\(spectral\)/);
  });

  it('fails on an operation without responses', async () => {
    const { code, output } = await lintBroken(SHIPMENT_PATH, (t) => t.slice(0, t.indexOf('  responses:')));
    expect(code).not.toBe(0);
    expect(output).toMatch(/specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:\d+:\d+  error  house-operation-responses .*\(spectral\)/);
  });

  // Issue 33: two edits that passed lint and failed only `npm test`, without file and line.
  // Its operationId is one no document of the copy uses: a workspace grown by the recipe
  // may hold a `deleteShipmentMethod` of its own, and a duplicate would fail lint for
  // another reason (operation-operationId-unique).
  const deleteWithoutName = () => `delete:
  operationId: ${unusedOperationId('deleteShipmentMethod')}
  summary: Delete a shipment method
  description: Deletes one shipment method of a company.
  tags:
    - ShipmentMethods
  parameters:
    - $ref: ../../../common/business-central/parameters/company_id.yaml
  responses:
    "204":
      description: Deleted.
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`;
  it('fails on a DELETE answering 204 whose parameters have bare examples and no named one (house-operation-named-example)', async () => {
    const { code, output } = await lintBroken(SHIPMENT_PATH, (t) => `${t}${deleteWithoutName()}`);
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:\d+:\d+  error  house-operation-named-example  DELETE \/companies\(\{company_id\}\)\/shipmentMethods has no named example.*\(spectral\)/,
    );
  });

  it('passes with that finding suppressed at its place in .spectral.yaml, as docs/lint.md writes it', async () => {
    const restore = await editFiles(dir, [
      [SHIPMENT_PATH, (t) => `${t}${deleteWithoutName()}`],
      suppressed('house-operation-named-example', 'specs/business-central/v1.0/{openapi,paths/shipmentMethods}.yaml#/delete'),
    ]);
    try {
      const { code, output } = await lintIn(dir, BROKEN);
      expect(output).not.toContain('house-operation-named-example');
      expect(code, output).toBe(0);
    } finally {
      await restore();
    }
  });

  // Two files of one name and kind in one document: the bundler makes them `company_id`
  // and `company_id-2` (which is which follows the order of paths), renaming a generated
  // type with no finding from either linter (house-component-name-unique).
  const COMMON_COMPANY = 'specs/common/business-central/parameters/company_id.yaml';
  const OWN_COMPANY = 'specs/business-central/v1.0/parameters/company_id.yaml';
  /** A method the collection's path file does not declare yet (a grown workspace may hold a GET). */
  const freeMethod = (text: string) => ['get', 'put', 'patch', 'delete', 'options', 'head'].find((method) => !new RegExp(`^${method}:`, 'm').test(text))!;
  const listReadingOwnCompany = (method: string) => `${method}:
  operationId: ${unusedOperationId('listShipmentMethods')}
  summary: List shipment methods
  description: Lists the shipment methods of a company.
  tags:
    - ShipmentMethods
  parameters:
    - $ref: ../parameters/company_id.yaml
  responses:
    "200":
      description: The shipment methods.
      content:
        application/json:
          schema:
            type: object
          examples:
            Empty:
              value: {}
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`;
  /** Lints with the document's own company_id.yaml (`own`: its text) read beside the shared one, then removes it. */
  async function lintWithOwnCompany(own: (common: string) => string, extra: Array<[string, (text: string) => string]> = []) {
    // The folder may be the document's already (a workspace grown by the recipe has one):
    // only what this makes is removed again.
    const made = await mkdir(join(dir, 'specs/business-central/v1.0/parameters'), { recursive: true });
    await writeFile(join(dir, OWN_COMPANY), own(readFileSync(join(dir, COMMON_COMPANY), 'utf8')));
    const restore = await editFiles(dir, [[SHIPMENT_PATH, (t) => `${t}${listReadingOwnCompany(freeMethod(t))}`], ...extra]);
    try {
      return await lintIn(dir, BROKEN);
    } finally {
      await restore();
      await rm(join(dir, OWN_COMPANY), { force: true });
      if (made) await rm(made, { recursive: true, force: true });
    }
  }
  const otherDescription = (common: string) =>
    common.replace(
      /^description:[\s\S]*?\n(?=\S)/m,
      "description: 'The company, described by this document. Not shown in the source: the type or format of the key.'\n",
    );

  it('fails on two files of one name and kind that the bundle would rename (house-component-name-unique), at one of them, naming the other', async () => {
    const { code, output } = await lintWithOwnCompany(otherDescription);
    expect(code).not.toBe(0);
    const found = output.split('\n').filter((line) => line.includes('house-component-name-unique'));
    expect(found, output).toHaveLength(1);
    expect(found[0]).toMatch(
      /specs\/(business-central\/v1\.0|common\/business-central)\/parameters\/company_id\.yaml:\d+:\d+  error  house-component-name-unique  .*company_id.*company_id-2/,
    );
    expect(found[0]).toContain('common/business-central/parameters/company_id.yaml');
  });

  it('passes when the two files are the same (the bundle makes one component of them)', async () => {
    const { code, output } = await lintWithOwnCompany((common) => common);
    expect(output).not.toContain('house-component-name-unique');
    expect(code, output).toBe(0);
  });

  it('passes with the component-name finding suppressed for the document in .spectral.yaml (a rule of the document as a whole)', async () => {
    const { code, output } = await lintWithOwnCompany(otherDescription, [
      suppressed('house-component-name-unique', 'specs/business-central/v1.0/openapi.yaml'),
    ]);
    expect(output).not.toContain('house-component-name-unique');
    expect(code, output).toBe(0);
  });

  // Issue 43: the shared OData query options' examples are sent by the docs' samples, Try
  // it and the contract tests to every list that $refs them; one naming a property another
  // entity lacks made the mock answer 400 (house-odata-query-example).
  const SHARED_OPTIONS = ['filter', 'orderby', 'top', 'skip', 'select', 'count'];
  /** A list of an entity with no displayName (its key and a code), reading the shared query options `options`. */
  const listOfCodes = (method: string, options: string[]) => `${method}:
  operationId: ${unusedOperationId('listShipmentMethods')}
  summary: List shipment methods
  description: Lists the shipment methods of a company.
  tags:
    - ShipmentMethods
  parameters:
    - $ref: ../../../common/business-central/parameters/company_id.yaml
${options.map((name) => `    - $ref: ../../../common/business-central/parameters/${name}.yaml\n`).join('')}  responses:
    "200":
      description: The shipment methods.
      content:
        application/json:
          schema:
            type: object
            properties:
              value:
                type: array
                items:
                  type: object
                  properties:
                    id:
                      type: string
                    code:
                      type: string
          examples:
            Empty:
              value:
                value: []
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`;

  it('passes on a list whose entity has only its key and a code, reading every shared query option but $expand: the shared examples fit every entity', async () => {
    const { code, output } = await lintBroken(SHIPMENT_PATH, (t) => `${t}${listOfCodes(freeMethod(t), SHARED_OPTIONS)}`);
    expect(output).not.toContain('house-odata-query-example');
    expect(code, output).toBe(0);
  });

  it("fails on a shared $expand whose example names a property the list's entity lacks, in the operation's file at its parameters, naming the option", async () => {
    let at = 0;
    const { code, output } = await lintBroken(SHIPMENT_PATH, (t) => {
      const added = listOfCodes(freeMethod(t), [...SHARED_OPTIONS, 'expand']);
      at = `${t}${added}`.slice(0, `${t}${added}`.lastIndexOf('  parameters:')).split('\n').length;
      return `${t}${added}`;
    });
    expect(code).not.toBe(0);
    const found = output.split('\n').filter((line) => line.includes('house-odata-query-example'));
    expect(found, output).toEqual([
      expect.stringMatching(
        new RegExp(
          `^specs/business-central/v1\\.0/paths/shipmentMethods\\.yaml:${at}:\\d+  error  house-odata-query-example  GET .*the example of \\$expand, "lines", does not fit .*the entity has no property lines`,
        ),
      ),
    ]);
  });

  // Issue 43: a CloudError inline in a root's own components (copied there from another
  // document) and the document's schemas/CloudError.yaml: the bundle keeps the inline one's
  // name and calls the file's `CloudError-2`, which the comparison of files alone missed.
  const CI = 'containerinstance@2025-09-01';
  const CI_ROOT = 'specs/resource-manager/Provider.ContainerInstance/2025-09-01/openapi.yaml';
  const inlineCloudError = (body: string) => (text: string) => text.replace(/^components:\n/m, `components:\n  schemas:\n    CloudError:\n${body}`);
  const copiedCloudError =
    '      type: object\n      description: An error, as another document wrote it.\n      properties:\n        error:\n          type: object\n          properties:\n            code:\n              type: string\n            message:\n              type: string\n';
  it("fails on a component inline in the root's components and a file of the same name and kind (house-component-name-unique), at the file, naming both", async () => {
    const restore = await editFiles(dir, [[CI_ROOT, inlineCloudError(copiedCloudError)]]);
    try {
      const { code, output } = await lintIn(dir, CI);
      expect(code).not.toBe(0);
      const found = output.split('\n').filter((line) => line.includes('house-component-name-unique'));
      expect(found, output).toEqual([
        expect.stringMatching(
          /^specs\/resource-manager\/Provider\.ContainerInstance\/2025-09-01\/schemas\/CloudError\.yaml:1:1  error  house-component-name-unique  schemas\/CloudError\.yaml and openapi\.yaml's own components\.schemas\.CloudError .*`CloudError-2`/,
        ),
      ]);
    } finally {
      await restore();
    }
  });

  it("fails on a $ref with a pointer into another file's components, named after its last segment, beside the root's own of that name", async () => {
    const version = 'specs/resource-manager/Provider.ContainerInstance/2025-09-01';
    const errors = join(dir, version, 'errors.yaml');
    await writeFile(
      errors,
      `components:\n  schemas:\n    CloudError:\n${copiedCloudError.replace('as another document wrote it', 'as a shared file writes it')}`,
    );
    // Every path file of the version that reads the file CloudError (cachedImages.yaml; a
    // grown workspace has more) reads the pointer instead: the root's own and the pointer are
    // then the only two definitions.
    const readers = (await readdir(join(dir, version, 'paths'))).filter((f) =>
      readFileSync(join(dir, version, 'paths', f), 'utf8').includes('../schemas/CloudError.yaml'),
    );
    const restore = await editFiles(dir, [
      [CI_ROOT, inlineCloudError(copiedCloudError)],
      ...readers.map((f): [string, (t: string) => string] => [
        `${version}/paths/${f}`,
        (t) => t.replaceAll('../schemas/CloudError.yaml', '../errors.yaml#/components/schemas/CloudError'),
      ]),
    ]);
    try {
      const { code, output } = await lintIn(dir, CI);
      expect(code).not.toBe(0);
      const found = output.split('\n').filter((line) => line.includes('house-component-name-unique'));
      // Among the clashes (a workspace grown by the recipe may hold a file CloudError as well).
      expect(found, output).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^specs\/resource-manager\/Provider\.ContainerInstance\/2025-09-01\/errors\.yaml:\d+:\d+  error  house-component-name-unique  errors\.yaml#\/components\/schemas\/CloudError and openapi\.yaml's own components\.schemas\.CloudError .*`CloudError-2`/,
          ),
        ]),
      );
    } finally {
      await restore();
      await rm(errors, { force: true });
    }
  });

  it('does not report an inline component that is the same as the file (its $refs naming the same targets): one component to the bundler', async () => {
    const file = readFileSync(join(dir, 'specs/resource-manager/Provider.ContainerInstance/2025-09-01/schemas/CloudError.yaml'), 'utf8');
    const same = file.replace(/\.\.\/\.\.\/\.\.\/\.\.\/common/g, '../../../common').replace(/^(?=.)/gm, '      ');
    const restore = await editFiles(dir, [[CI_ROOT, inlineCloudError(`${same.trimEnd()}\n`)]]);
    try {
      const { output } = await lintIn(dir, CI);
      expect(output).not.toContain('house-component-name-unique');
      expect(output).toContain('CloudError'); // linted: the inline copy is unused (oas3-unused-component)
    } finally {
      await restore();
    }
  });

  it('fails on a document whose overview does not say what the source does not show (house-info-not-shown)', async () => {
    const { code, output } = await lintBroken(SHIPMENT_ROOT, (t) => t.replace(/\n    Named in the source[\s\S]*?policy\.\n/, '\n'));
    expect(code).not.toBe(0);
    expect(output).toMatch(/specs\/business-central\/v1\.0\/openapi\.yaml:6:\d+  error  house-info-not-shown .*\(spectral\)/);
  });

  // Spectral's thread keeps its JSON Schema validators between runs (pipeline/spectral-ajv.mjs):
  // the OpenAPI schema checks a broken document, and the next lint in the same thread passes.
  // A path file's structure is Redocly's `struct` to check: .spectral.yaml turns oas3-schema
  // off under the roots' `paths`, which holds the resolved path items too.
  it('fails on a document that breaks the OpenAPI schema (oas3-schema, in the thread that keeps its validators) and a path file that does (struct), then passes once mended', async () => {
    const restore = await editFiles(dir, [
      [SHIPMENT_ROOT, (t) => t.replace('  - name: ShipmentMethods\n', '  - name: ShipmentMethods\n    externalDocs: nowhere\n')],
      [
        SHIPMENT_PATH,
        (t) =>
          t.replace(
            '    required: true\n    description: The shipment method to create.',
            '    required: maybe\n    description: The shipment method to create.',
          ),
      ],
    ]);
    let broken: Awaited<ReturnType<typeof lintIn>>;
    try {
      broken = await lintIn(dir, BROKEN);
    } finally {
      await restore();
    }
    expect(broken.code).not.toBe(0);
    expect(broken.output).toMatch(/specs\/business-central\/v1\.0\/openapi\.yaml:\d+:\d+  error  oas3-schema .*externalDocs.*\(spectral\)/);
    expect(broken.output).toMatch(
      /specs\/business-central\/v1\.0\/paths\/shipmentMethods\.yaml:15:15  error  struct  Expected type `boolean` but got `string`\.  \(redocly\)/,
    );
    const mended = await lintIn(dir, BROKEN);
    expect(mended.code, mended.output).toBe(0);
  });

  it('fails on an example that breaks its schema, naming the example file and line, once per wrong property', async () => {
    const { code, output } = await lintBroken(SHIPMENT_EXAMPLE, (t) => t.replace('code: EXW', 'code: 12'));
    expect(code).not.toBe(0);
    const findings = output.split('\n').filter((line) => /\s(error|warning)\s/.test(line));
    // Once: Redocly checks examples (.spectral.yaml turns Spectral's duplicate rules off).
    expect(findings).toEqual([
      expect.stringMatching(
        /^specs\/business-central\/v1\.0\/examples\/createShipmentMethod_CodeAndDisplayName\.yaml:4:9  error  no-invalid-media-type-examples .*`code`.*\(redocly\)$/,
      ),
    ]);
  });
});
