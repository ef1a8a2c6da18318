// The clients' call signatures: what the compiler accepts and refuses. Each expected
// error is marked on the one line the compiler reports, so a change that makes that
// line compile (a lost check) fails this file.
import { describe, expectTypeOf, it } from 'vitest';
import {
  businesscentralApi,
  createBusinessCentralClient,
  createBusinessCentralClientOf,
  createResourceManagerClient,
  createResourceManagerClientOf,
  sqlApi,
  type BusinessCentralError,
  type CachedImages,
  type CachedImagesListResult,
  type CheckNameAvailabilityResponse,
  type CloudError,
  type ErrorResponse,
  type RoleEligibilityScheduleRequest,
  type CheckNameAvailabilityRequest,
  type ShipmentMethod,
  type ShipmentMethodCreate,
  type Vendor,
  type VendorUpdate,
} from '../../src/index.js';
import type { Readable } from '../../generated/types/businesscentral-v2.0.js';
import type { Defaults } from '../../generated/versions.js';

const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't' });
const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', getToken: async () => 't' });

const ROLE = '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}';
const CHECK = '/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability';
const IMAGES = '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages';
const VENDOR = '/companies({company_id})/vendors({vendor_id})';
const SHIPMENTS = '/companies({company_id})/shipmentMethods';
const scope = 'providers/Provider.Subscription/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const name = '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f';
/** The version an unpinned client sends (2020-10-01 while authorization has one version). */
declare const roleDefault: Defaults['resource-manager']['authorization'];

describe('resource-management client', () => {
  it('takes the spec path templates, with api-version optional or overridden', () => {
    arm.GET(ROLE, { params: { path: { scope, roleEligibilityScheduleRequestName: name } } });
    arm.GET(ROLE, { params: { path: { scope, roleEligibilityScheduleRequestName: name }, query: { 'api-version': roleDefault } } });
    arm.GET(IMAGES, { params: { path: { subscriptionId: 's', location: 'westeurope' } } });
    arm.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
  });

  it('refuses a missing path parameter', () => {
    arm.GET(ROLE, {
      // @ts-expect-error roleEligibilityScheduleRequestName is missing
      params: { path: { scope } },
    });
  });

  it('refuses a path that is not in the documents, or a method the path does not have', () => {
    // @ts-expect-error not a path of the resource-management documents
    arm.GET('/subscriptions/{subscriptionId}/not-a-documented-path', {});
    // @ts-expect-error the check is a POST
    arm.GET(CHECK, { params: { path: { subscriptionId: 's' } } });
  });

  it('refuses a wrong enum literal in the check-name body', () => {
    arm.POST(CHECK, {
      params: { path: { subscriptionId: 's' } },
      // @ts-expect-error only Provider.Sql/servers is a check-name type
      body: { name: 'x', type: 'Provider.Sql/databases' },
    });
  });

  it('narrows data and error by ok, typed per operation', async () => {
    const role = await arm.GET(ROLE, { params: { path: { scope, roleEligibilityScheduleRequestName: name } } });
    if (role.ok) {
      expectTypeOf(role.data).toEqualTypeOf<RoleEligibilityScheduleRequest>();
      expectTypeOf(role.error).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(role.error).toEqualTypeOf<CloudError>();
      expectTypeOf(role.data).toEqualTypeOf<undefined>();
    }
    expectTypeOf(role.response).toEqualTypeOf<Response>();

    const { ok, data, error } = await arm.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    if (ok) expectTypeOf(data).toEqualTypeOf<CheckNameAvailabilityResponse>();
    else {
      // ErrorResponse is recursive (details: ErrorDetail[]), too deep for toEqualTypeOf.
      expectTypeOf(error).toExtend<ErrorResponse>();
      expectTypeOf<ErrorResponse>().toExtend<typeof error>();
      expectTypeOf(error.error?.code).toEqualTypeOf<string | undefined>();
      expectTypeOf(data).toEqualTypeOf<undefined>();
    }
  });

  it('pages cached images through async iterators', () => {
    expectTypeOf(arm.listCachedImagePages({ subscriptionId: 's', location: 'l' })).toEqualTypeOf<AsyncGenerator<CachedImagesListResult, void, undefined>>();
    expectTypeOf(arm.listCachedImages({ subscriptionId: 's', location: 'l' })).toEqualTypeOf<AsyncGenerator<CachedImages, void, undefined>>();
    // @ts-expect-error location is required
    arm.listCachedImages({ subscriptionId: 's' });
  });

  it('offers listAll/listPages on nextLink-paged lists only, typed by the list', () => {
    expectTypeOf(arm.listAll(IMAGES, { params: { path: { subscriptionId: 's', location: 'l' } } })).toEqualTypeOf<
      AsyncGenerator<CachedImages, void, undefined>
    >();
    expectTypeOf(arm.listPages(IMAGES, { params: { path: { subscriptionId: 's', location: 'l' } } })).toEqualTypeOf<
      AsyncGenerator<CachedImagesListResult, void, undefined>
    >();
    // @ts-expect-error the name check is not a list
    arm.listAll(CHECK, { params: { path: { subscriptionId: 's' } } });
    // @ts-expect-error location is required
    arm.listAll(IMAGES, { params: { path: { subscriptionId: 's' } } });
  });
});

