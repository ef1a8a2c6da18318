// What must not count as a change (how a schema is written), what the level of a change
// depends on (the resource-management policy), and bad input.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { applyAccepted } from '../../changes/accepted.mjs';
import { baseDocument, changed, compare, rulesOf, type Doc } from './support.js';

const thing = (d: Doc) => d.components.schemas.Thing;
const prop = (d: Doc, name: string) => thing(d).properties[name];

describe('how a schema is written is not a change', () => {
  it('moving a schema to a file of its own (as into specs/common/) changes nothing', () => {
    const before = baseDocument();
    const moved = changed((d) => {
      delete d.components.schemas.Thing;
      Object.assign(d, JSON.parse(JSON.stringify(d).replaceAll('"#/components/schemas/Thing"', '"./common/schemas/Thing.yaml"')));
    });
    expect(JSON.stringify(moved)).toContain('./common/schemas/Thing.yaml');
    expect(compare(before, { 'openapi.yaml': moved, 'common/schemas/Thing.yaml': thing(before) })).toEqual([]);
  });

  it('splitting a schema into allOf parts changes nothing', () => {
    const after = changed((d) => {
      const { properties, required, ...rest } = thing(d);
      const { id, name, count, ...others } = properties;
      d.components.schemas.Base = { type: 'object', required: ['id'], properties: { id, name, count } };
      d.components.schemas.Thing = { ...rest, allOf: [{ $ref: '#/components/schemas/Base' }, { required: ['state'], properties: others }] };
    });
    expect(compare(baseDocument(), after)).toEqual([]);
  });

  it('but a property lost in the split is still found', () => {
    const after = changed((d) => {
      const { properties, ...rest } = thing(d);
      const { id, name, count, note, ...others } = properties;
      d.components.schemas.Thing = { ...rest, allOf: [{ properties: { id, name, count } }, { properties: others }] };
      expect(note).toBeDefined();
    });
    expect(compare(baseDocument(), after).map((c) => c.message)).toContain('response property `note` of `updateThing` 200 was removed');
  });

  it('type: [string, "null"], nullable: true and anyOf with null are the same type', () => {
    const forms = [
      { type: ['string', 'null'] },
      { type: 'string', nullable: true },
      { anyOf: [{ type: 'string' }, { type: 'null' }] },
      { oneOf: [{ type: 'null' }, { type: 'string' }] },
    ];
    for (const a of forms) {
      for (const b of forms) {
        expect(
          compare(
            changed((d) => (thing(d).properties.note = a)),
            changed((d) => (thing(d).properties.note = b)),
          ),
        ).toEqual([]);
      }
    }
  });

  it('dropping null from a request type is found as such', () => {
    const found = compare(
      changed((d) => (prop(d, 'note').type = ['string', 'null'])),
      baseDocument(),
    );
    expect(found.map((c) => c.message)).toContain('request property `note` of `updateThing` no longer accepts null');
  });

  it('a recursive schema is compared without looping, and a change inside it is found', () => {
    const tree = (maxLength: number) => (d: Doc) => {
      d.components.schemas.Node = {
        type: 'object',
        properties: { label: { type: 'string', maxLength }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
      };
      thing(d).properties.tree = { $ref: '#/components/schemas/Node' };
    };
    const found = compare(changed(tree(20)), changed(tree(10)));
    expect(found.map((c) => c.message)).toContain('request property `tree.label` of `updateThing`: maxLength went down from 20 to 10');
    expect(found).toHaveLength(1);
  });

  it('renaming a path parameter in the template keeps the operation (it is not removed and added)', () => {
    const after = changed((d) => {
      const item = d.paths['/things/{id}'];
      delete d.paths['/things/{id}'];
      d.paths['/things/{thingId}'] = item;
    });
    expect(rulesOf(compare(baseDocument(), after))).toEqual([]);
  });
});

describe('levels under the resource-management policy', () => {
  const enumAdded = changed((d) => prop(d, 'state').enum.push('broken'));
  const propertyAdded = changed((d) => (thing(d).properties.color = { type: 'string' }));
  const level = (after: Doc, rule: string, meta: object) => compare(baseDocument(), after, meta).find((c) => c.rule === rule)?.level;

  it('a response enum value added is breaking inside a published resource-management api-version', () => {
    expect(level(enumAdded, 'response-enum-value-added', { family: 'resource-manager', published: true })).toBe('breaking');
    expect(level(enumAdded, 'response-enum-value-added', { family: 'resource-manager', published: false })).toBe('warning');
    expect(level(enumAdded, 'response-enum-value-added', { family: 'business-central', published: true })).toBe('warning');
  });

  it('a response property added is a warning inside a published resource-management api-version, else info', () => {
    expect(level(propertyAdded, 'response-property-added', { family: 'resource-manager', published: true })).toBe('warning');
    expect(level(propertyAdded, 'response-property-added', { family: 'resource-manager', published: false })).toBe('info');
    expect(level(propertyAdded, 'response-property-added', { family: 'business-central', published: true })).toBe('info');
  });
});

describe('bad input', () => {
  it('a document that cannot be parsed is named with its line', () => {
    expect(() => compare(baseDocument(), { 'openapi.yaml': 'openapi: 3.1.0\npaths: {\n  bad' })).toThrow(/^openapi\.yaml:\d+:\d+: cannot parse: /);
  });

  it('a $ref that cannot be resolved names the file, the line and the ref', () => {
    const after = changed((d) => (thing(d).properties.note = { $ref: './missing.yaml' }));
    expect(() => compare(baseDocument(), after)).toThrow(/^openapi\.yaml:\d+: \$ref "\.\/missing\.yaml" cannot be resolved: missing\.yaml cannot be read$/);
    const pointer = changed((d) => (thing(d).properties.note = { $ref: '#/components/schemas/Nope' }));
    expect(() => compare(baseDocument(), pointer)).toThrow(
      /\$ref "#\/components\/schemas\/Nope" cannot be resolved: no \/components\/schemas\/Nope in openapi\.yaml/,
    );
  });

  it('a $ref that leaves the workspace is refused', () => {
    const after = changed((d) => (thing(d).properties.note = { $ref: '../elsewhere/Note.yaml' }));
    expect(() => compare(baseDocument(), after)).toThrow(/^openapi\.yaml:\d+: \$ref "\.\.\/elsewhere\/Note\.yaml" points outside the workspace$/);
  });

  it('a document that is not OpenAPI is refused', () => {
    expect(() => compare(baseDocument(), { 'openapi.yaml': '- a\n- b\n' })).toThrow(/openapi\.yaml: not an OpenAPI document/);
  });
});

describe('accepted changes', () => {
  const change = () => ({
    api: 'vendors',
    version: 'v2.0',
    operation: 'updateVendor',
    rule: 'response-property-removed',
    level: 'breaking',
    message: 'response property `city` of `updateVendor` 200 was removed',
    location: 'specs/business-central/v2.0/schemas/Vendor.yaml:12',
    context: {} as { accepted?: string },
  });
  const entry = { api: 'vendors', version: 'v2.0', rule: 'response-property-removed', operation: 'updateVendor', match: '`city`', reason: 'never returned' };

  it('a matching entry marks the change accepted with its reason', () => {
    const c = change();
    expect(applyAccepted([c], [entry], [])).toEqual([]);
    expect(c.context.accepted).toBe('never returned');
  });

  it('an entry for another property, version or rule does not match, and is stale if new since the base', () => {
    for (const other of [
      { ...entry, match: '`state`' },
      { ...entry, version: 'v1.0' },
      { ...entry, rule: 'response-property-type-changed' },
      { ...entry, operation: 'createVendor' },
    ]) {
      const c = change();
      expect(applyAccepted([c], [other], [])).toHaveLength(1);
      expect(c.context.accepted).toBeUndefined();
    }
  });

  it('an entry already there at the base that matches nothing recorded an earlier change: not stale', () => {
    expect(applyAccepted([], [entry], [entry])).toEqual([]);
  });

  it('a location entry matches by file or by file:line', () => {
    for (const location of ['specs/business-central/v2.0/schemas/Vendor.yaml', 'specs/business-central/v2.0/schemas/Vendor.yaml:12']) {
      const c = change();
      applyAccepted([c], [{ ...entry, operation: undefined, location }], []);
      expect(c.context.accepted).toBe('never returned');
    }
    const c = change();
    applyAccepted([c], [{ ...entry, operation: undefined, location: 'specs/business-central/v2.0/schemas/Vendor.yaml:13' }], []);
    expect(c.context.accepted).toBeUndefined();
  });
});
