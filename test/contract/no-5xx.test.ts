// The mock's own rule: no request input makes it fail. Inputs on which bare Prism 5.14
// answers 500 or crashes (see scripts/lib/mock-guards.mjs), odd Prefer values, and
// generated data, which must still match the schemas. A 5xx comes only when asked for.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { label, operation, send, validRequest, violationsOf, type RawRequest } from './support.js';

const role = operation('RoleEligibilityScheduleRequests_Get');
const name = operation('Servers_CheckNameAvailability');
const vendor = operation('updateVendor');
const ship = operation('createShipmentMethod');
const withHeaders = (request: RawRequest, headers: Record<string, string>): RawRequest => ({ ...request, headers: { ...request.headers, ...headers } });

const hostile = [
  { op: role, scenario: 'malformed percent-encoding in the path (Prism: process crash)', request: { ...validRequest(role), path: validRequest(role).path.replace('64caffb6', '%E0%A4%A') }, status: 400 },
  { op: vendor, scenario: 'malformed percent-encoding in an OData key', request: { ...validRequest(vendor), path: '/api/v2.0/companies(%ZZ)/vendors(f8a5738e-44e3-ea11-bb43-000d3a2feca1)' }, status: 400 },
  { op: ship, scenario: 'unparsable Content-Type (Prism: 500)', request: withHeaders(validRequest(ship), { 'content-type': '///' }), status: 415 },
  { op: ship, scenario: 'unknown charset', request: withHeaders(validRequest(ship), { 'content-type': 'application/json; charset=klingon' }), status: 400 },
  { op: role, scenario: 'Prefer: code=000 (Prism: RangeError)', request: withHeaders(validRequest(role), { prefer: 'code=000' }), status: 422 },
  { op: role, scenario: 'Prefer: code=999', request: withHeaders(validRequest(role), { prefer: 'code=999' }), status: 422 },
  { op: role, scenario: '__code=000 in the query', request: { ...validRequest(role), path: `${validRequest(role).path}&__code=000` }, status: 422 },
  { op: role, scenario: 'Prefer: code=200, example=<unknown> (Prism: 500)', request: withHeaders(validRequest(role), { prefer: 'code=200, example=nope' }), status: 404 },
  { op: vendor, scenario: 'Prefer: code=412, example=BlockPayment (Prism: a 200)', request: withHeaders(validRequest(vendor), { prefer: 'code=412, example=BlockPayment' }), status: 404 },
  { op: role, scenario: 'Prefer header of separators only', request: withHeaders(validRequest(role), { prefer: ';;==,,' }), status: 200 },
  { op: role, scenario: '__server pointing elsewhere', request: { ...validRequest(role), path: `${validRequest(role).path}&__server=http://example.invalid` }, status: 200 },
  { op: vendor, scenario: 'JSON null body', request: { ...validRequest(vendor), body: 'null' }, status: 422 },
  { op: vendor, scenario: 'deeply nested JSON body', request: { ...validRequest(vendor), body: `${'['.repeat(5000)}${']'.repeat(5000)}` }, status: 422 },
  { op: name, scenario: 'invalid request plus Prefer: code=200', request: withHeaders({ ...validRequest(name), body: '{}' }, { prefer: 'code=200' }), status: 400 },
  { op: name, scenario: 'path of a single slash', request: { ...validRequest(name), path: '/' }, status: 404 },
  { op: name, scenario: 'HEAD on an operation path', request: { ...validRequest(name), method: 'HEAD', body: undefined }, status: 405 },
];

describe('no input makes the mock fail', () => {
  it.each(hostile.map((h) => [label(h.op.operationId, h.scenario), h] as const))('%s', async (title, { request, status }) => {
    const response = await send(request);
    expect(response.status, `${title}: ${response.text.slice(0, 300)}`).toBe(status);
  });

  // The generator ignores `if`/`then`/`not` (the name check's "no reason when available"):
  // bare Prism then fails its own response validation with a 500 about half the time.
  it.each(operations.map((op) => [label(op.operationId, 'Prefer: dynamic=true, 25 times'), op] as const))('%s', async (title, op) => {
    const problems: string[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await send(withHeaders(validRequest(op), { prefer: 'dynamic=true' }));
      if (response.status >= 300) problems.push(`status ${response.status}: ${response.text.slice(0, 200)}`);
      problems.push(...violationsOf(op, response.status, response.headers['content-type'], response.json));
    }
    expect(problems, title).toEqual([]);
  });

  it(`${label(role.operationId, 'Prefer: code=500')}: a 5xx when asked for, from the default response`, async () => {
    const response = await send(withHeaders(validRequest(role), { prefer: 'code=500' }));
    expect(response.status).toBe(500);
    expect(violationsOf(role, response.status, response.headers['content-type'], response.json)).toEqual([]);
  });

  it(`${label(name.operationId, 'Prefer: code=503')}: no 5xx the document does not declare`, async () => {
    const response = await send(withHeaders(validRequest(name), { prefer: 'code=503' }));
    expect(response.status, response.text).toBe(404);
  });
});
