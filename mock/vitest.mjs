// `provider-api-clients/mock/vitest`: one mock per test file, for vitest.
//
//   import { useMock } from 'provider-api-clients/mock/vitest';
//   const mock = useMock();            // beforeAll: start on 127.0.0.1, a free port
//                                      // afterEach: mock.reset()   afterAll: mock.close()
//   it('...', async () => { mock.seed(...); await app(mock.url); expect(mock.requests)... });
//
// vitest is an optional peer dependency: only this module imports it.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startMock } from './index.mjs';

export function useMock(options = {}) {
  const { startTimeoutMs = 60_000, ...startOptions } = options;
  let mock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', ...startOptions });
  }, startTimeoutMs);
  afterEach(() => mock?.reset());
  afterAll(() => mock?.close());
  // The mock exists once beforeAll has run: until then, say so instead of failing oddly.
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key === 'then') return undefined; // not a thenable
        if (!mock) throw new Error(`useMock(): mock.${String(key)} is read before the mock started (it starts in beforeAll; read it inside a test or hook).`);
        const value = mock[key];
        return typeof value === 'function' ? value.bind(mock) : value;
      },
      has: (_, key) => Boolean(mock) && key in mock,
    },
  );
}
