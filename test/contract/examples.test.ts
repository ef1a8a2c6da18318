// Every named example of every operation, asked for by name over raw HTTP (the wire form
// real clients use) and checked against the bundled document: status, content type, body
// schema, and the example itself. The typed clients drive the same table in clients.test.ts.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { exampleScenarios, hasNamedExample, label, nameOf, send, validRequest, violationsOf } from './support.js';

const scenarios = exampleScenarios();

describe('named examples over HTTP', () => {
  // In a parameter, its request body or a response (a DELETE's 204 has no body to show).
  // Lint requires it first, with file and line (house-operation-named-example, docs/lint.md).
  it('every operation has at least one named example', () => {
    expect(operations.filter((op) => !hasNamedExample(op)).map(nameOf), 'operations without a named example').toEqual([]);
  });

  // Each scenario is sent to its own version (the api-version or prefix of its document).
  it.each(scenarios.map((s) => [label(nameOf(s.op), s.scenario), s] as const))('%s', async (_, s) => {
    const op = s.op;
    const request = validRequest(op, s.scenario);
    const response = await send({ ...request, headers: { ...request.headers, prefer: s.prefer } });
    const violations = [
      ...(response.status === s.status ? [] : [`status ${response.status}, expected ${s.status} (${response.text.slice(0, 200)})`]),
      ...violationsOf(op, response.status, response.headers['content-type'], response.json),
    ];
    expect(violations, `${label(nameOf(s.op), s.scenario)} (Prefer: ${s.prefer})`).toEqual([]);
    expect(response.json, `${label(nameOf(s.op), s.scenario)}: the body is the named example`).toEqual(s.value);
  });
});
