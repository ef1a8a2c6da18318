// One process, several checkouts (the suite runs each copy's commands in its own process:
// test/helpers/in-process.ts): they share one Spectral thread (pipeline/spectral-worker.mjs),
// and each ruleset loaded into it reads with the read guard of the checkout that loaded it.
// A copy's lint must read inside that copy's specs/ only, whichever copy started the thread,
// and report its files relative to that copy.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const ONE = ['specs/resource-manager/Provider.Sql/2025-01-01/openapi.yaml'];
let a: { dir: string; remove: () => Promise<void> };
let b: { dir: string; remove: () => Promise<void> };

/** A document under specs/thread/ whose one response's schema is `ref`. */
const documentWithRef = (ref: string) => `openapi: 3.1.0
info:
  title: Thread case
  version: v1
  description: A fixture of test/security/spectral-thread.test.ts.
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses:
        '200':
          description: The things.
          content:
            application/json:
              schema:
                $ref: '${ref}'
`;
const SCHEMA = 'type: object\ndescription: A thing.\n';

const threads = () => (globalThis as any)[Symbol.for('provider-api.spectral-threads')] as Map<string, unknown> | undefined;
const formatted = (findings: any[]) => findings.map((f) => `${f.file}:${f.line}:${f.col}  ${f.rule}  ${f.message}`).join('\n');

beforeAll(async () => {
  [a, b] = await Promise.all([workspaceCopy('spectral-thread-a-', { documents: ONE }), workspaceCopy('spectral-thread-b-', { documents: ONE })]);
  for (const { dir } of [a, b]) {
    await mkdir(join(dir, 'specs/thread'), { recursive: true });
    await writeFile(join(dir, 'specs/thread/thing.yaml'), SCHEMA);
  }
  // A's document reads its own schema; B's climbs out of B into A's specs/.
  await writeFile(join(a.dir, 'specs/thread/openapi.yaml'), documentWithRef('./thing.yaml'));
  await writeFile(join(b.dir, 'specs/thread/openapi.yaml'), documentWithRef(`../../../${basename(a.dir)}/specs/thread/thing.yaml`));
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.remove(), b?.remove()]);
});

