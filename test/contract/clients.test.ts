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
  type ShipmentMethod,
  type VendorUpdate,
} from '../../src/index.js';
import type { Writable } from '../../generated/types/shipmentmethods-v1.0.js';
import { exampleScenarios, label, mockUrl, operation, pathParams, requestExamples, TOKEN, violationsOf, type OperationId } from './support.js';

const options = () => ({ baseUrl: mockUrl(), token: TOKEN.replace(/^Bearer /, ''), retry: false as const });
const arm = () => createResourceManagerClient(options());
const bc = () => createBusinessCentralClient(options());

const path = (id: OperationId) => pathParams(operation(id)) as Record<string, string>;
const bodyFor = <T>(id: OperationId, scenario: string): T => {
  const bodies = requestExamples(operation(id));
  return (bodies[scenario] ?? Object.values(bodies)[0]) as T;
};

/** One typed call per operation; `prefer` selects the answer, `scenario` the request body. */
const call: Record<OperationId, (prefer: string, scenario: string) => Promise<{ ok: boolean; response: Response; data?: unknown; error?: unknown }>> = {
  RoleEligibilityScheduleRequests_Get: (prefer) => {
    const p = path('RoleEligibilityScheduleRequests_Get');
    return arm().GET('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}', {
      params: { path: { scope: p.scope!, roleEligibilityScheduleRequestName: p.roleEligibilityScheduleRequestName! } },
      headers: { Prefer: prefer },
    });
  },
  Servers_CheckNameAvailability: (prefer, scenario) =>
    arm().POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
      params: { path: { subscriptionId: path('Servers_CheckNameAvailability').subscriptionId! } },
      body: bodyFor<CheckNameAvailabilityRequest>('Servers_CheckNameAvailability', scenario),
      headers: { Prefer: prefer },
    }),
  Location_ListCachedImages: (prefer) => {
    const p = path('Location_ListCachedImages');
    return arm().GET('/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages', {
      params: { path: { subscriptionId: p.subscriptionId!, location: p.location! } },
      headers: { Prefer: prefer },
    });
  },
  updateVendor: (prefer, scenario) => {
    const p = path('updateVendor');
    return bc().PATCH('/companies({company_id})/vendors({vendor_id})', {
      params: { path: { company_id: p.company_id!, vendor_id: p.vendor_id! }, header: { 'If-Match': 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="' } },
      body: bodyFor<VendorUpdate>('updateVendor', scenario),
      headers: { Prefer: prefer },
    });
  },
  createShipmentMethod: (prefer, scenario) =>
    bc().POST('/companies({company_id})/shipmentMethods', {
      params: { path: { company_id: path('createShipmentMethod').company_id! } },
      body: bodyFor<Writable<ShipmentMethod>>('createShipmentMethod', scenario),
      headers: { Prefer: prefer },
    }),
};

describe('typed clients against the mock', () => {
  it.each(exampleScenarios().map((s) => [label(s.operationId, s.scenario), s] as const))('%s', async (name, s) => {
    const result = await call[s.operationId](s.prefer, s.scenario);
    const body = result.ok ? result.data : result.error;
    const violations = [
      ...(result.response.status === s.status ? [] : [`status ${result.response.status}, expected ${s.status}`]),
      ...(result.ok === s.status < 300 ? [] : [`ok is ${result.ok} for status ${result.response.status}`]),
      ...violationsOf(operation(s.operationId), result.response.status, result.response.headers.get('content-type'), body),
    ];
    expect(violations, `${name} (Prefer: ${s.prefer})`).toEqual([]);
    expect(body, `${name}: the body is the named example`).toEqual(s.value);
  });

  it(`${label('Location_ListCachedImages', 'listCachedImages')}: pages through the mock`, async () => {
    const p = path('Location_ListCachedImages');
    const images = [];
    for await (const image of arm().listCachedImages({ subscriptionId: p.subscriptionId!, location: p.location! })) images.push(image);
    expect(images.length).toBeGreaterThan(0);
  });

  it(`${label('RoleEligibilityScheduleRequests_Get', 'Prefer: code=404')}: an error status comes back as ok: false with a CloudError`, async () => {
    const result = await call.RoleEligibilityScheduleRequests_Get('code=404', '');
    expect(result.ok).toBe(false);
    expect(result.response.status).toBe(404);
    expect(violationsOf(operation('RoleEligibilityScheduleRequests_Get'), 404, result.response.headers.get('content-type'), result.error)).toEqual([]);
  });
});
