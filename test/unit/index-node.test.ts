// The package root for Node (`exports` condition "node"): a client created without a
// `fetch` uses the node:http transport, not the global fetch.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.node.js';
import { IMAGES, SHIPMENTS, SUBSCRIPTION } from './fake-fetch.js';
import { hostileServer, type Hostile } from './hostile-server.js';

let server: Hostile;
beforeAll(async () => {
  server = await hostileServer();
  server.route('/', (req, res) => res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' }).end('{"value":[],"code":"EXW"}'));
});
afterAll(() => server.close());

describe('index.node', () => {
  it('sends through node:http when no fetch is given, for both factories', async () => {
    const globalFetch = vi.spyOn(globalThis, 'fetch');
    try {
      const arm = createResourceManagerClient({ baseUrl: server.base, token: 't' });
      const bc = createBusinessCentralClient({ baseUrl: server.base, token: 't' });
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
