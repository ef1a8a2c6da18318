// The code samples the docs pages show (x-codeSamples, read from the rendered pages):
// every operation of every document has a TypeScript and a curl sample; every
// TypeScript sample type-checks against this package (src/, strict); every curl sample,
// run against the mock, gets the status its operation documents.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM scripts without types
import { mockUrlOf, operationsIn } from '../../scripts/lib/docs-samples.mjs';
// @ts-expect-error: plain ESM scripts without types
import { startMock } from '../../scripts/mock/index.mjs';
import { apis, bundled, ROOT } from '../helpers/bundles.js';
import { DOCS, ensureDocs, pageOf } from './support.js';

const run = promisify(execFile);

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Case {
  name: string;
  document: any;
  success: number;
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
    const success = Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status));
    return {
      name: `${api.name} ${method.toUpperCase()} ${path}`,
      document,
      success: Number(success),
      typescript: samples.find((s) => s.lang === 'typescript')!,
      curl: samples.find((s) => s.lang === 'bash' && /^curl /m.test(s.source))!,
    };
  });
});

/** Type-checks sources as ES modules of a strict consumer; returns the diagnostics of each, by file name. */
function typeCheck(sources: Record<string, string>): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-samples-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    const files = Object.entries(sources).map(([name, text]) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, text);
      return file;
    });
    const program = ts.createProgram(files, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      // The package as its source: what the samples import is what src/ exports.
      paths: { 'provider-api-clients': [join(ROOT, 'src/index.ts')] },
    });
    const out = new Map<string, string[]>(files.map((f) => [f, []]));
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const file = diagnostic.file?.fileName ?? '';
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      const at = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
      const key = files.find((f) => f === file) ?? '(other)';
      out.set(key, [...(out.get(key) ?? []), `${at ? `${at.line + 1}:${at.character + 1} ` : ''}${text}`]);
    }
    return new Map([...out].map(([file, messages]) => [file.split('/').pop()!.replace(/\.ts$/, ''), messages]));
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
    beforeAll(() => {
      const sources: Record<string, string> = Object.fromEntries(cases.map((c, i) => [`sample${i}`, c.typescript.source]));
      // The check can fail: a sample calling a path no document has must not compile.
      const broken = cases[0]!.typescript.source.replace(/\.(GET|POST|PUT|PATCH|DELETE|listAll|patchWithETag)\((['"])\//, '.$1($2/no-such-path/');
      expect(broken).not.toBe(cases[0]!.typescript.source);
      sources.broken = broken;
      results = typeCheck(sources);
    }, 120_000);

    it('the check fails a sample that calls a path no document has (control)', () => {
      expect(results.get('broken')!.length).toBeGreaterThan(0);
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

    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
      mock.reset();
      // The sample names the mock's address from the document (its server default); here the mock listens elsewhere.
      const origin = new URL(mockUrlOf(c.document)).origin;
      expect(c.curl.source).toContain(origin);
      const script = `${c.curl.source.split(origin).join(mock.url).trimEnd()} -s -o /dev/null -w '%{http_code}'`;
      const { stdout } = await run('bash', ['-c', script], { timeout: 20_000 });
      expect(Number(stdout), script).toBe(c.success);
    });
  });
});