describe('business-data client', () => {
  const path = { company_id: 'c', vendor_id: name };

  it('takes the paths without their version prefix', () => {
    bc.PATCH(VENDOR, { params: { path, header: { 'If-Match': 'W/"1"' } }, body: { displayName: 'A' } });
    bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X', displayName: 'Express' } });
  });

  it('refuses a vendor update without If-Match', () => {
    bc.PATCH(VENDOR, {
      // @ts-expect-error header.If-Match is required
      params: { path },
      body: { displayName: 'A' },
    });
  });

  it('refuses read-only fields in request bodies', () => {
    bc.PATCH(VENDOR, {
      params: { path, header: { 'If-Match': 'W/"1"' } },
      // @ts-expect-error id is read-only
      body: { id: name, displayName: 'A' },
    });
    bc.POST(SHIPMENTS, {
      params: { path: { company_id: 'c' } },
      // @ts-expect-error lastModifiedDateTime is read-only
      body: { code: 'X', lastModifiedDateTime: '2026-01-01T00:00:00Z' },
    });
    // @ts-expect-error id is read-only in the helper too
    bc.updateVendor({ companyId: 'c', vendorId: name, eTag: 'W/"1"', vendor: { id: name } });
  });

  it('narrows data by ok and keeps read-only fields in answers', async () => {
    const created = await bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X' } });
    if (created.ok) {
      expectTypeOf(created.data).toEqualTypeOf<Readable<ShipmentMethod>>();
      expectTypeOf(created.data.id).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(created.error).toEqualTypeOf<BusinessCentralError>();
    }
    const updated = await bc.updateVendor({ companyId: 'c', vendorId: name, eTag: 'W/"1"', vendor: { displayName: 'A' } });
    if (updated.ok) expectTypeOf(updated.data).toEqualTypeOf<Readable<Vendor>>();
  });

  it('requires the eTag in the helper', () => {
    // @ts-expect-error eTag is required
    bc.updateVendor({ companyId: 'c', vendorId: name, vendor: { displayName: 'A' } });
  });

  it('offers patchWithETag on PATCHes that require If-Match only, typed by their body', () => {
    bc.patchWithETag(VENDOR, { params: { path }, eTag: 'W/"1"', body: { displayName: 'A' } });
    // @ts-expect-error id is read-only
    bc.patchWithETag(VENDOR, { params: { path }, eTag: 'W/"1"', body: { id: name } });
    // @ts-expect-error the eTag is required
    bc.patchWithETag(VENDOR, { params: { path }, body: { displayName: 'A' } });
    // @ts-expect-error shipment methods have no PATCH with If-Match
    bc.patchWithETag(SHIPMENTS, { params: { path: { company_id: 'c' } }, eTag: 'W/"1"', body: {} });
  });
});

describe('options', () => {
  it('requires baseUrl', () => {
    // @ts-expect-error baseUrl is required
    createResourceManagerClient({ token: 't' });
  });
});

