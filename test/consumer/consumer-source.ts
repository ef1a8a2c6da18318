// The program a consumer project writes, compiled by that project's own tsc under each
// resolution and run against the mock. It is kept as text (not a .ts file of this
// workspace) because it imports the package by name, which only the consumer project
// can resolve. Strict on purpose: it names the plain model types, writes a fixture in
// them, assigns results to them, and narrows errors with isClientError.
export const CONSUMER_SOURCE = `
import {
  authorizationApi,
  createBusinessCentralClient,
  createResourceManagerClient,
  createResourceManagerClientOf,
  isClientError,
  type ClientOptions,
  type RoleEligibilityScheduleRequest,
  type ShipmentMethod,
  type ShipmentMethodCreate,
  type Vendor,
  type VendorUpdate,
} from 'provider-api-clients';
import { createNodeHttpFetch } from 'provider-api-clients/node-http';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: main <mock url>');
const options: ClientOptions = { baseUrl, token: 'consumer-token', retry: false };

// A fixture in the plain model type, read-only fields included.
const fixture: Vendor = { id: '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f', number: 'V0001', displayName: 'Fixture', lastModifiedDateTime: '2026-01-01T00:00:00Z' };
const change: VendorUpdate = { displayName: fixture.displayName ?? 'x' };

async function main(): Promise<void> {
  const bc = createBusinessCentralClient(options);
  const body: ShipmentMethodCreate = { code: 'EXW', displayName: 'Ex Warehouse' };
  const created = await bc.POST('/companies({company_id})/shipmentMethods', {
    params: { path: { company_id: '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f' } },
    body,
  });
  if (!created.ok) throw new Error('createShipmentMethod answered ' + created.response.status);
  const method: ShipmentMethod = created.data;

  const fetch = createNodeHttpFetch();
  const arm = createResourceManagerClient({ ...options, fetch });
  // A client of the one API it calls: a bundler ships no other API's manifest entry.
  const roles = createResourceManagerClientOf([authorizationApi], { ...options, fetch });
  const role = await roles.GET('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}', {
    params: { path: { scope: 'providers/Provider.Subscription/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11', roleEligibilityScheduleRequestName: '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f' } },
  });
  const request: RoleEligibilityScheduleRequest | undefined = role.ok ? role.data : undefined;

  // A refused argument: a ClientError, nothing sent.
  const refused = await arm
    .GET('/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages', {
      params: { path: { subscriptionId: 's', location: '..' } },
    })
    .then(() => undefined, (error: unknown) => error);
  fetch.destroy();
  const code = isClientError(refused) ? refused.code : 'not a ClientError';

  console.log(JSON.stringify({
    created: created.response.status,
    methodCode: typeof method.code,
    role: role.response.status,
    roleHasId: typeof request?.id === 'string',
    refused: code,
    change: change.displayName,
  }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/**
 * A strict Node service's module (checked without the DOM library): both clients, the
 * node-http transport entry, a credential object, and the error guard.
 */
export const NODE_SERVICE_SOURCE = `
import { createBusinessCentralClient, createResourceManagerClient, isClientError } from 'provider-api-clients';
import { createNodeHttpFetch } from 'provider-api-clients/node-http';
const arm = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', fetch: createNodeHttpFetch() });
const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', credential: { getToken: async () => ({ token: 't', expiresOnTimestamp: 0 }) }, scopes: ['s'] });
export async function call(): Promise<unknown> {
  const r = await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
  if (r.ok) return r.data.available;
  try { return await bc.updateVendor({ companyId: 'c', vendorId: 'v', eTag: 'W/"1"', vendor: {} }); } catch (e) { return isClientError(e) ? e.code : e; }
}
`;
