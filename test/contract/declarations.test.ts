// The mock's hand-written declarations (mock/index.d.ts, what `provider-api-clients/mock`
// ships) against the code they describe: each union and key list the code declares as
// data is read from the .d.ts with TypeScript's parser and compared both ways, so a
// convention, option or key added on one side only fails here. Then a mock started
// in-process: what it returns, its state and its routes, against the same declarations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
// @ts-expect-error: plain ESM scripts without types
import { CONVENTION_NAMES } from '../../mock/conventions/index.mjs';
// @ts-expect-error: plain ESM scripts without types
import { OUTCOMES, RULE_KEYS, WHEN_KEYS as LONG_RUNNING_WHEN_KEYS } from '../../mock/conventions/long-running.mjs';
// @ts-expect-error: plain ESM scripts without types
import { FAULTS, KEYS as OVERRIDE_KEYS, WHEN_KEYS as OVERRIDE_WHEN_KEYS } from '../../mock/test-api/overrides.mjs';
// @ts-expect-error: plain ESM scripts without types
import { KEYS as SEED_KEYS } from '../../mock/test-api/seed.mjs';
// @ts-expect-error: plain ESM scripts without types
import { startMock } from '../../mock/index.mjs';

const ROOT = join(import.meta.dirname, '../..');
const source = ts.createSourceFile('index.d.ts', readFileSync(join(ROOT, 'mock/index.d.ts'), 'utf8'), ts.ScriptTarget.Latest, true);

/** The string literals of a union type node (`'a' | 'b'`). */
function literals(node: ts.TypeNode | undefined): string[] {
  const parts = node && ts.isUnionTypeNode(node) ? node.types : node ? [node] : [];
  return parts.map((part) => {
    if (ts.isLiteralTypeNode(part) && ts.isStringLiteral(part.literal)) return part.literal.text;
    throw new Error(`not a string literal: ${part.getText(source)}`);
  });
}

/** An interface (or a type alias) of the declarations, by name. */
function declaration(name: string): ts.InterfaceDeclaration | ts.TypeAliasDeclaration {
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );
  if (!found) throw new Error(`mock/index.d.ts declares no ${name}`);
  return found;
}

/** The member names of an interface. */
function members(name: string): string[] {
  const found = declaration(name);
  if (!ts.isInterfaceDeclaration(found)) throw new Error(`${name} is not an interface`);
  return found.members.map((member) => member.name?.getText(source) ?? '').filter(Boolean);
}

/** The type of one member of an interface. */
function memberType(name: string, member: string): ts.TypeNode | undefined {
  const found = declaration(name);
  if (!ts.isInterfaceDeclaration(found)) throw new Error(`${name} is not an interface`);
  const property = found.members.find((m) => m.name?.getText(source) === member);
  return property && ts.isPropertySignature(property) ? property.type : undefined;
}

const sorted = (list: readonly string[]) => [...list].sort();

describe('mock/index.d.ts says what the code declares', () => {
  it('the conventions: MockConvention is the list of names CONVENTIONS declares, in its order, each once', () => {
    const alias = declaration('MockConvention');
    expect(ts.isTypeAliasDeclaration(alias)).toBe(true);
    const declared = literals((alias as ts.TypeAliasDeclaration).type);
    expect(declared).toEqual(CONVENTION_NAMES);
    expect(new Set(declared).size).toBe(declared.length);
    // The conventions the issue found missing from the declarations.
    expect(declared).toEqual(expect.arrayContaining(['arm-action', 'odata-action']));
  });

  it.each([
    ['SeedData', SEED_KEYS],
    ['Override', OVERRIDE_KEYS],
    ['OverrideRequest', OVERRIDE_WHEN_KEYS],
    ['LongRunningRule', RULE_KEYS],
    ['LongRunningRequest', LONG_RUNNING_WHEN_KEYS],
  ] as [string, string[]][])('%s has the keys the code takes', (name, keys) => {
    expect(sorted(members(name))).toEqual(sorted(keys));
  });

  it("StartMockOptions names the options startMock takes (besides `apis`, the workspace's own tools' option)", () => {
    const server = ts.createSourceFile('server.mjs', readFileSync(join(ROOT, 'mock/server.mjs'), 'utf8'), ts.ScriptTarget.Latest, true);
    const start = server.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === 'startMock');
    const pattern = start?.parameters[0]?.name;
    if (!pattern || !ts.isObjectBindingPattern(pattern)) throw new Error('startMock takes no { ...options } in mock/server.mjs');
    const taken = pattern.elements.map((element) => (element.propertyName ?? element.name).getText(server));
    expect(sorted(taken)).toEqual(sorted([...members('StartMockOptions'), 'apis']));
  });

  it('the unions of values the code checks: fault, outcome', () => {
    expect(sorted(literals(memberType('Override', 'fault')))).toEqual(sorted(FAULTS));
    expect(sorted(literals(memberType('LongRunningRule', 'outcome')))).toEqual(sorted(OUTCOMES));
  });

  it('the comparison reads the declarations: a union it cannot read is an error, not a pass (control)', () => {
    expect(() => declaration('NoSuchType')).toThrow(/declares no NoSuchType/);
    expect(literals(ts.factory.createUnionTypeNode([ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral('x'))]))).toEqual(['x']);
  });
});

describe('a started mock is what mock/index.d.ts says', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  }, 60_000);
  afterAll(() => mock?.close());

  it('startMock resolves the members Mock declares, no more, no fewer', () => {
    expect(sorted(Object.keys(mock))).toEqual(sorted(members('Mock')));
  });

  it('its state has the members MockState declares', () => {
    expect(sorted(Object.keys(mock.state))).toEqual(sorted(members('MockState')));
  });

  it("every route's convention is one CONVENTIONS declares, and a route has the members MockRoute declares", () => {
    expect(mock.routes.length).toBeGreaterThan(0);
    for (const route of mock.routes) {
      expect(CONVENTION_NAMES).toContain(route.convention);
      expect(sorted(Object.keys(route))).toEqual(sorted(members('MockRoute')));
    }
  });
});
