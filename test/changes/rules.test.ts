// Each rule of the change report with a pair of documents that trips it and a near miss
// that must not (a test that cannot fail is a defect: the near misses are the changes a
// sloppy rule would flag).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { RULES } from '../../scripts/changes/rules.mjs';
import { changed, compare, rulesOf, type Doc } from './support.js';

const op = (d: Doc) => d.paths['/things/{id}'].patch;
const thing = (d: Doc) => d.components.schemas.Thing;
const prop = (d: Doc, name: string) => thing(d).properties[name];

type Case = [rule: string, trips: (d: Doc) => void, nearMiss: (d: Doc) => void];

const CASES: Case[] = [
  ['path-removed', (d) => delete d.paths['/others'], (d) => delete d.paths['/things/{id}'].delete],
  ['operation-removed', (d) => delete d.paths['/things/{id}'].delete, (d) => delete d.paths['/others']],
  ['success-status-removed', (d) => delete op(d).responses['202'], (d) => delete op(d).responses.default],
  ['response-media-type-removed', (d) => delete op(d).responses['200'].content['application/xml'], (d) => (op(d).responses['200'].content['text/plain'] = { schema: { type: 'string' } })],
  [
    'request-media-type-removed',
    (d) => {
      const content = op(d).requestBody.content;
      content['application/merge-patch+json'] = content['application/json'];
      delete content['application/json'];
    },
    (d) => (op(d).requestBody.content['application/merge-patch+json'] = { schema: { type: 'object' } }),
  ],
  ['new-required-parameter', (d) => op(d).parameters.push({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }), (d) => op(d).parameters.push({ name: 'expand', in: 'query', schema: { type: 'string' } })],
  ['parameter-became-required', (d) => (op(d).parameters[0].required = true), (d) => (op(d).parameters[1].name = 'if-match')],
  ['request-body-became-required', (d) => (op(d).requestBody.required = true), (d) => (op(d).requestBody.description = 'The fields to change.')],
  [
    'new-required-request-property',
    (d) => {
      thing(d).properties.owner = { type: 'string' };
      thing(d).required.push('owner');
    },
    (d) => {
      thing(d).properties.created = { type: 'string', readOnly: true };
      thing(d).required.push('created');
    },
  ],
  ['request-property-became-required', (d) => thing(d).required.push('name'), (d) => (thing(d).required = ['state', 'id'])],
  ['request-type-changed', (d) => (prop(d, 'count').type = 'string'), (d) => (prop(d, 'count').type = 'number')],
  ['request-type-changed', (d) => (op(d).parameters[1].schema.type = 'integer'), (d) => (op(d).parameters[1].schema.type = ['string', 'null'])],
  ['request-enum-value-removed', (d) => (prop(d, 'kind').enum = ['a']), (d) => (prop(d, 'kind').enum = ['b', 'a', 'c'])],
  ['request-enum-value-removed', (d) => (op(d).parameters[0].schema.enum = ['all']), (d) => (op(d).parameters[0].schema.enum = ['some', 'all'])],
  ['request-constraint-tightened', (d) => (prop(d, 'name').maxLength = 40), (d) => (prop(d, 'name').maxLength = 60)],
  ['request-constraint-tightened', (d) => (prop(d, 'name').minLength = 2), (d) => (prop(d, 'name').minLength = 0)],
  ['request-constraint-tightened', (d) => (prop(d, 'name').pattern = '^[a-z]{2,}$'), (d) => delete prop(d, 'name').pattern],
  ['request-constraint-tightened', (d) => (prop(d, 'note').format = 'email'), (d) => (prop(d, 'note').description = 'A note.')],
  ['request-constraint-tightened', (d) => (prop(d, 'count').maximum = 9), (d) => (prop(d, 'count').maximum = 11)],
  ['request-constraint-tightened', (d) => (prop(d, 'count').minimum = 1), (d) => (prop(d, 'count').minimum = -1)],
  ['request-constraint-tightened', (d) => (op(d).parameters[1].schema.minLength = 1), (d) => (op(d).parameters[1].schema.minLength = 0)],
  ['parameter-default-changed', (d) => (op(d).parameters[0].schema.default = 'some'), (d) => (op(d).parameters[0].schema.examples = ['some'])],
  ['response-property-removed', (d) => delete thing(d).properties.note, (d) => (prop(d, 'note').description = 'A note.')],
  ['response-property-type-changed', (d) => (prop(d, 'size').type = 'string'), (d) => (prop(d, 'size').type = 'integer')],
  ['response-property-type-changed', (d) => (prop(d, 'tags').items.type = 'integer'), (d) => (prop(d, 'tags').items.maxLength = 20)],
  ['response-property-became-nullable', (d) => (prop(d, 'note').type = ['string', 'null']), (d) => (prop(d, 'note').type = ['string'])],
  ['response-property-became-optional', (d) => (thing(d).required = ['id']), (d) => thing(d).required.push('name')],
  ['security-requirement-added', (d) => (op(d).security = [{ oauth: ['read'], key: [] }]), (d) => (op(d).security = [{ oauth: ['read'] }, { key: [] }])],
  ['security-requirement-added', (d) => (d.paths['/others'].get.security = [{ key: [] }]), (d) => (d.paths['/others'].get.security = [{}, { key: [] }])],
  ['security-scope-added', (d) => (d.security = [{ oauth: ['read', 'write'] }]), (d) => (d.security = [{ oauth: [] }])],
  ['response-enum-value-added', (d) => prop(d, 'state').enum.push('broken'), (d) => (prop(d, 'state').enum = ['on'])],
  ['response-property-added', (d) => (thing(d).properties.color = { type: 'string' }), (d) => (thing(d).properties.secret = { type: 'string', writeOnly: true })],
  ['request-property-removed', (d) => delete thing(d).properties.note, (d) => delete thing(d).properties.id],
  ['parameter-removed', (d) => op(d).parameters.shift(), (d) => (op(d).parameters[0].description = 'Which things.')],
  ['operation-added', (d) => (d.paths['/others'].post = { operationId: 'createOther', responses: { '201': { description: 'Made.' } } }), (d) => (d.paths['/others'].get.description = 'All others.')],
  ['optional-parameter-added', (d) => op(d).parameters.push({ name: 'expand', in: 'query', schema: { type: 'string' } }), (d) => op(d).parameters.push({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } })],
  ['optional-request-property-added', (d) => (thing(d).properties.color = { type: 'string' }), (d) => (thing(d).properties.created = { type: 'string', readOnly: true })],
  ['summary-changed', (d) => (op(d).summary = 'Change a thing'), (d) => (op(d).summary = ' Update a\n thing ')],
  ['description-changed', (d) => (prop(d, 'name').description = 'What it is called.'), (d) => (prop(d, 'name').description = 'Its\n  name. ')],
  ['description-changed', (d) => (op(d).description = 'Changes one thing.'), (d) => (op(d).summary = 'Change a thing')],
  ['example-changed', (d) => (op(d).responses['200'].content['application/json'].examples.Basic.value.name = 'b'), (d) => (op(d).responses['200'].content['application/json'].examples.Basic.value = { name: 'a', id: '1' })],
];

