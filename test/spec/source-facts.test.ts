// The facts of ../shared/seed/api-reference.md, checked in the bundled documents: the
// things a reader of the source would look for first.
import { describe, expect, it } from 'vitest';
import { bundleOf, deref } from '../helpers/bundles.js';

const auth = bundleOf('authorization@2020-10-01');
const sql = bundleOf('sql@2025-01-01');
const aci = bundleOf('containerinstance@2025-09-01');
const vendors = bundleOf('businesscentral@v2.0');
const shipments = bundleOf('businesscentral@v1.0');

const schema = (doc: any, name: string) => doc.components.schemas[name];
/** The source's operation in a document, found by its operationId: other operations may sit beside it. */
const operation = (doc: any, operationId: string) => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (op?.operationId === operationId) return { path, method, op, params: (op.parameters ?? []).map((p: any) => deref(doc, p)) };
    }
  }
  throw new Error(`no operation ${operationId} in ${doc.info?.title}`);
};
const ROLE_GET = 'RoleEligibilityScheduleRequests_Get';
const NAME_CHECK = 'Servers_CheckNameAvailability';
const CACHED_IMAGES = 'Location_ListCachedImages';
const VENDOR_UPDATE = 'updateVendor';
const SHIPMENT_CREATE = 'createShipmentMethod';
const param = (doc: any, operationId: string, name: string) => operation(doc, operationId).params.find((p: any) => p.name === name);
/** The source's fields are all there; a field added later does not contradict it. */
const keysInclude = (object: any, keys: string[]) => expect(Object.keys(object)).toEqual(expect.arrayContaining(keys));

describe('role eligibility schedule request (2020-10-01)', () => {
  const props = deref(auth, schema(auth, 'RoleEligibilityScheduleRequestProperties')).properties;

  it('is GET /{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{name}', () => {
    const { path, method, op } = operation(auth, ROLE_GET);
    expect([method, path, op.operationId]).toEqual([
      'get',
      '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}',
      'RoleEligibilityScheduleRequests_Get',
    ]);
  });

  it('has the enumerations exactly as listed', () => {
    expect(schema(auth, 'Status').enum).toHaveLength(22);
    expect(schema(auth, 'Status').enum).toEqual(expect.arrayContaining(['Accepted', 'PendingExternalProvisioning', 'FailedAsResourceIsLocked']));
    expect(schema(auth, 'PrincipalType').enum).toEqual(['User', 'Group', 'ServicePrincipal', 'ForeignGroup', 'Device']);
    expect(schema(auth, 'RequestType').enum).toEqual([
      'AdminAssign',
      'AdminRemove',
      'AdminUpdate',
      'AdminExtend',
      'AdminRenew',
      'SelfActivate',
      'SelfDeactivate',
      'SelfExtend',
      'SelfRenew',
    ]);
    expect(schema(auth, 'ExpirationType').enum).toEqual(['AfterDuration', 'AfterDateTime', 'NoExpiration']);
  });

  it('lets exactly the fields the source calls nullable be null', () => {
    // Of the source's fields: these four and no other (a field added later is not the source's).
    const sourceFields = [
      'targetRoleEligibilityScheduleId',
      'targetRoleEligibilityScheduleInstanceId',
      'scope',
      'roleDefinitionId',
      'principalId',
      'principalType',
      'requestType',
      'status',
      'approvalId',
      'scheduleInfo',
      'ticketInfo',
      'justification',
      'requestorId',
      'createdOn',
    ];
    keysInclude(props, sourceFields);
    const nullable = sourceFields.filter((k) => Array.isArray(props[k].type) && props[k].type.includes('null'));
    expect(nullable.sort()).toEqual(['approvalId', 'justification', 'targetRoleEligibilityScheduleId', 'targetRoleEligibilityScheduleInstanceId']);
    expect(schema(auth, 'TicketInfo').properties.ticketNumber.type).toEqual(['string', 'null']);
    expect(schema(auth, 'Expiration').properties.endDateTime).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
  });

  it('types dates, GUIDs and api-version as the source says', () => {
    expect(props.createdOn.format).toBe('date-time');
    expect(param(auth, ROLE_GET, 'roleEligibilityScheduleRequestName').schema.format).toBe('uuid');
    expect(param(auth, ROLE_GET, 'api-version')).toMatchObject({ in: 'query', required: true, schema: { type: 'string', enum: ['2020-10-01'] } });
    expect(operation(auth, ROLE_GET).op.responses.default.content['application/json'].schema.$ref).toBe('#/components/schemas/CloudError');
    keysInclude(schema(auth, 'CloudErrorBody').properties, ['code', 'message']);
  });

  it('is secured by OAuth 2.0 implicit with {auth_url} and user_impersonation', () => {
    expect(auth.security).toEqual([{ azure_auth: ['user_impersonation'] }]);
    expect(auth.components.securitySchemes.azure_auth.flows.implicit.authorizationUrl).toBe('https://auth-url.invalid/');
    expect(auth.servers[0].url).toBe('{base_url}');
  });
});

