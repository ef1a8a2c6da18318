// Pins the generated types to the source document: if a spec change alters one of these
// facts, this file stops compiling.
import { describe, expectTypeOf, it } from 'vitest';
import type { components as Auth, operations as AuthOps } from '../../generated/types/authorization-2020-10-01.js';
import type { components as Sql, operations as SqlOps } from '../../generated/types/sql-2025-01-01.js';
import type { components as Aci } from '../../generated/types/containerinstance-2025-09-01.js';
import type { components as Vendors, operations as VendorOps, $Read } from '../../generated/types/businesscentral-v2.0.js';
import type { components as Shipments } from '../../generated/types/businesscentral-v1.0.js';

type Status = Auth['schemas']['Status'];

describe('role eligibility schedule request', () => {
  it('has the 22 status literals', () => {
    expectTypeOf<Status>().toEqualTypeOf<
      | 'Accepted'
      | 'PendingEvaluation'
      | 'Granted'
      | 'Denied'
      | 'PendingProvisioning'
      | 'Provisioned'
      | 'PendingRevocation'
      | 'Revoked'
      | 'Canceled'
      | 'Failed'
      | 'PendingApprovalProvisioning'
      | 'PendingApproval'
      | 'FailedAsResourceIsLocked'
      | 'PendingAdminDecision'
      | 'AdminApproved'
      | 'AdminDenied'
      | 'TimedOut'
      | 'ProvisioningStarted'
      | 'Invalid'
      | 'PendingScheduleCreation'
      | 'ScheduleCreated'
      | 'PendingExternalProvisioning'
    >();
  });

  it('lets the nullable fields be null', () => {
    type Props = Auth['schemas']['RoleEligibilityScheduleRequestProperties'];
    expectTypeOf<Props['approvalId']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Props['justification']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Props['targetRoleEligibilityScheduleId']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Auth['schemas']['Expiration']['endDateTime']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Auth['schemas']['TicketInfo']['ticketSystem']>().toEqualTypeOf<string | null | undefined>();
  });

  it('requires scope, name and api-version', () => {
    type Params = AuthOps['RoleEligibilityScheduleRequests_Get']['parameters'];
    expectTypeOf<Params['path']>().toEqualTypeOf<{ scope: string; roleEligibilityScheduleRequestName: string }>();
    // The document of one api-version accepts exactly that value.
    expectTypeOf<Params['query']>().toEqualTypeOf<{ 'api-version': '2020-10-01' }>();
  });
});

describe('server name check', () => {
  type Response = Sql['schemas']['CheckNameAvailabilityResponse'];

  it('answers available: boolean and an optional reason', () => {
    expectTypeOf<Response['available']>().toEqualTypeOf<boolean>();
    expectTypeOf<Response>().toHaveProperty('reason');
    expectTypeOf<Response['reason']>().toEqualTypeOf<'Invalid' | 'AlreadyExists' | undefined>();
    expectTypeOf<{ name: string; available: false }>().toExtend<Response>();
  });

  it('takes a name and the one resource type', () => {
    type Body = NonNullable<SqlOps['Servers_CheckNameAvailability']['requestBody']>['content']['application/json'];
    expectTypeOf<Body>().toEqualTypeOf<Sql['schemas']['CheckNameAvailabilityRequest']>();
    expectTypeOf<Body['type']>().toEqualTypeOf<'Provider.Sql/servers'>();
    expectTypeOf<Body['name']>().toEqualTypeOf<string>();
  });

  it('has the nested ErrorDetail', () => {
    type Detail = Sql['schemas']['ErrorDetail'];
    expectTypeOf<NonNullable<Detail['details']>>().toEqualTypeOf<Detail[]>();
    expectTypeOf<NonNullable<Detail['additionalInfo']>[number]['info']>().toEqualTypeOf<Record<string, never> | undefined>();
  });
});

describe('cached images', () => {
  it('has an open osType and a nextLink', () => {
    expectTypeOf<Aci['schemas']['CachedImages']['osType']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Aci['schemas']['CachedImagesListResult']['nextLink']>().toEqualTypeOf<string | undefined>();
  });
});

describe('vendor', () => {
  type Vendor = Vendors['schemas']['Vendor'];

  // The source's 22 fields, each with its type; a field added later does not contradict them.
  type SourceFields =
    | 'id'
    | 'number'
    | 'displayName'
    | 'addressLine1'
    | 'addressLine2'
    | 'city'
    | 'state'
    | 'country'
    | 'postalCode'
    | 'phoneNumber'
    | 'email'
    | 'website'
    | 'taxRegistrationNumber'
    | 'currencyId'
    | 'currencyCode'
    | 'irs1099Code'
    | 'paymentTermsId'
    | 'paymentMethodId'
    | 'taxLiable'
    | 'blocked'
    | 'balance'
    | 'lastModifiedDateTime';

  it('has the 22 fields with their types', () => {
    expectTypeOf<Pick<Vendor, SourceFields>>().toEqualTypeOf<{
      id?: $Read<string>;
      number?: string;
      displayName?: string;
      addressLine1?: string;
      addressLine2?: string;
      city?: string;
      state?: string;
      country?: string;
      postalCode?: string;
      phoneNumber?: string;
      email?: string;
      website?: string;
      taxRegistrationNumber?: string;
      currencyId?: string;
      currencyCode?: string;
      irs1099Code?: string;
      paymentTermsId?: string;
      paymentMethodId?: string;
      taxLiable?: boolean;
      blocked?: string;
      balance?: number;
      lastModifiedDateTime?: $Read<string>;
    }>();
  });

  it('requires If-Match on the update', () => {
    type Header = VendorOps['updateVendor']['parameters']['header'];
    expectTypeOf<Header>().toEqualTypeOf<{ 'If-Match': string }>();
  });
});

describe('shipment method', () => {
  it('has id and lastModifiedDateTime read-only', () => {
    type Method = Shipments['schemas']['ShipmentMethod'];
    expectTypeOf<Method['id']>().toEqualTypeOf<$Read<string> | undefined>();
    expectTypeOf<Method['code']>().toEqualTypeOf<string | undefined>();
  });
});
