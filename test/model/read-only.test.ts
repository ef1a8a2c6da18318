// Read-only, read wherever a schema writes it (model/read-only.mjs): on the property, on
// the schema its `$ref` names, under `allOf`, in arrays and maps, at any depth. The mock
// drops such values from request bodies before it stores them.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { isReadOnly, withoutReadOnly } from '../../model/read-only.mjs';

const document: any = {
  components: {
    schemas: {
      ProvisioningState: { type: 'string', readOnly: true, enum: ['Succeeded', 'Failed'] },
      IpAddress: {
        type: 'object',
        properties: { ip: { type: 'string', readOnly: true }, ports: { type: 'array', items: { $ref: '#/components/schemas/Port' } } },
      },
      Port: { type: 'object', properties: { port: { type: 'integer' }, state: { allOf: [{ $ref: '#/components/schemas/ProvisioningState' }] } } },
      Base: { type: 'object', properties: { id: { type: 'string', readOnly: true } } },
      Group: {
        allOf: [{ $ref: '#/components/schemas/Base' }],
        properties: {
          properties: {
            type: 'object',
            properties: {
              provisioningState: { $ref: '#/components/schemas/ProvisioningState' },
              ipAddress: { $ref: '#/components/schemas/IpAddress' },
              labels: {
                type: 'object',
                additionalProperties: { type: 'object', properties: { since: { type: 'string', readOnly: true }, text: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  },
};
const deref = (node: any) => {
  let at = node;
  while (typeof at?.$ref === 'string')
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((o: any, k: string) => o?.[k], document);
  return at;
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('read-only wherever it is written', () => {
  it('on the property, on a referenced schema, under allOf', () => {
    expect(isReadOnly({ type: 'string', readOnly: true })).toBe(true);
    expect(isReadOnly(ref('ProvisioningState'), deref)).toBe(true);
    expect(isReadOnly({ allOf: [ref('ProvisioningState')] }, deref)).toBe(true);
    expect(isReadOnly({ $ref: '#/components/schemas/Port', readOnly: true }, deref)).toBe(true);
    expect(isReadOnly(ref('Port'), deref)).toBe(false);
    expect(isReadOnly({ type: 'string' }, deref)).toBe(false);
  });

  it('a body loses its read-only values at any depth, keeps the rest and what its schema does not describe', () => {
    const sent = {
      id: '/given',
      extra: { kept: true },
      properties: {
        provisioningState: 'Succeeded',
        ipAddress: { ip: '10.0.0.1', ports: [{ port: 80, state: 'Failed' }, { port: 443 }] },
        labels: { a: { since: '2020', text: 'x' } },
      },
    };
    const before = structuredClone(sent);
    expect(withoutReadOnly(sent, ref('Group'), deref)).toEqual({
      extra: { kept: true },
      properties: { ipAddress: { ports: [{ port: 80 }, { port: 443 }] }, labels: { a: { text: 'x' } } },
    });
    expect(sent).toEqual(before);
  });

  it('a recursive schema ends', () => {
    const node: any = { type: 'object', properties: { secret: { type: 'string', readOnly: true } } };
    node.properties.next = node;
    expect(withoutReadOnly({ secret: 1, next: { secret: 2, next: { keep: 3 } } }, node)).toEqual({ next: { next: { keep: 3 } } });
  });
});
