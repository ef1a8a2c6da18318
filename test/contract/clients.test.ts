// The typed clients (src/) against the mock: every named example of every operation,
// asked for with `Prefer`, each answer checked against the bundled document (status,
// content type, body schema) and compared with the example. Same table as
// examples.test.ts, but the requests are built by the clients: api-version, the scope's
// slashes, OData keys, the /api/v2.0 and /api/v1.0 prefixes, the token.
import { describe, expect, it } from 'vitest';
import {
  createBusinessCentralClient,
  createResourceManagerClient,
  type CheckNameAvailabilityRequest,
  type ShipmentMethodCreate,
  type VendorUpdate,
} from '../../src/index.js';
import { exampleScenarios, label, mockUrl, nameOf, operation, pathParams, requestExamples, TOKEN, violationsOf, type Operation, type OperationId } from './support.js';

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

/** One typed call per operation; `prefer` selects the answer, `scenario` the request body. */
const call: Record<OperationId, (op: Operation, prefer: string, scenario: string) => Promise<{ ok: boolean; response: Response; data?: unknown; error?: unknown }>> = {
  RoleEligibilityScheduleRequests_Get: (op, prefer) => {
    const p = path(op);
    return arm(op).GET('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}', {
      params: { path: { scope: p.scope!, roleEligibilityScheduleRequestName: p.roleEligibilityScheduleRequestName! } },
      headers: { Prefer: prefer },
    });
  },
  Servers_CheckNameAvailability: (op, prefer, scenario) =>
    arm(op).POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
      params: { path: { subscriptionId: path(op).subscriptionId! } },
      body: bodyFor<CheckNameAvailabilityRequest>(op, scenario),
      headers: { Prefer: prefer },
    }),
  Location_ListCachedImages: (op, prefer) => {
    const p = path(op);
    return arm(op).GET('/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages', {
      params: { path: { subscriptionId: p.subscriptionId!, location: p.location! } },
      headers: { Prefer: prefer },
    });
  },
  updateVendor: (op, prefer, scenario) => {
    const p = path(op);
    return bc(op).PATCH('/companies({company_id})/vendors({vendor_id})', {
      params: { path: { company_id: p.company_id!, vendor_id: p.vendor_id! }, header: { 'If-Match': 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="' } },
      body: bodyFor<VendorUpdate>(op, scenario),
      headers: { Prefer: prefer },
    });
  },
  createShipmentMethod: (op, prefer, scenario) =>
    bc(op).POST('/companies({company_id})/shipmentMethods', {
      params: { path: { company_id: path(op).company_id! } },
      body: bodyFor<ShipmentMethodCreate>(op, scenario),
      headers: { Prefer: prefer },
    }),
};

describe('typed clients against the mock', () => {
  it.each(exampleScenarios().map((s) => [label(nameOf(s.op), s.scenario), s] as const))('%s', async (name, s) => {
    const result = await call[s.operationId](s.op, s.prefer, s.scenario);
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
    const result = await call.RoleEligibilityScheduleRequests_Get(operation('RoleEligibilityScheduleRequests_Get'), 'code=404', '');
    expect(result.ok).toBe(false);
    expect(result.response.status).toBe(404);
    expect(violationsOf(operation('RoleEligibilityScheduleRequests_Get'), 404, result.response.headers.get('content-type'), result.error)).toEqual([]);
  });
});
