// The mock as a library: `import { startMock } from 'provider-api-clients/mock'`.
//
//   const mock = await startMock({ port: 0, takenNames: ['orders-db'] });
//   // ... point the clients (or anything that speaks HTTP) at mock.url ...
//   mock.seed({ entities: [{ company, set: 'vendors', entity: { id, displayName } }] });
//   mock.override({ operationId: 'updateVendor', status: 500, times: 1 });
//   mock.requests;         // what the mock received
//   mock.reset();          // between tests: state, overrides and the record back to start
//   await mock.close();
//
// docs/contract-testing.md walks through it; docs/mock.md says what the mock answers.
// In vitest, `useMock()` of `provider-api-clients/mock/vitest` does the start, reset and close.
//
// Prism is an optional peer dependency of the package: a project that only uses the
// clients does not install it. Without it, startMock rejects with a message naming the
// packages to install. So is odata-v4-parser, the grammar of the OData query options the
// mock answers (conventions/odata-query.mjs): needed by the mock only, never by the clients.
export { ADMIN_PREFIX, INITIAL_ETAG } from './constants.mjs';

const PEERS = '@stoplight/prism-http@5.12.0 @stoplight/prism-core@5.8.0 js-yaml@4.3.2 yaml@2.9.1 odata-v4-parser@0.1.29';

export async function startMock(options) {
  let server;
  try {
    server = await import('./server.mjs');
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND') {
      throw new Error(`the mock needs Prism, an optional peer dependency: npm install --save-dev ${PEERS} (${error.message.split('\n')[0]})`);
    }
    throw error;
  }
  return server.startMock(options);
}
