// Read-only means read-only wherever the schema writes it (model/read-only.mjs): the ARM
// lifecycle drops such values from a PUT or PATCH body at any depth before it stores it,
// so PUT, GET and PATCH never answer back what a client sent there. The fixture's server
// (fixtures/arm/) gains a `network` object below `properties`, through a `$ref`, whose
// `ip` is read-only, with an array of rules whose `id` is read-only, and a `$ref`-ed
// read-only `health`: as a contributor writes them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { armDocuments, armPaths, call, VERSIONS } from './arm-fixtures.js';
import { startMock } from './growth-fixtures.js';

let mock: Mock;
let at: ReturnType<typeof armPaths>;
beforeAll(async () => {
  const documents = armDocuments().map((entry) => {
    const document = entry.document as any;
    const { schemas } = document.components;
    schemas.Health = { type: 'string', readOnly: true, enum: ['Healthy', 'Degraded'] };
    schemas.Network = {
      type: 'object',
      properties: {
        subnet: { type: 'string' },
        ip: { type: 'string', readOnly: true },
        rules: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' }, id: { type: 'string', readOnly: true } } } },
        health: { allOf: [{ $ref: '#/components/schemas/Health' }] },
      },
    };
    schemas.Server.allOf[1].properties.properties.properties.network = { $ref: '#/components/schemas/Network' };
    schemas.ServerUpdate.properties.properties.properties.network = { $ref: '#/components/schemas/Network' };
    return entry;
  });
  mock = await startMock({ port: 0, documents });
  at = armPaths(mock.url);
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const SENT = { subnet: 'front', ip: '10.0.0.9', health: 'Degraded', rules: [{ port: 443, id: 'sent-1' }, { port: 80 }] };
const KEPT = { subnet: 'front', rules: [{ port: 443 }, { port: 80 }] };

describe('read-only values sent below properties are ignored', () => {
  it('PUT answers and stores the body without them; GET reads the same', async () => {
    const put = await call(at.server('rg-ro', 'ro-1'), {
      method: 'PUT',
      body: { location: 'northeurope', properties: { administratorLogin: 'a', network: SENT } },
    });
    expect([200, 201]).toContain(put.status);
    expect(put.body.properties.network).toEqual(KEPT);
    const monitor = put.headers.get('azure-asyncoperation');
    if (monitor) await call(monitor);
    const read = await call(at.server('rg-ro', 'ro-1'));
    expect(read.status).toBe(200);
    expect(read.body.properties.network).toEqual(KEPT);
  });

  it('PATCH merges the writable fields only', async () => {
    const put = await call(at.server('rg-ro', 'ro-2', VERSIONS[1]), {
      method: 'PUT',
      body: { location: 'northeurope', properties: { network: { subnet: 'a' } } },
    });
    const monitor = put.headers.get('azure-asyncoperation');
    if (monitor) await call(monitor);
    const patched = await call(at.server('rg-ro', 'ro-2'), {
      method: 'PATCH',
      body: { properties: { network: { subnet: 'b', ip: '10.1.1.1', health: 'Healthy' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.properties.network).toEqual({ subnet: 'b' });
    expect((await call(at.server('rg-ro', 'ro-2'))).body.properties.network).toEqual({ subnet: 'b' });
  });
});
