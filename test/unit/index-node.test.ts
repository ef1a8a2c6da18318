// The package root for Node (`exports` condition "node"): a client created without a
// `fetch` uses the node:http transport, not the global fetch.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  businesscentralApi,
  containerinstanceApi,
  createBusinessCentralClient,
  createBusinessCentralClientOf,
  createResourceManagerClient,
  createResourceManagerClientOf,
} from '../../src/index.node.js';
import { IMAGES, SHIPMENTS, SUBSCRIPTION } from './fake-fetch.js';
import { hostileServer, type Hostile } from './hostile-server.js';

let server: Hostile;
beforeAll(async () => {
  server = await hostileServer();
  server.route('/', (req, res) => res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' }).end('{"value":[],"code":"EXW"}'));
});
afterAll(() => server.close());

describe('index.node', () => {
  it.each(['every API', 'named APIs'])('sends through node:http when no fetch is given, for both factories (clients of %s)', async (holds) => {
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    try {
      const options = { baseUrl: server.base, token: 't' };
      const arm = holds === 'every API' ? createResourceManagerClient(options) : createResourceManagerClientOf([containerinstanceApi], options);
      const bc = holds === 'every API' ? createBusinessCentralClient(options) : createBusinessCentralClientOf([businesscentralApi], options);
      const images = await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
      const created = await bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'EXW' } });
      expect(images).toMatchObject({ ok: true, data: { value: [] } });
      expect(created).toMatchObject({ ok: true, data: { code: 'EXW' } });
      expect(globalFetch).not.toHaveBeenCalled();
    } finally {
      globalFetch.mockRestore();
    }
  });

  it('uses the fetch it is given', async () => {
    const fetch = vi.fn(async () => new Response('{"value":[]}', { status: 200 }));
    const arm = createResourceManagerClient({ baseUrl: server.base, token: 't', fetch });
    await arm.GET(IMAGES, { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
