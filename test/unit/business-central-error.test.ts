// isBusinessCentralErrorBody: narrows the open business-data error type to the body the
// family's examples and the mock use, { error: { code, message } }, and nothing else.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createBusinessCentralClient, isBusinessCentralErrorBody, type BusinessCentralErrorBody } from '../../src/index.js';
import { fakeFetch, json } from './fake-fetch.js';

describe('isBusinessCentralErrorBody', () => {
  it.each([
    [{ error: { code: 'PreconditionFailed', message: 'stale tag' } }],
    [{ error: { code: 'BadRequest', message: '', target: 'displayName' } }],
    [{ error: { code: 'X', message: 'y', innererror: { trace: 1 } }, '@odata.context': 'c' }],
  ])('accepts %j', (body) => {
    expect(isBusinessCentralErrorBody(body)).toBe(true);
  });

  it.each([
    [null],
    [undefined],
    ['PreconditionFailed'],
    [[{ error: { code: 'a', message: 'b' } }]],
    [{}],
    [{ error: null }],
    [{ error: [] }],
    [{ error: 'text' }],
    [{ error: { code: 'a' } }],
    [{ error: { message: 'b' } }],
    [{ error: { code: 412, message: 'b' } }],
    [{ error: { code: 'a', message: { text: 'b' } } }],
    [{ error: { code: 'a', message: 'b', target: 3 } }],
    [{ code: 'a', message: 'b' }],
  ])('refuses %j', (body) => {
    expect(isBusinessCentralErrorBody(body)).toBe(false);
  });

  it('narrows the error of a business-data result, whose documented type stays open', async () => {
    const body = { error: { code: 'PreconditionFailed', message: 'stale tag' } };
    const fake = fakeFetch(() => json(body, 412));
    const bc = createBusinessCentralClient({ baseUrl: 'https://bc.example.com', token: 't-1', fetch: fake.fetch, retry: false });
    const result = await bc.updateVendor({ companyId: 'c', vendorId: '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f', eTag: 'W/"1"', vendor: { blocked: 'Payment' } });
    expect(result.ok).toBe(false);
    const error: unknown = result.error;
    if (!isBusinessCentralErrorBody(error)) throw new Error('expected the family error body');
    expectTypeOf(error).toEqualTypeOf<BusinessCentralErrorBody>();
    expectTypeOf(error.error.code).toBeString();
    expect(error.error.code).toBe('PreconditionFailed');
  });
});
