// Types of `provider-api-clients/mock/vitest` (vitest is an optional peer dependency).
import type { Mock, StartMockOptions } from './index.js';

export interface UseMockOptions extends StartMockOptions {
  /** How long beforeAll may take to start the mock. Default 60000. */
  startTimeoutMs?: number;
}

/**
 * Registers beforeAll (start on 127.0.0.1, a free port unless `port` is given),
 * afterEach (reset) and afterAll (close); returns the mock, usable inside tests and hooks.
 */
export function useMock(options?: UseMockOptions): Mock;
