// How ARM paths are read (model/arm-ids.mjs, which the mock's conventions use): which templates
// are resource paths (instance or collection, which type, which scope) and what a path
// as sent names. The lifecycle keys on these shapes only, never on an operationId.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { inCollection, parseResourcePath, templateShape } from '../../model/arm-ids.mjs';

const RG = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql';

describe('templateShape', () => {
  it.each([
    [`${RG}/servers/{serverName}`, { kind: 'instance', scope: 'resourceGroup', type: 'Provider.Sql/servers' }],
    [`${RG}/servers`, { kind: 'collection', scope: 'resourceGroup', type: 'Provider.Sql/servers' }],
    ['/subscriptions/{subscriptionId}/providers/Provider.Sql/servers', { kind: 'collection', scope: 'subscription', type: 'Provider.Sql/servers' }],
    [`${RG}/servers/{serverName}/databases/{databaseName}`, { kind: 'instance', type: 'Provider.Sql/servers/databases' }],
    ['/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages', { kind: 'collection', type: 'Provider.ContainerInstance/locations/cachedImages' }],
  ])('%s', (template, shape) => {
    expect(templateShape(template)).toMatchObject(shape);
  });

  it.each([
    '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}',
    `${RG}/servers/{serverName}/{other}`,
    `${RG}/servers/literal`,
    '/api/v2.0/companies({company_id})/vendors',
  ])('not a resource path: %s', (template) => {
    expect(templateShape(template)).toBeUndefined();
  });
});

describe('parseResourcePath', () => {
  it('an instance: its id, key without case, name, type and parent', () => {
    const parsed = parseResourcePath('/subscriptions/S1/resourceGroups/RG-A/providers/Provider.Sql/servers/alpha/databases/orders%20db');
    expect(parsed).toMatchObject({
      kind: 'instance',
      subscription: 'S1',
      resourceGroup: 'RG-A',
      name: 'orders db',
      type: 'Provider.Sql/servers/databases',
      id: '/subscriptions/S1/resourceGroups/RG-A/providers/Provider.Sql/servers/alpha/databases/orders db',
      key: '/subscriptions/s1/resourcegroups/rg-a/providers/provider.sql/servers/alpha/databases/orders db',
      parentKey: '/subscriptions/s1/resourcegroups/rg-a/providers/provider.sql/servers/alpha',
      parentType: 'Provider.Sql/servers',
    });
  });

  it('a collection, and which resources it holds (scope, type, parent; without case)', () => {
    const server = parseResourcePath('/subscriptions/s1/resourceGroups/rg-a/providers/Provider.Sql/servers/alpha');
    const database = parseResourcePath('/subscriptions/s1/resourceGroups/rg-a/providers/Provider.Sql/servers/alpha/databases/one');
    const bySubscription = parseResourcePath('/subscriptions/S1/providers/Provider.Sql/servers');
    expect(bySubscription).toMatchObject({ kind: 'collection', resourceGroup: undefined, type: 'Provider.Sql/servers' });
    expect(inCollection(server, bySubscription)).toBe(true);
    expect(inCollection(server, parseResourcePath('/subscriptions/s1/resourceGroups/RG-A/providers/Provider.Sql/servers'))).toBe(true);
    expect(inCollection(server, parseResourcePath('/subscriptions/s1/resourceGroups/rg-b/providers/Provider.Sql/servers'))).toBe(false);
    expect(inCollection(server, parseResourcePath('/subscriptions/s2/providers/Provider.Sql/servers'))).toBe(false);
    expect(inCollection(database, bySubscription)).toBe(false);
    expect(inCollection(database, parseResourcePath('/subscriptions/s1/resourceGroups/rg-a/providers/Provider.Sql/servers/alpha/databases'))).toBe(true);
    expect(inCollection(database, parseResourcePath('/subscriptions/s1/resourceGroups/rg-a/providers/Provider.Sql/servers/beta/databases'))).toBe(false);
  });

  it('not an ARM path: undefined', () => {
    expect(parseResourcePath('/api/v2.0/companies(x)/vendors')).toBeUndefined();
    expect(parseResourcePath('/subscriptions/s1/resourceGroups/rg/providers/Provider.Sql/servers/%E0%A4%A')).toBeUndefined();
  });
});
