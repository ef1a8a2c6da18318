// openapi-fetch and openapi-typescript are held on purpose: their repository has been in
// maintenance mode since 2026-09-19 (openapi-ts/openapi-typescript#2874, no further
// releases, security fixes included), and they stay because few places import them, so
// replacing either means editing those places only (docs/dependencies.md, "The exit path").
// This test keeps it that way: any module under src/, pipeline/, test/ or bench/ that
// imports either package (or a subpath) must be one of the allowed places.
//
// Imports are read from the syntax tree (the TypeScript 5.9 API), so comments and strings
// that mention a package do not count, and every import form does: `import`, `import type`,
// side-effect `import '…'`, `export … from`, dynamic `import()`, `require()`,
// `import x = require()`, and `import('…')` in a type or a JSDoc type.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { CODE_ROOMS } from '../../model/workspace-paths.mjs';

const ROOT = join(import.meta.dirname, '../..');
const SCANNED = ['src', ...CODE_ROOMS, 'test', 'bench'];
const SKIPPED = new Set(['node_modules', 'dist', 'generated']);
const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

type Held = 'openapi-fetch' | 'openapi-typescript';

/** Who may import each held package: a file, or every file under a folder ending in `/`. */
const ALLOWED: Record<Held, string[]> = {
  // the client: the request (src/core.ts) and the call signatures (src/types.ts); the
  // benchmarks measure openapi-fetch itself (bench/overhead.mjs, bench/size.mjs, …)
  'openapi-fetch': ['src/core.ts', 'src/types.ts', 'bench/'],
  // the types step of the generator
  'openapi-typescript': ['pipeline/engines.mjs'],
};

interface HeldImport {
  file: string;
  line: number;
  specifier: string;
  held: Held;
  form: string;
}

/** The held package a module specifier names (the package or a subpath of it), if any. */
function heldBy(specifier: string): Held | undefined {
  return (Object.keys(ALLOWED) as Held[]).find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

const scriptKind = (file: string) => (/\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/** Every import of a held package in one file's text, with its line and its form. */
function findHeldImports(text: string, file: string): HeldImport[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: HeldImport[] = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined, form: string) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return; // import(name): not a literal, not checkable
    const held = heldBy(specifier.text);
    if (!held) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ file, line, specifier: specifier.text, held, form });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const typeOnly =
        node.importClause?.isTypeOnly ||
        (node.importClause?.namedBindings &&
          ts.isNamedImports(node.importClause.namedBindings) &&
          node.importClause.namedBindings.elements.length > 0 &&
          node.importClause.namedBindings.elements.every((e) => e.isTypeOnly));
      add(node, node.moduleSpecifier, !node.importClause ? "import '…'" : typeOnly ? 'import type' : 'import');
    } else if (ts.isExportDeclaration(node)) {
      add(node, node.moduleSpecifier, 'export … from');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, 'import = require()');
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0], 'import()');
      else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') add(node, node.arguments[0], 'require()');
      else if (
        ts.isPropertyAccessExpression(node.expression) &&
        ts.isIdentifier(node.expression.expression) &&
        node.expression.expression.text === 'require' &&
        node.expression.name.text === 'resolve'
      ) {
        add(node, node.arguments[0], 'require.resolve()');
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, "import('…') type");
    }
    // JSDoc types (`@type {import('…').X}`) hang off their host node, outside forEachChild.
    for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) ts.forEachChild(doc, visit);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) files.push(...filesUnder(path));
    } else if (entry.isFile() && EXTENSIONS.has(extname(entry.name))) files.push(path);
  }
  return files;
}

const allowed = (held: Held, file: string) => ALLOWED[held].some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));

/** `file:line` of every import outside the allowed places, with what it imports and how. */
function violations(imports: HeldImport[]): string[] {
  return imports
    .filter((i) => !allowed(i.held, i.file))
    .map((i) => `${i.file}:${i.line} imports '${i.specifier}' (${i.form}); only ${ALLOWED[i.held].join(', ')} may`);
}

