// Every example in every bundled document validates against its schema (checked here
// with Ajv, independently of the two linters), and each success response has one.
import { describe, expect, it } from 'vitest';
import { apis, bundled, deref, validatorFor } from '../helpers/bundles.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const rows = apis().flatMap((api) => {
  const document = bundled(api);
  const out: Array<{ api: string; where: string; schema: any; value: unknown; document: any }> = [];
  for (const item of Object.values<any>(document.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const operation = item[method];
      const bodies: Array<[string, any]> = [];
      if (operation.requestBody) bodies.push(['request', deref(document, operation.requestBody)]);
      for (const [status, response] of Object.entries<any>(operation.responses)) bodies.push([status, deref(document, response)]);
      for (const [where, body] of bodies) {
        for (const [mediaType, media] of Object.entries<any>(body.content ?? {})) {
          for (const [key, example] of Object.entries<any>(media.examples ?? {})) {
            out.push({
              api: api.name,
              where: `${operation.operationId} ${where} ${mediaType} example "${key}"`,
              schema: media.schema,
              value: deref(document, example).value,
              document,
            });
          }
        }
      }
    }
  }
  return out;
});

describe('examples', () => {
  it('there are examples to check in every document', () => {
    for (const api of apis()) expect(rows.filter((r) => r.api === api.name).length, api.name).toBeGreaterThan(0);
  });

  it.each(rows)('$api: $where validates against its schema', ({ document, schema, value }) => {
    const { ok, errors } = validatorFor(document)(schema, value);
    expect(ok, errors).toBe(true);
  });
});
