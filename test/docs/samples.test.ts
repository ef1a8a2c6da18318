// The code samples the docs pages show (x-codeSamples, read from the rendered pages):
// every operation of every document has a TypeScript and a curl sample; every
// TypeScript sample type-checks against this package (src/, strict; TypeScript 7, one
// compile for all); the curl samples of one operation per shape (./shapes.ts: a process per
// sample, so the time follows the shapes, not the width), run against the mock, get the
// status their operations document.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM scripts without types
import { mockUrlOf, operationsIn } from '../../site/samples.mjs';
// @ts-expect-error: plain ESM scripts without types
import { startMock } from '../../mock/index.mjs';
import { apis, bundled, ROOT } from '../helpers/bundles.js';
import { tsc7 } from '../helpers/tsc7.js';
import { onePerShape } from './shapes.js';
import { DOCS, ensureDocs, pageOf } from './support.js';

const run = promisify(execFile);

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Case {
  name: string;
  api: string;
  operationId: string;
  method: string;
  path: string;
  document: any;
  /** Every 2xx the operation documents (a PUT may create 201 or replace 200; a long-running DELETE answers 202). */
  successes: number[];
  typescript: Sample;
  curl: Sample;
}

/** The definition a page renders: its JSON data block. */
function definitionOf(slug: string): any {
  const html = readFileSync(join(DOCS, pageOf(slug)), 'utf8');
  const json = /<script type="application\/json" id="redoc-definition">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error(`${pageOf(slug)}: no redoc-definition data block`);
  return JSON.parse(json);
}

ensureDocs();
const cases: Case[] = apis().flatMap((api) => {
  const document = bundled(api);
  const rendered = definitionOf(api.slug);
  return operationsIn(document).map(({ path, method, operation }: any) => {
    const samples: Sample[] = rendered.paths[path][method]['x-codeSamples'] ?? [];
    const successes = Object.keys(operation.responses)
      .filter((status) => /^2\d\d$/.test(status))
      .map(Number);
    return {
      name: `${api.name} ${method.toUpperCase()} ${path}`,
      api: api.name,
      operationId: operation.operationId,
      method: method.toUpperCase(),
      path,
      document,
      successes,
      typescript: samples.find((s) => s.lang === 'typescript')!,
      curl: samples.find((s) => s.lang === 'bash' && /^curl /m.test(s.source))!,
    };
  });
});

/**
 * Type-checks sources as ES modules of a strict consumer, with TypeScript 7 (the errors
 * and where they are is all this needs: test/helpers/tsc7.ts); returns the diagnostics of
 * each, by file name ("(other)": those of files that are not samples).
 */
async function typeCheck(sources: Record<string, string>): Promise<Map<string, string[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-samples-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    const names = Object.keys(sources);
    for (const [name, text] of Object.entries(sources)) writeFileSync(join(dir, `${name}.ts`), text);
    const compilerOptions = {
      target: 'ES2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023', 'dom', 'dom.iterable'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      // The package as its source: what the samples import is what src/ exports.
      paths: { 'provider-api-clients': [join(ROOT, 'src/index.ts')] },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: names.map((name) => `${name}.ts`) }));
    const out = new Map<string, string[]>(names.map((name) => [name, []]));
    // "file(line,col): error TSnnnn: message", continued on indented lines.
    let current: string[] | undefined;
    for (const line of (await tsc7(dir)).split('\n')) {
      const at = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line);
      if (at) {
        const name = at[1]!.replace(/^.*\//, '').replace(/\.ts$/, '');
        const key = out.has(name) && !at[1]!.includes('/') ? name : '(other)';
        current = [...(out.get(key) ?? []), `${at[2]}:${at[3]} ${at[4]}`];
        out.set(key, current);
      } else if (current && /^\s/.test(line)) {
        current[current.length - 1] += `\n${line.trim()}`;
      } else if (line.trim()) {
        out.set('(other)', [...(out.get('(other)') ?? []), line]);
        current = undefined;
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('code samples on the docs pages', () => {
  it('every operation of every document has a TypeScript and a curl sample', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      expect(c.typescript?.source, `${c.name}: TypeScript sample`).toMatch(/from 'provider-api-clients'/);
      expect(c.curl?.source, `${c.name}: curl sample`).toMatch(/^curl /m);
    }
  });

  describe('TypeScript samples type-check against the package', () => {
    let results: Map<string, string[]>;
    beforeAll(async () => {
      const sources: Record<string, string> = Object.fromEntries(cases.map((c, i) => [`sample${i}`, c.typescript.source]));
      // The check can fail: a sample calling a path no document has must not compile.
      const broken = cases[0]!.typescript.source.replace(/\.(GET|POST|PUT|PATCH|DELETE|listAll|patchWithETag)\((['"])\//, '.$1($2/no-such-path/');
      expect(broken).not.toBe(cases[0]!.typescript.source);
      sources.broken = broken;
      results = await typeCheck(sources);
    }, 120_000);

    it('the check fails a sample that calls a path no document has (control)', () => {
      expect(results.get('broken')!.length).toBeGreaterThan(0);
      // ... and nothing else: the package itself type-checks under the samples' settings.
      expect(results.get('(other)') ?? []).toEqual([]);
    });

    it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_, i) => {
      expect(results.get(`sample${i}`), cases[i]!.typescript.source).toEqual([]);
    });
  });

  describe('curl samples get their documented status from the mock', () => {
    let mock: { url: string; reset(): void; close(): Promise<void> };
    beforeAll(async () => {
      mock = await startMock({ port: 0 });
    });
    afterAll(async () => {
      await mock?.close();
    });

    const curled = apis().flatMap((api) => {
      const own = cases.filter((c) => c.api === api.name);
      return own.length ? onePerShape(own[0]!.document, own) : [];
    });
    it.each(curled.map((c) => [c.name, c] as const))('%s', async (_, c) => {
      mock.reset();
      // The sample names the mock's address from the document (its server default); here the mock listens elsewhere.
      const origin = new URL(mockUrlOf(c.document)).origin;
      expect(c.curl.source).toContain(origin);
      const script = `${c.curl.source.split(origin).join(mock.url).trimEnd()} -s -o /dev/null -w '%{http_code}'`;
      const { stdout } = await run('bash', ['-c', script], { timeout: 20_000 });
      expect(c.successes, script).toContain(Number(stdout));
    });
  });
});
