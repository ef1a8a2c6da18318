// Every named example of every operation, asked for by name over raw HTTP (the wire form
// real clients use) and checked against the bundled document: status, content type, body
// schema, and the example itself. The typed clients drive the same table in clients.test.ts.
import { describe, expect, it } from 'vitest';
import { exampleScenarios, label, operation, send, validRequest, violationsOf } from './support.js';

const scenarios = exampleScenarios();

describe('named examples over HTTP', () => {
  it('every operation has at least one named example', () => {
    const covered = new Set(scenarios.map((s) => s.operationId));
    expect([...covered].sort(), 'operations without a named example').toHaveLength(5);
  });

  it.each(scenarios.map((s) => [label(s.operationId, s.scenario), s] as const))('%s', async (_, s) => {
    const op = operation(s.operationId);
    const request = validRequest(op, s.scenario);
    const response = await send({ ...request, headers: { ...request.headers, prefer: s.prefer } });
    const violations = [
      ...(response.status === s.status ? [] : [`status ${response.status}, expected ${s.status} (${response.text.slice(0, 200)})`]),
      ...violationsOf(op, response.status, response.headers['content-type'], response.json),
    ];
    expect(violations, `${label(s.operationId, s.scenario)} (Prefer: ${s.prefer})`).toEqual([]);
    expect(response.json, `${label(s.operationId, s.scenario)}: the body is the named example`).toEqual(s.value);
  });
});
