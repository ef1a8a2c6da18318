// Retries: bounded, idempotent methods only, Retry-After honoured. Timers are faked,
// so waits are checked by advancing the clock, not by measuring time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createResourceManagerClient } from '../../src/index.js';
import { CHECK, fakeFetch, IMAGES, json, SUBSCRIPTION } from './fake-fetch.js';

const BASE = 'https://management.example.com';
const imagesInit = { params: { path: { subscriptionId: SUBSCRIPTION, location: 'westeurope' } } };
const checkInit = { params: { path: { subscriptionId: SUBSCRIPTION } }, body: { name: 'x', type: 'Provider.Sql/servers' as const } };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function client(answer: Parameters<typeof fakeFetch>[0], retry: { retries?: number; delayMs?: number; maxDelayMs?: number } = {}) {
  const fake = fakeFetch(answer);
  const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-retry-1', fetch: fake.fetch, timeoutMs: 0, retry });
  return { arm, calls: fake.calls };
}

describe('retries', () => {
  it('retries a GET after a 503 once Retry-After (seconds) has passed', async () => {
    const { arm, calls } = client((_c, i) => (i === 0 ? json({ error: { code: 'Busy' } }, 503, { 'Retry-After': '2' }) : json({ value: [] })));
    const pending = arm.GET(IMAGES, imagesInit);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ ok: true, data: { value: [] } });
  });

  it('honours Retry-After given as an HTTP date', async () => {
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    const { arm, calls } = client((_c, i) => (i === 0 ? json({}, 429, { 'Retry-After': 'Sun, 22 Nov 2026 10:00:03 GMT' }) : json({ value: [] })));
    const pending = arm.GET(IMAGES, imagesInit);
    await vi.advanceTimersByTimeAsync(2900);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    await pending;
    expect(calls).toHaveLength(2);
  });

  it('stops after the configured number of retries and returns the last answer', async () => {
    const { arm, calls } = client(() => json({ error: { code: 'Busy' } }, 503, { 'Retry-After': '0' }), { retries: 2 });
    const result = await arm.GET(IMAGES, imagesInit);
    expect(calls).toHaveLength(3);
    expect(result).toMatchObject({ ok: false, error: { error: { code: 'Busy' } } });
    expect(result.response.status).toBe(503);
  });

  it('does not wait for a Retry-After longer than maxDelayMs', async () => {
    const { arm, calls } = client(() => json({}, 503, { 'Retry-After': '3600' }), { maxDelayMs: 30_000 });
    const result = await arm.GET(IMAGES, imagesInit);
    expect(calls).toHaveLength(1);
    expect(result.response.status).toBe(503);
  });

  it('does not retry a POST', async () => {
    const { arm, calls } = client(() => json({}, 503, { 'Retry-After': '0' }));
    const result = await arm.POST(CHECK, checkInit);
    expect(calls).toHaveLength(1);
    expect(result.ok).toBe(false);
  });

  it('does not retry a status that will not change (404)', async () => {
    const { arm, calls } = client(() => json({ error: { code: 'NotFound' } }, 404));
    await arm.GET(IMAGES, imagesInit);
    expect(calls).toHaveLength(1);
  });

  it('retries a GET after a network failure with backoff, then succeeds', async () => {
    const { arm, calls } = client((_c, i) => (i === 0 ? Promise.reject(new TypeError('fetch failed')) : json({ value: [] })), { delayMs: 100 });
    const pending = arm.GET(IMAGES, imagesInit);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toMatchObject({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('is off with retry: false', async () => {
    const fake = fakeFetch(() => json({}, 503, { 'Retry-After': '0' }));
    const arm = createResourceManagerClient({ baseUrl: BASE, token: 'tok-retry-1', fetch: fake.fetch, retry: false });
    await arm.GET(IMAGES, imagesInit);
    expect(fake.calls).toHaveLength(1);
  });

  it('asks for a fresh token on each attempt', async () => {
    let n = 0;
    const fake = fakeFetch((_c, i) => (i === 0 ? json({}, 503, { 'Retry-After': '0' }) : json({ value: [] })));
    const arm = createResourceManagerClient({ baseUrl: BASE, getToken: () => `tok-${++n}`, fetch: fake.fetch, timeoutMs: 0 });
    await arm.GET(IMAGES, imagesInit);
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('stops waiting when the caller aborts during the pause', async () => {
    const { arm, calls } = client(() => json({}, 503, { 'Retry-After': '10' }));
    const controller = new AbortController();
    const pending = arm.GET(IMAGES, { ...imagesInit, signal: controller.signal });
    const settled = expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    await settled;
    expect(calls).toHaveLength(1);
  });
});
