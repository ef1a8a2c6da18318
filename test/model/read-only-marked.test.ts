// Read-only wherever it is written (model/read-only.mjs), as the types step marks it: on the property, on the schema its
// $ref names, under allOf, through an array's items, at any depth. The types step marks
// such properties so that no request body type takes them (pipeline/engines.mjs).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { isReadOnly, withReadOnlyMarked } from '../../model/read-only.mjs';

const document = () => ({
  paths: {
    '/things/{name}': {
      put: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: {
          '200': { content: { 'application/json': { schema: { type: 'object', properties: { state: { $ref: '#/components/schemas/State' } } } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      State: { type: 'string', enum: ['Succeeded'], readOnly: true },
      Address: { type: 'object', properties: { ip: { type: 'string', readOnly: true }, port: { type: 'integer' } } },
      Thing: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          state: { $ref: '#/components/schemas/State' },
          wrapped: { allOf: [{ $ref: '#/components/schemas/State' }], description: 'through allOf' },
          states: { type: 'array', items: { $ref: '#/components/schemas/State' } },
          properties: { type: 'object', properties: { deep: { $ref: '#/components/schemas/State' }, address: { $ref: '#/components/schemas/Address' } } },
        },
      },
    },
  },
});

describe('read-only wherever it is written', () => {
  it('marks the property itself when the schema it references, an allOf part or its items are read-only, at any depth', () => {
    const marked = withReadOnlyMarked(document());
    const thing = marked.components.schemas.Thing.properties;
    expect(thing.state.readOnly).toBe(true);
    expect(thing.wrapped.readOnly).toBe(true);
    expect(thing.states.readOnly).toBe(true);
    expect(thing.properties.properties.deep.readOnly).toBe(true);
    // An inline response schema in a path is walked too.
    expect(marked.paths['/things/{name}'].put.responses['200'].content['application/json'].schema.properties.state.readOnly).toBe(true);
  });

  it('leaves writable properties as they are (a writable object whose fields are partly read-only stays writable)', () => {
    const marked = withReadOnlyMarked(document());
    const thing = marked.components.schemas.Thing.properties;
    expect(thing.name.readOnly).toBeUndefined();
    expect(thing.properties.readOnly).toBeUndefined();
    expect(thing.properties.properties.address.readOnly).toBeUndefined();
    expect(marked.components.schemas.Address.properties.port.readOnly).toBeUndefined();
  });

  it('answers through $ref chains and stops on cycles', () => {
    const doc: any = { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { allOf: [{ $ref: '#/components/schemas/A' }] } } } };
    const resolve = (node: any) => (typeof node?.$ref === 'string' ? doc.components.schemas[node.$ref.split('/').at(-1)!] : node);
    expect(isReadOnly({ $ref: '#/components/schemas/A' }, resolve)).toBe(false);
    doc.components.schemas.B.readOnly = true;
    expect(isReadOnly({ $ref: '#/components/schemas/A' }, resolve)).toBe(true);
  });
});