describe('each rule', () => {
  it('has a case here, and every case names a real rule', () => {
    const names = RULES.map((r: { name: string }) => r.name).sort();
    expect([...new Set(CASES.map(([rule]) => rule))].sort()).toEqual(names);
  });

  it.each(CASES)('%s: trips on a change that does it', (rule, trips) => {
    expect(rulesOf(compare(changed(() => {}), changed(trips)))).toContain(rule);
  });

  it.each(CASES)('%s: not tripped by a near miss', (rule, _trips, nearMiss) => {
    expect(rulesOf(compare(changed(() => {}), changed(nearMiss)))).not.toContain(rule);
  });

  it('finds nothing between identical documents', () => {
    expect(compare(changed(() => {}), changed(() => {}))).toEqual([]);
  });
});

describe('messages', () => {
  it('say what changed for whom, and where in the new document', () => {
    const [change] = compare(changed(() => {}), changed((d) => delete thing(d).properties.note)).filter((c) => c.rule === 'response-property-removed');
    expect(change).toEqual({
      api: 'things',
      version: '2025-01-01',
      operation: 'updateThing',
      rule: 'response-property-removed',
      level: 'breaking',
      message: 'response property `note` of `updateThing` 200 was removed',
      location: expect.stringMatching(/^openapi\.yaml:\d+$/),
    });
  });

  it('name a header parameter that is new and required', () => {
    const found = compare(changed(() => {}), changed((d) => op(d).parameters.push({ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } })));
    expect(found.map((c) => c.message)).toContain('header parameter `X-Tenant` of `updateThing` is new and required');
  });
});
