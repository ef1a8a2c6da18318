// The typed clients (src/) against the mock: every named example of every operation,
// asked for with `Prefer`, each answer checked against the bundled document (status,
// content type, body schema) and compared with the example. Same table as
// examples.test.ts, but the requests are built by the clients (their path methods, called
// the same way for every operation; their types are checked in test/types/): api-version, the scope's
// slashes, OData keys, the /api/v2.0 and /api/v1.0 prefixes, the token.
import { describe, expect, it } from 'vitest';
import { createBusinessCentralClient, createResourceManagerClient } from '../../src/index.js';
import { exampleScenarios, label, mockUrl, nameOf, operation, pathParams, requestExamples, specOf, TOKEN, violationsOf, type Operation } from './support.js';

/** A client pinned to the version of `op`, so that each scenario reaches its own document. */
const options = (op: Operation) => ({
  baseUrl: mockUrl(),
  token: TOKEN.replace(/^Bearer /, ''),
  retry: false as const,
  apiVersions: { [op.apiName]: op.version } as {},
});
const arm = (op: Operation) => createResourceManagerClient(options(op));
const bc = (op: Operation) => createBusinessCentralClient(options(op));

const path = (op: Operation) => pathParams(op) as Record<string, string>;
const bodyFor = <T>(op: Operation, scenario: string): T => {
  const bodies = requestExamples(op);
  return (bodies[scenario] ?? Object.values(bodies)[0]) as T;
};

type Answer = { ok: boolean; response: Response; data?: unknown; error?: unknown };
type PathMethod = (path: string, init: object) => Promise<Answer>;

/** A value for a required header or query parameter, from the document (If-Match: a tag). */
const exampleOf = (op: Operation, param: any): unknown => {
  if (param.in === 'header' && String(param.name).toLowerCase() === 'if-match') return 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="';
  const value = param.example ?? Object.values<any>(param.examples ?? {})[0]?.value ?? param.schema?.example ?? param.schema?.enum?.[0];
  if (value === undefined) throw new Error(`${op.operationId}: required ${param.in} parameter ${param.name} has no example to send`);
  return value;
};

/**
 * Any operation through the client's path method for its method (GET, POST, PATCH …),
 * with its path parameters, its required headers and query parameters (the client fills
 * in api-version), the scenario's request body; `prefer` selects the answer. Nothing here
 * names an operation: a new one in the documents is called the same way.
 */
const call = (op: Operation, prefer: string, scenario: string): Promise<Answer> => {
  const client = (op.family === 'resource-manager' ? arm(op) : bc(op)) as unknown as Record<string, PathMethod>;
  const required = specOf(op).params.filter((p) => p.required && (p.in === 'header' || p.in === 'query') && p.name !== 'api-version');
  const group = (where: string) => Object.fromEntries(required.filter((p) => p.in === where).map((p) => [p.name, exampleOf(op, p)]));
  const body = bodyFor<unknown>(op, scenario);
  return client[op.method]!(op.path, {
    params: { path: path(op), header: group('header'), query: group('query') },
    ...(body === undefined ? {} : { body }),
    headers: { Prefer: prefer },
  });
};

describe('typed clients against the mock', () => {
  it.each(exampleScenarios().map((s) => [label(nameOf(s.op), s.scenario), s] as const))('%s', async (name, s) => {
    const result = await call(s.op, s.prefer, s.scenario);
    const body = result.ok ? result.data : result.error;
    const violations = [
      ...(result.response.status === s.status ? [] : [`status ${result.response.status}, expected ${s.status}`]),
      ...(result.ok === s.status < 300 ? [] : [`ok is ${result.ok} for status ${result.response.status}`]),
      ...violationsOf(s.op, result.response.status, result.response.headers.get('content-type'), body),
    ];
    expect(violations, `${name} (Prefer: ${s.prefer})`).toEqual([]);
    expect(body, `${name}: the body is the named example`).toEqual(s.value);
  });

  it(`${label('Location_ListCachedImages', 'listCachedImages')}: pages through the mock`, async () => {
    const images = operation('Location_ListCachedImages');
    const p = path(images);
    const listed = [];
    for await (const image of arm(images).listCachedImages({ subscriptionId: p.subscriptionId!, location: p.location! })) listed.push(image);
    expect(listed.length).toBeGreaterThan(0);
  });

  it(`${label('RoleEligibilityScheduleRequests_Get', 'Prefer: code=404')}: an error status comes back as ok: false with a CloudError`, async () => {
    const result = await call(operation('RoleEligibilityScheduleRequests_Get'), 'code=404', '');
    expect(result.ok).toBe(false);
    expect(result.response.status).toBe(404);
    expect(violationsOf(operation('RoleEligibilityScheduleRequests_Get'), 404, result.response.headers.get('content-type'), result.error)).toEqual([]);
  });
});
