// The rooms of docs/architecture.md hold in the code: every relative import of a hand-written
// file goes to its own room or to a room the doc's table lets it import, and no file
// imports itself back through others (no loops). The table is read from the doc, so the
// doc and the code cannot drift apart without this test failing.
//
// Imports are read from the syntax tree (TypeScript 5.9's API): static imports and
// re-exports, `import type`, and `import()` with a literal specifier. A type-only import
// counts: a loop through types is still a loop a reader has to follow.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../lib/walk.mjs';

const ROOT = join(import.meta.dirname, '../..');

/** The rooms and what each may import, from the doc's table (`| \`room/\` | owns | may import |`). */
function roomsOfDoc(): Map<string, Set<string>> {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const rooms = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const room = /^`([a-z-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    if (!room || cells.length < 5) continue;
    rooms.set(room, new Set([...(cells[3] ?? '').matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]!)));
  }
  return rooms;
}

/** The relative module specifiers a file imports, with their lines. */
function importsOf(file: string): Array<{ specifier: string; line: number }> {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const found: Array<{ specifier: string; line: number }> = [];
  const add = (node: ts.Node, specifier: ts.Node | undefined) => {
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) {
      found.push({ specifier: specifier.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names (TypeScript's `.js` for a `.ts` file included), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  return [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), `${target}.ts`, join(target, 'index.ts')].find(
    (candidate) => existsSync(candidate) && candidate.includes('.'),
  );
}

const rooms = roomsOfDoc();
const roomOf = (file: string) => relative(ROOT, file).split('/')[0]!;
const files: string[] = [...rooms.keys()].flatMap((room) => filesUnder(join(ROOT, room), (file: string) => /\.(m?[jt]s|d\.mts)$/.test(file)));
const graph = new Map(files.map((file) => [file, importsOf(file).map((i) => ({ ...i, target: resolveSpecifier(file, i.specifier) }))]));

describe('the rooms of docs/architecture.md', () => {
  it('reads the rooms from the doc (the test would pass vacuously on an empty table)', () => {
    for (const room of ['lib', 'model', 'mock', 'pipeline', 'src']) expect(rooms.has(room), room).toBe(true);
    expect(files.length).toBeGreaterThan(50);
  });

  it("every relative import goes to the file's own room or to a room the doc lets it import", () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      for (const { specifier, line, target } of imports) {
        if (!target) continue; // a module made at run time or in a temp copy: not a room edge
        const [from, to] = [roomOf(file), roomOf(target)];
        if (from !== to && !rooms.get(from)!.has(to)) wrong.push(`${relative(ROOT, file)}:${line} imports ${specifier} (${from}/ may not import ${to}/)`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no file imports itself back through others (no import loops between files)', () => {
    const edges = new Map([...graph].map(([file, imports]) => [file, imports.flatMap(({ target }) => (target && graph.has(target) ? [target] : []))]));
    expect(loopsOf(edges).map((loop) => loop.map((file) => relative(ROOT, file)))).toEqual([]);
  });

  it('no folder imports itself back through others (no loops between sibling folders of a room, as mock/conventions <-> mock/test-api was)', () => {
    // A folder and the folders inside it are one part (its entry files use its subfolders,
    // which use the shared files beside the entry): only edges between parts count.
    const nested = (a: string, b: string) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    const folderOf = (file: string) => relative(ROOT, dirname(file));
    const edges = new Map<string, string[]>();
    for (const [file, imports] of graph) {
      const from = folderOf(file);
      const targets = edges.get(from) ?? edges.set(from, []).get(from)!;
      for (const { target } of imports)
        if (target && graph.has(target) && folderOf(target) !== from && !nested(folderOf(target), from)) targets.push(folderOf(target));
    }
    expect(loopsOf(edges)).toEqual([]);
  });
});

/** The strongly connected components of more than one node (Tarjan), each sorted: the loops of a graph. */
function loopsOf(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const connect = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!indexOf.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, indexOf.get(target)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indexOf.has(node)) connect(node);
  return loops;
}
