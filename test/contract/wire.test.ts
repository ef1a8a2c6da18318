// The forms in which real clients put values on the wire, and that Prism's router alone
// does not serve: an unencoded multi-segment scope (the official SDKs), the same scope
// encoded, with a leading slash, OData keys with literal or encoded parentheses.
// Each must reach the operation and still be validated.
import { describe, expect, it } from 'vitest';
import { COMPANY, label, operation, send, validRequest, violationsOf, type RawRequest } from './support.js';

const role = operation('RoleEligibilityScheduleRequests_Get');
const vendor = operation('updateVendor');
const ship = operation('createShipmentMethod');
const SCOPE = 'providers/Provider.Subscription/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const TAIL = '/providers/Provider.Authorization/roleEligibilityScheduleRequests/64caffb6-55c0-4deb-a585-68e948ea1ad6?api-version=2020-10-01';
const VENDOR_ID = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';

const at = (request: RawRequest, path: string): RawRequest => ({ ...request, path });

const forms = [
  { op: role, scenario: 'scope unencoded (as the SDKs send it)', request: at(validRequest(role), `/${SCOPE}${TAIL}`), status: 200 },
  { op: role, scenario: 'scope %2F-encoded', request: at(validRequest(role), `/${SCOPE.replaceAll('/', '%2F')}${TAIL}`), status: 200 },
  {
    op: role,
    scenario: 'scope with its own leading slash (//subscriptions/...)',
    request: at(validRequest(role), `//subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11${TAIL}`),
    status: 200,
  },
  {
    op: role,
    scenario: 'scope of a resource group, segments percent-encoded',
    request: at(validRequest(role), `/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/resourceGroups/my%20rg${TAIL}`),
    status: 200,
  },
  {
    op: role,
    scenario: 'scope that itself contains /providers/',
    request: at(validRequest(role), `/subscriptions/x/providers/Provider.Sql/servers/s1${TAIL}`),
    status: 200,
  },
  {
    op: role,
    scenario: 'unencoded scope, name not a UUID: still validated',
    request: at(validRequest(role), `/${SCOPE}${TAIL.replace('64caffb6-55c0-4deb-a585-68e948ea1ad6', 'nope')}`),
    status: 400,
  },
  { op: role, scenario: 'scope that is no ARM scope (foo/bar): refused', request: at(validRequest(role), `/foo/bar${TAIL}`), status: 400 },
  {
    op: role,
    scenario: 'scope of a subscription without its id: refused',
    request: at(validRequest(role), `/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/resourceGroups${TAIL}`),
    status: 400,
  },
  {
    op: vendor,
    scenario: 'OData keys, literal parentheses',
    request: at(validRequest(vendor), `/api/v2.0/companies(${COMPANY})/vendors(${VENDOR_ID})`),
    status: 200,
  },
  {
    op: vendor,
    scenario: 'OData keys, encoded parentheses',
    request: at(validRequest(vendor), `/api/v2.0/companies%28${COMPANY}%29/vendors%28${VENDOR_ID}%29`),
    status: 200,
  },
  {
    op: vendor,
    scenario: 'company key with an encoded parenthesis inside',
    request: at(validRequest(vendor), `/api/v2.0/companies(CRONUS%20%28US%29)/vendors(${VENDOR_ID})`),
    status: 200,
  },
  {
    op: vendor,
    scenario: 'OData keys, vendor key not a GUID: still validated',
    request: at(validRequest(vendor), `/api/v2.0/companies(${COMPANY})/vendors(V10000)`),
    status: 400,
  },
  { op: ship, scenario: 'OData company key, v1.0 prefix', request: at(validRequest(ship), `/api/v1.0/companies(${COMPANY})/shipmentMethods`), status: 201 },
];

describe('wire forms of real clients', () => {
  it.each(forms.map((f) => [label(f.op.operationId, f.scenario), f] as const))('%s', async (name, { op, request, status }) => {
    const response = await send(request);
    const violations = [
      ...(response.status === status ? [] : [`status ${response.status}, expected ${status}: ${response.violations || response.text.slice(0, 200)}`]),
      ...(status < 300 ? violationsOf(op, response.status, response.headers['content-type'], response.json) : []),
    ];
    expect(violations, name).toEqual([]);
  });
});

describe('a scope that is no ARM scope', () => {
  // The source's GET is answered by its examples (it has no lifecycle of its own), and a
  // `{scope}` parameter takes any segments: the scope is still checked, before anything
  // else answers, as ARM's front door checks it.
  it('is refused with a CloudError that names it, coded MissingSubscription, at target scope', async () => {
    const response = await send(at(validRequest(role), `/foo/bar${TAIL}`));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'MissingSubscription', target: 'scope' } });
    expect((response.json as { error: { message: string } }).error.message).toContain("The scope '/foo/bar' is not an ARM scope");
  });
});