describe('server name check (2025-01-01)', () => {
  const { op } = operation(sql, NAME_CHECK);

  it('does not reject a malformed name in the request schema', () => {
    const name = schema(sql, 'CheckNameAvailabilityRequest').properties.name;
    expect(name).toEqual({ type: 'string', description: expect.any(String) });
    expect(schema(sql, 'CheckNameAvailabilityRequest').required).toEqual(['name', 'type']);
    expect(schema(sql, 'CheckNameAvailabilityResourceType').enum).toEqual(['Provider.Sql/servers']);
  });

  it('answers 200 with the three named scenarios and 400 with the two error codes', () => {
    keysInclude(op.responses['200'].content['application/json'].examples, ['available', 'AlreadyExists', 'Invalid']);
    const codes = Object.values<any>(op.responses['400'].content['application/json'].examples).map((e) => deref(sql, e).value.error.code);
    expect(codes).toEqual(['InvalidNameAvailabilityRequest', 'UnknownNameType']);
    expect(schema(sql, 'CheckNameAvailabilityReason').enum).toEqual(['Invalid', 'AlreadyExists']);
  });

  it('has ErrorResponse with nested details and additional info', () => {
    const detail = schema(sql, 'ErrorDetail').properties;
    expect(detail.details.items.$ref).toBe('#/components/schemas/ErrorDetail');
    expect(detail.additionalInfo.items.$ref).toBe('#/components/schemas/ErrorAdditionalInfo');
    expect(schema(sql, 'ErrorAdditionalInfo').properties.info.type).toBe('object');
  });

  it('records that its authentication is not shown instead of declaring any', () => {
    expect(sql.security).toBeUndefined();
    expect(op.security).toBeUndefined();
    expect(op['x-source-gap']).toMatch(/authentication/);
  });
});

describe('cached images (2025-09-01)', () => {
  it('takes a UUID subscription, a non-empty location and api-version', () => {
    expect(param(aci, CACHED_IMAGES, 'subscriptionId').schema).toMatchObject({ type: 'string', format: 'uuid' });
    expect(param(aci, CACHED_IMAGES, 'location').schema.minLength).toBe(1);
    expect(param(aci, CACHED_IMAGES, 'api-version')).toMatchObject({ in: 'query', required: true, schema: { type: 'string', enum: ['2025-09-01'] } });
  });

  it('leaves osType open and lists target and details on its CloudError', () => {
    expect(schema(aci, 'CachedImages').properties.osType.enum).toBeUndefined();
    expect(schema(aci, 'CachedImages').properties.osType['x-source-gap']).toBeTruthy();
    const extra = schema(aci, 'CloudError').properties.error.allOf[1].properties;
    keysInclude(extra, ['target', 'details']);
  });
});

describe('vendor update (v2.0)', () => {
  it('is PATCH /companies({company_id})/vendors({vendor_id}) with a required If-Match', () => {
    const { path, method, op } = operation(vendors, VENDOR_UPDATE);
    expect([method, path, op.operationId]).toEqual(['patch', '/companies({company_id})/vendors({vendor_id})', 'updateVendor']);
    expect(param(vendors, VENDOR_UPDATE, 'If-Match')).toMatchObject({ in: 'header', required: true });
    expect(vendors.servers[0].url).toBe('{api_prefix}');
    expect(vendors.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has the 22 vendor fields with their types', () => {
    const props = schema(vendors, 'Vendor').properties;
    keysInclude(props, [
      'id',
      'number',
      'displayName',
      'addressLine1',
      'addressLine2',
      'city',
      'state',
      'country',
      'postalCode',
      'phoneNumber',
      'email',
      'website',
      'taxRegistrationNumber',
      'currencyId',
      'currencyCode',
      'irs1099Code',
      'paymentTermsId',
      'paymentMethodId',
      'taxLiable',
      'blocked',
      'balance',
      'lastModifiedDateTime',
    ]);
    for (const guid of ['id', 'currencyId', 'paymentTermsId', 'paymentMethodId']) expect(props[guid].format, guid).toBe('uuid');
    expect(props.taxLiable.type).toBe('boolean');
    expect(props.balance.type).toBe('number');
    expect(props.lastModifiedDateTime.format).toBe('date-time');
    expect(props.blocked.enum).toBeUndefined();
  });
});

describe('shipment method create (v1.0)', () => {
  it('is POST /companies({company_id})/shipmentMethods answering 201', () => {
    const { path, method, op } = operation(shipments, SHIPMENT_CREATE);
    expect([method, path, op.operationId]).toEqual(['post', '/companies({company_id})/shipmentMethods', 'createShipmentMethod']);
    keysInclude(op.responses, ['201', 'default']);
    expect(Object.keys(op.responses).filter((status) => /^2/.test(status))).toEqual(['201']);
    keysInclude(schema(shipments, 'ShipmentMethod').properties, ['id', 'code', 'displayName', 'lastModifiedDateTime']);
  });
});