describe('apiVersions', () => {
  it('takes only versions the workspace holds, for APIs it holds', () => {
    createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', apiVersions: { sql: '2025-01-01' } });
    createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', apiVersions: { businesscentral: 'v1.0' } });
    // @ts-expect-error vendors is an entity of the business-data API, not an API of its own
    createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't', apiVersions: { vendors: 'v2.0' } });
    // @ts-expect-error 1999-01-01 is shaped like a version but no document of sql has it
    createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', apiVersions: { sql: '1999-01-01' } });
    // @ts-expect-error vendors is a business-data API, not a resource-management one
    createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', apiVersions: { businesscentral: 'v2.0' } });
  });

  it('types the per-call api-version as the one version the client sends', () => {
    const pinned = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', apiVersions: { sql: '2025-01-01' } });
    pinned.POST(CHECK, {
      params: { path: { subscriptionId: 's' }, query: { 'api-version': '2025-01-01' } },
      body: { name: 'x', type: 'Provider.Sql/servers' },
    });
    pinned.POST(CHECK, {
      // @ts-expect-error another api-version than the pinned one
      params: { path: { subscriptionId: 's' }, query: { 'api-version': '2024-01-01' } },
      body: { name: 'x', type: 'Provider.Sql/servers' },
    });
  });
});

describe('a client of named APIs', () => {
  it('is typed by the paths of the APIs named alone, and takes pins of those APIs only', async () => {
    const sqlOnly = createResourceManagerClientOf([sqlApi], { baseUrl: 'https://m.example', token: 't', apiVersions: { sql: '2025-01-01' } });
    const checked = await sqlOnly.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: { name: 'x', type: 'Provider.Sql/servers' } });
    if (checked.ok) expectTypeOf(checked.data).toEqualTypeOf<CheckNameAvailabilityResponse>();
    // @ts-expect-error containerinstance is not named: its paths are not this client's
    sqlOnly.GET(IMAGES, { params: { path: { subscriptionId: 's', location: 'westeurope' } } });
    // @ts-expect-error containerinstance is not named: no pin of it
    createResourceManagerClientOf([sqlApi], { baseUrl: 'https://m.example', token: 't', apiVersions: { containerinstance: '2025-09-01' } });
    // @ts-expect-error a business-data API is not a resource-management one
    createResourceManagerClientOf([businesscentralApi], { baseUrl: 'https://m.example', token: 't' });
    const vendors = createBusinessCentralClientOf([businesscentralApi], { baseUrl: 'https://b.example', token: 't' });
    vendors.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X', displayName: 'Express' } });
  });
});

describe('plain model types', () => {
  it('take a result as is, and fixtures are written in them', async () => {
    const updated = await bc.updateVendor({ companyId: 'c', vendorId: name, eTag: 'W/"1"', vendor: { displayName: 'A' } });
    if (updated.ok) {
      const v: Vendor = updated.data;
      expectTypeOf(v.id).toEqualTypeOf<string | undefined>();
    }
    const fixture: Vendor = { id: name, number: 'V1', displayName: 'A', lastModifiedDateTime: '2026-01-01T00:00:00Z' };
    const created = await bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: { code: 'X' } });
    if (created.ok) {
      const s: ShipmentMethod = created.data;
      expectTypeOf(s.code).toEqualTypeOf<string | undefined>();
    }
    const images = await arm.GET(IMAGES, { params: { path: { subscriptionId: 's', location: 'l' } } });
    if (images.ok) {
      const page: CachedImagesListResult = images.data;
      const first: CachedImages | undefined = page.value?.[0];
      void first;
    }
    void fixture;
  });

  it('name the request bodies, read-only fields left out', () => {
    const change: VendorUpdate = { displayName: 'B' };
    bc.updateVendor({ companyId: 'c', vendorId: name, eTag: 'W/"1"', vendor: change });
    bc.PATCH(VENDOR, { params: { path: { company_id: 'c', vendor_id: name }, header: { 'If-Match': 'W/"1"' } }, body: change });
    const create: ShipmentMethodCreate = { code: 'EXW', displayName: 'Ex Warehouse' };
    bc.POST(SHIPMENTS, { params: { path: { company_id: 'c' } }, body: create });
    const check: CheckNameAvailabilityRequest = { name: 'x', type: 'Provider.Sql/servers' };
    arm.POST(CHECK, { params: { path: { subscriptionId: 's' } }, body: check });
    // @ts-expect-error id is read-only, so not part of an update body
    const withId: VendorUpdate = { id: name };
    // @ts-expect-error lastModifiedDateTime is read-only
    const stamped: ShipmentMethodCreate = { code: 'X', lastModifiedDateTime: '2026-01-01T00:00:00Z' };
    void withId;
    void stamped;
  });

  it('carry no $Read/$Write markers', () => {
    expectTypeOf<Vendor['id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ShipmentMethod['lastModifiedDateTime']>().toEqualTypeOf<string | undefined>();
  });
});