describe('the Spectral thread, shared by the checkouts of one process', () => {
  it("starts once, and reads each checkout's files with that checkout's guard", async () => {
    // B first: its guard must not be the one A's ruleset reads with.
    const spectralB = await (await import(join(b.dir, 'pipeline/spectral-worker.mjs'))).startSpectralWorker(b.dir);
    const before = new Map(threads());
    const spectralA = await (await import(join(a.dir, 'pipeline/spectral-worker.mjs'))).startSpectralWorker(a.dir);
    try {
      expect(before.size).toBeGreaterThan(0);
      expect(new Map(threads())).toEqual(before); // A's commands started no thread of their own

      const fromB = formatted(await spectralB.lint(join(b.dir, 'specs/thread/openapi.yaml')));
      // Refused: A's specs/ is outside B's, though A's guard would allow it.
      expect(fromB).toMatch(/refused to read .*outside specs\//);
      expect(fromB).toMatch(/^specs\/thread\/openapi\.yaml:\d+:\d+ /m); // relative to B
      expect(fromB).not.toContain(b.dir);

      const fromA = formatted(await spectralA.lint(join(a.dir, 'specs/thread/openapi.yaml')));
      // A's own schema is read (B's guard would refuse it).
      expect(fromA).not.toMatch(/refused to read/);
      expect(fromA).not.toContain(a.dir);
    } finally {
      await spectralA.close();
      await spectralB.close();
    }
  });

  // The thread keeps the code of the rulesets it bundled, by the texts they were made from
  // (pipeline/spectral-worker.mjs), and reuses it for any checkout whose files read the
  // same: an edited house function, or an edited .spectral.yaml, must reach the next load.
  it("lints with each checkout's own house functions and ruleset as they are when it loads, edited or not", async () => {
    const lintWith = async (dir: string) => {
      const spectral = await (await import(join(dir, 'pipeline/spectral-worker.mjs'))).startSpectralWorker(dir);
      try {
        return formatted(await spectral.lint(join(dir, 'specs/thread/openapi.yaml')));
      } finally {
        await spectral.close();
      }
    };
    const rule = 'rules/infoNotShown.js';
    const original = await readFile(join(b.dir, rule), 'utf8');
    const ruleset = await readFile(join(b.dir, '.spectral.yaml'), 'utf8');
    expect(await lintWith(a.dir)).toMatch(/house-info-not-shown +info\.description has no paragraph/);
    await writeFile(join(b.dir, rule), original.replace("'info.description has no paragraph", "'edited in B: info.description has no paragraph"));
    try {
      expect(await lintWith(b.dir)).toMatch(/house-info-not-shown +edited in B: info\.description/);
      // A's files did not change: A lints with its own function, not B's.
      const fromA = await lintWith(a.dir);
      expect(fromA).toMatch(/house-info-not-shown +info\.description has no paragraph/);
      expect(fromA).not.toContain('edited in B');
      // B's ruleset words the rule's message itself.
      const edited = ruleset.replace(/(house-info-not-shown:[\s\S]*?message: )"\{\{error\}\}"/, '$1"ruleset of B: {{error}}"');
      expect(edited).not.toBe(ruleset);
      await writeFile(join(b.dir, '.spectral.yaml'), edited);
      expect(await lintWith(b.dir)).toMatch(/house-info-not-shown +ruleset of B: edited in B/);
      expect(await lintWith(a.dir)).not.toContain('of B');
    } finally {
      await writeFile(join(b.dir, rule), original);
      await writeFile(join(b.dir, '.spectral.yaml'), ruleset);
    }
  });

  // The bundle a process made is kept in the workspace's build cache for its next process
  // (pipeline/spectral-worker.mjs): used while every file it was made from reads the same,
  // never once one changed. A saved bundle altered on purpose shows which one a lint used.
  it("uses the ruleset bundle saved in the workspace's cache while its files read the same, and not after an edit", async () => {
    const { readEntry, writeEntry } = await import(join(b.dir, 'pipeline/cache.mjs'));
    const rule = join(b.dir, 'rules/infoNotShown.js');
    const original = await readFile(rule, 'utf8');
    const lintB = async () => {
      const spectral = await (await import(join(b.dir, 'pipeline/spectral-worker.mjs'))).startSpectralWorker(b.dir);
      try {
        return formatted(await spectral.lint(join(b.dir, 'specs/thread/openapi.yaml')));
      } finally {
        await spectral.close();
      }
    };
    try {
      // Files no bundle of this process was made from: bundled afresh, and saved.
      await writeFile(rule, `${original}\n// saved-bundle case, first edit\n`);
      expect(await lintB()).toMatch(/house-info-not-shown +info\.description has no paragraph/);
      const saved = await readEntry(b.dir, 'spectral-ruleset');
      expect(saved.value?.code).toContain('info.description has no paragraph');
      expect(saved.value.files.map(([file]: [string]) => file)).toEqual(
        expect.arrayContaining(['.spectral.yaml', 'rules/infoNotShown.js', 'model/family.mjs']),
      );
      // Recorded by path after .spectral.yaml (rollup lists modules as their reads end).
      const modules = saved.value.files.slice(1).map(([file]: [string]) => file);
      expect(modules).toEqual([...modules].sort());
      // A workspace without the entry (none yet, or one of another Node line) that this
      // thread has a bundle for: the bundle is used, and recorded for the next process.
      await rm(join(b.dir, '.cache/provider-api/spectral-ruleset.json'));
      expect(await lintB()).toMatch(/house-info-not-shown +info\.description has no paragraph/);
      expect((await readEntry(b.dir, 'spectral-ruleset')).value).toEqual(saved.value);
      await writeEntry(b.dir, 'spectral-ruleset', {
        ...saved.value,
        code: saved.value.code.replace("'info.description has no paragraph", "'from the saved bundle: info.description has no paragraph"),
      });
      expect(await lintB()).toMatch(/house-info-not-shown +from the saved bundle: /);
      // An entry that records no file, or files in no readable shape, is never taken for a match.
      for (const files of [[], [null], 'rules/infoNotShown.js']) {
        await writeEntry(b.dir, 'spectral-ruleset', {
          files,
          code: saved.value.code.replace("'info.description has no paragraph", "'unchecked: info.description"),
        });
        expect(await lintB()).not.toContain('unchecked:');
      }
      // One file it was made from changes: the saved bundle is not used.
      await writeFile(rule, `${original}\n// saved-bundle case, second edit\n`);
      const edited = await lintB();
      expect(edited).toMatch(/house-info-not-shown +info\.description has no paragraph/);
      expect(edited).not.toContain('from the saved bundle');
    } finally {
      await writeFile(rule, original);
    }
  });

  // Spectral refuses a ruleset with an AggregateError whose own message is empty: the load
  // must still fail, at .spectral.yaml, saying why (it once passed as loaded, and every
  // document then failed with a TypeError from the thread).
  it('fails a ruleset Spectral refuses at .spectral.yaml, naming the rule and what is wrong', async () => {
    const path = join(b.dir, '.spectral.yaml');
    const ruleset = await readFile(path, 'utf8');
    await writeFile(path, ruleset.replace(/(house-info-not-shown:[\s\S]*?severity: )error/, '$1loud'));
    try {
      const { startSpectralWorker } = await import(join(b.dir, 'pipeline/spectral-worker.mjs'));
      const failure = await startSpectralWorker(b.dir).then(
        () => undefined,
        (error: any) => error,
      );
      expect(failure?.findings).toEqual([
        expect.objectContaining({ file: '.spectral.yaml', line: 1, rule: 'ruleset', message: expect.stringMatching(/house-info-not-shown.*\S/) }),
      ]);
    } finally {
      await writeFile(path, ruleset);
    }
  });
});
