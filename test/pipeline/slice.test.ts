// An edit is linted by the path items it reached (pipeline/slice.mjs), and that is never
// less correct than linting the whole document: on a copy whose v1.0 holds a few more entity
// sets (test/helpers/add-entity-sets.mjs, specs/README.md's recipe), a schema edit is linted
// as a slice and gives the outputs a cold build gives, byte for byte; an error in the edited
// schema, an example it no longer accepts, and an operationId a path file now shares with
// another path file's are all reported at their file:line:col, as a whole lint reports them.
// (How fast a slice is, is bench/scale.mjs --wide's business, not this test's.)
// The copy holds that one document (v1.0, the smaller business-data version, grown here by
// six sets): what is checked is that a slice gives what the whole gives, which does not
// depend on how many operations a contributor's other versions hold; the cold builds and
// whole-document lints it compares with would otherwise grow with them (a v2.0 of 300
// operations made this file 6 -> 29 s).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEntitySets } from '../helpers/add-entity-sets.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const BC = 'specs/business-central/v1.0';
let dir: string;
let remove: () => Promise<void>;
let names: string[];

const file = (path: string) => join(dir, path);
const upper = (name: string) => name[0]!.toUpperCase() + name.slice(1);
async function build(): Promise<{ code: number; output: string }> {
  return runInProcess(dir, 'pipeline/build.mjs', '--no-compile', '--no-docs');
}
/** Replaces `from` by `to` in a file of the copy; returns the undo. */
async function edit(path: string, from: string | RegExp, to: string): Promise<() => Promise<void>> {
  const text = await readFile(file(path), 'utf8');
  const next = text.replace(from, to);
  expect(next, `${path} holds ${from}`).not.toBe(text);
  await writeFile(file(path), next);
  return () => writeFile(file(path), text);
}
/** SHA-256 of what the build writes into generated/ for the documents (not the docs). */
async function outputs(): Promise<Record<string, string>> {
  const files = [
    'generated/bundled/businesscentral-v1.0.yaml',
    'generated/types/businesscentral-v1.0.ts',
    'generated/client-manifest.ts',
    'generated/operations.ts',
  ];
  return Object.fromEntries(
    await Promise.all(
      files.map(async (f) => [
        f,
        createHash('sha256')
          .update(await readFile(file(f)))
          .digest('hex'),
      ]),
    ),
  );
}

beforeAll(async () => {
  ({ dir, remove } = await workspaceCopy('slice-test-', { built: true, documents: [`${BC}/openapi.yaml`] }));
  names = await addEntitySets(dir, { count: 6, version: BC });
  const first = await build();
  expect(first.code, first.output).toBe(0);
}, 240_000);
afterAll(async () => remove?.());

describe.sequential('npm run build after an edit of one schema or path file', () => {
  it('lints only the path items the edit reached, and writes what a cold build writes', { timeout: 240_000 }, async () => {
    const entity = upper(names[1]!);
    await edit(`${BC}/schemas/${entity}.yaml`, 'description: The name.', 'description: The name (edited).');
    const sliced = await build();
    expect(sliced.code, sliced.output).toBe(0);
    // The two path items of that entity (its set and its key), of all v1.0's.
    expect(sliced.output).toMatch(/businesscentral@v1\.0: 2 of \d+ path items \(the edit's\)/);
    const after = await outputs();
    expect(await readFile(file('generated/types/businesscentral-v1.0.ts'), 'utf8')).toContain('The name (edited).');
    await rm(file('.cache'), { recursive: true, force: true });
    const cold = await build();
    expect(cold.code, cold.output).toBe(0);
    expect(cold.output).not.toContain('path items (the edit');
    expect(await outputs()).toEqual(after);
  });

  it('reports an error in the edited schema at its file:line:col', { timeout: 240_000 }, async () => {
    const entity = upper(names[2]!);
    const path = `${BC}/schemas/${entity}.yaml`;
    const undo = await edit(path, /(displayName:\n    type: )string/, '$1strng');
    const text = await readFile(file(path), 'utf8');
    const line = text.split('\n').findIndex((l) => l.includes('strng')) + 1;
    const broken = await build();
    expect(broken.code).toBe(1);
    expect(broken.output).toContain(`${path}:${line}:`);
    expect(broken.output).toContain('build  lint FAILED');
    await undo();
    expect((await build()).code).toBe(0);
  });

  it('reports an example the edited schema no longer accepts, where the example is', { timeout: 240_000 }, async () => {
    const entity = upper(names[3]!);
    const undo = await edit(`${BC}/schemas/${entity}.yaml`, /(displayName:\n    type: )string/, '$1integer');
    const broken = await build();
    expect(broken.code).toBe(1);
    expect(broken.output).toMatch(new RegExp(`${BC}/examples/\\w+${entity}_Basic(_request)?\\.yaml:\\d+:\\d+ +error +\\S*example`));
    await undo();
    expect((await build()).code).toBe(0);
  });

  it('reports two files the bundle would name alike, though the edited path items read only one of them', { timeout: 240_000 }, async () => {
    // names[0]'s two path files take a company_id.yaml of v1.0's own, unlike the shared one
    // every other path item reads: the slice (those two path items) holds one of the two
    // files, so only the whole document shows the clash (house-component-name-unique).
    const own = `${BC}/parameters/company_id.yaml`;
    const shared = 'specs/common/business-central/parameters/company_id.yaml';
    await mkdir(file(`${BC}/parameters`), { recursive: true });
    await writeFile(
      file(own),
      (await readFile(file(shared), 'utf8')).replace(
        /^description:[\s\S]*?\n(?=\S)/m,
        "description: 'The company, as v1.0 describes it. Not shown in the source: the format of the key.'\n",
      ),
    );
    const sharedRef = /\.\.\/\.\.\/\.\.\/common\/business-central\/parameters\/company_id\.yaml/g;
    const undo = [
      await edit(`${BC}/paths/${names[0]}s.yaml`, sharedRef, '../parameters/company_id.yaml'),
      await edit(`${BC}/paths/${names[0]}.yaml`, sharedRef, '../parameters/company_id.yaml'),
    ];
    try {
      const broken = await build();
      expect(broken.code, broken.output).toBe(1);
      expect(broken.output).toMatch(/parameters\/company_id\.yaml:\d+:\d+ +error +house-component-name-unique/);
    } finally {
      for (const step of undo) await step();
      await rm(file(own));
    }
    const fixed = await build();
    expect(fixed.code, fixed.output).toBe(0);
  });

  it("reports an operationId a path file now shares with another path file's", { timeout: 240_000 }, async () => {
    const [a, b] = [names[4]!, names[5]!];
    const path = `${BC}/paths/${a}.yaml`;
    const undo = await edit(path, `operationId: get${upper(a)}\n`, `operationId: get${upper(b)}\n`);
    const broken = await build();
    expect(broken.code).toBe(1);
    expect(broken.output).toMatch(new RegExp(`${BC}/paths/${a}\\.yaml:\\d+:\\d+ +error +operation-operationId-unique`));
    await undo();
    expect((await build()).code).toBe(0);
  });
});