describe('the held packages (openapi-fetch, openapi-typescript) are imported only from the allowed places', () => {
  const files = SCANNED.flatMap(filesUnder);
  const imports = files.flatMap((file) => findHeldImports(readFileSync(join(ROOT, file), 'utf8'), file));

  it('scans the source, script, test and benchmark files, and nothing it must skip', () => {
    expect(files.length).toBeGreaterThan(50);
    for (const dir of SCANNED)
      expect(
        files.some((f) => f.startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
    expect(files.filter((f) => f.split('/').some((part) => SKIPPED.has(part)))).toEqual([]);
    expect(files).toContain('test/deps/held-imports.test.ts');
  });

  it('no module outside the allowed list imports them', () => {
    expect(violations(imports)).toEqual([]);
  });

  it('the allowed places still import them (the list is not stale)', () => {
    const importers = new Set(imports.map((i) => `${i.held} ${i.file}`));
    for (const [held, places] of Object.entries(ALLOWED)) {
      for (const place of places.filter((p) => !p.endsWith('/'))) expect(importers, `${held} from ${place}`).toContain(`${held} ${place}`);
    }
  });

  it('every allowed file exists', () => {
    for (const place of Object.values(ALLOWED).flat())
      expect(
        files.some((f) => f === place || (place.endsWith('/') && f.startsWith(place))),
        place,
      ).toBe(true);
  });
});

describe('the scanner', () => {
  // One line per form, then look-alikes that are not imports of a held package.
  const SAMPLE = [
    "import createClient from 'openapi-fetch';", // 1
    "import type { FetchResponse } from 'openapi-fetch';", // 2
    "import { type Middleware } from 'openapi-fetch';", // 3
    "import 'openapi-typescript';", // 4
    "export * from 'openapi-fetch';", // 5
    "export type { Client } from 'openapi-fetch';", // 6
    "const lazy = await import('openapi-typescript');", // 7
    'const { default: openapiTS } = await import(', // 8
    "  'openapi-typescript/dist/index.js'", // 9
    ');', // 10
    "const cjs = require('openapi-fetch');", // 11
    "const where = require.resolve('openapi-typescript/package.json');", // 12
    "import legacy = require('openapi-fetch');", // 13
    "type C = import('openapi-fetch').Client<{}>;", // 14
    'export { createClient as default } from "openapi-fetch";', // 15
    'const tpl = await import(`openapi-fetch`);', // 16
    '', // 17
    "// import createClient from 'openapi-fetch';", // 18: a comment
    'const text = "import x from \'openapi-fetch\'";', // 19: a string
    "import other from 'openapi-fetch-extra';", // 20: another package
    "import scoped from '@acme/openapi-fetch';", // 21: another package
    "const name = 'openapi-fetch'; await import(name);", // 22: not a literal
    "import { createClient } from './openapi-fetch.js';", // 23: a local file
  ].join('\n');

  it('finds every import form, with its line, and nothing else', () => {
    const found = findHeldImports(SAMPLE, 'src/sample.ts').map(({ line, specifier, form }) => `${line} ${form} ${specifier}`);
    expect(found).toEqual([
      '1 import openapi-fetch',
      '2 import type openapi-fetch',
      '3 import type openapi-fetch',
      "4 import '…' openapi-typescript",
      '5 export … from openapi-fetch',
      '6 export … from openapi-fetch',
      '7 import() openapi-typescript',
      '8 import() openapi-typescript/dist/index.js',
      '11 require() openapi-fetch',
      '12 require.resolve() openapi-typescript/package.json',
      '13 import = require() openapi-fetch',
      "14 import('…') type openapi-fetch",
      '15 export … from openapi-fetch',
      '16 import() openapi-fetch',
    ]);
  });

  it('reads JavaScript modules too: require(), dynamic import() and JSDoc types', () => {
    const js = [
      "const fetchClient = require('openapi-fetch');",
      '/** @type {import("openapi-typescript").OpenAPITSOptions} */',
      'const options = {};',
      "export const load = () => import('openapi-typescript');",
    ].join('\n');
    for (const file of ['pipeline/sample.mjs', 'pipeline/sample.cjs', 'pipeline/sample.js']) {
      expect(
        findHeldImports(js, file).map(({ line, form }) => `${line} ${form}`),
        file,
      ).toEqual(['1 require()', "2 import('…') type", '4 import()']);
    }
  });

  it('fails naming the file and line of an import outside the allowed places', () => {
    const outside = [...findHeldImports(SAMPLE, 'src/models.ts'), ...findHeldImports("import openapiTS from 'openapi-typescript';", 'pipeline/bundle.mjs')];
    const found = violations(outside);
    expect(found).toHaveLength(15);
    expect(found[0]).toBe("src/models.ts:1 imports 'openapi-fetch' (import); only src/core.ts, src/types.ts, bench/ may");
    expect(found).toContain("src/models.ts:11 imports 'openapi-fetch' (require()); only src/core.ts, src/types.ts, bench/ may");
    expect(found.at(-1)).toBe("pipeline/bundle.mjs:1 imports 'openapi-typescript' (import); only pipeline/engines.mjs may");
  });

  it('lets the allowed places import, and bench/ only openapi-fetch', () => {
    expect(violations(findHeldImports("import type { FetchResponse } from 'openapi-fetch';", 'src/types.ts'))).toEqual([]);
    expect(violations(findHeldImports("import createClient from 'openapi-fetch';", 'bench/lib/new.mjs'))).toEqual([]);
    expect(violations(findHeldImports("import openapiTS from 'openapi-typescript';", 'bench/pipeline.mjs'))).toHaveLength(1);
    expect(violations(findHeldImports("import createClient from 'openapi-fetch';", 'pipeline/engines.mjs'))).toHaveLength(1);
  });
});
