// How ARM paths are read (model/arm-ids.mjs, which the mock's conventions use): which templates
// are resource paths (instance or collection, which type, which scope) and what a path
// as sent names. The lifecycle keys on these shapes only, never on an operationId.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { inCollection, parseResourcePath, scopeProblem, templateShape } from '../../model/arm-ids.mjs';

const RG = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql';

describe('templateShape', () => {
  it.each([
    [`${RG}/servers/{serverName}`, { kind: 'instance', scope: 'resourceGroup', type: 'Provider.Sql/servers' }],
    [`${RG}/servers`, { kind: 'collection', scope: 'resourceGroup', type: 'Provider.Sql/servers' }],
    ['/subscriptions/{subscriptionId}/providers/Provider.Sql/servers', { kind: 'collection', scope: 'subscription', type: 'Provider.Sql/servers' }],
    [`${RG}/servers/{serverName}/databases/{databaseName}`, { kind: 'instance', type: 'Provider.Sql/servers/databases' }],
    [
      '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages',
      { kind: 'collection', type: 'Provider.ContainerInstance/locations/cachedImages' },
    ],
    // Extension resources, at any scope: the resource's part starts after the last `providers`.
    [
      '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}',
      { kind: 'instance', scope: 'scope', type: 'Provider.Authorization/roleEligibilityScheduleRequests' },
    ],
    [
      '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests',
      { kind: 'collection', scope: 'scope', type: 'Provider.Authorization/roleEligibilityScheduleRequests' },
    ],
    [
      `${RG}/servers/{serverName}/providers/Provider.Insights/diagnosticSettings/{name}`,
      { kind: 'instance', scope: 'resource', namespace: 'Provider.Insights', type: 'Provider.Insights/diagnosticSettings' },
    ],
    [
      '/providers/Provider.Management/managementGroups/{groupId}/providers/Provider.Authorization/roleAssignments',
      { kind: 'collection', scope: 'resource', type: 'Provider.Authorization/roleAssignments' },
    ],
    ['/providers/Provider.Management/managementGroups/{groupId}', { kind: 'instance', scope: 'tenant', type: 'Provider.Management/managementGroups' }],
  ])('%s', (template, shape) => {
    expect(templateShape(template)).toMatchObject(shape);
  });

  it.each([
    `${RG}/servers/{serverName}/{other}`,
    '/foo/{bar}/providers/Provider.Authorization/roleAssignments/{name}',
    '/subscriptions/{s}/resourceGroups/{rg}/providers/Provider.Sql/servers/providers/Provider.Insights/diagnosticSettings/{name}',
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

describe('extension resources: a resource at any ARM scope', () => {
  const TYPE = 'providers/Provider.Authorization/roleEligibilityScheduleRequests';
  const SERVER = '/subscriptions/s1/resourceGroups/rg-a/providers/Provider.Sql/servers/alpha';
  it.each([
    ['/subscriptions/S1', 'subscription', 'S1', undefined],
    ['/subscriptions/S1/resourceGroups/RG-A', 'resourceGroup', 'S1', 'RG-A'],
    [SERVER, 'resource', 's1', 'rg-a'],
    [`${SERVER}/databases/one`, 'resource', 's1', 'rg-a'],
    ['/providers/Microsoft.Management/managementGroups/finance', 'resource', undefined, undefined],
    ['/providers/Provider.Subscription/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11', 'resource', undefined, undefined],
  ])('at %s: its id carries the scope', (scope, scopeKind, subscription, resourceGroup) => {
    const parsed = parseResourcePath(`${scope}/${TYPE}/request-1`);
    expect(parsed).toMatchObject({
      kind: 'instance',
      scope,
      scopeKind,
      subscription,
      resourceGroup,
      type: 'Provider.Authorization/roleEligibilityScheduleRequests',
      name: 'request-1',
      id: `${scope}/${TYPE}/request-1`,
    });
    expect(parsed.parentKey).toBeUndefined();
    expect(scopeProblem(`${scope}/${TYPE}/request-1`)).toBeUndefined();
  });

  it.each([
    '/foo/bar',
    '/subscriptions',
    '/subscriptions/s1/resourceGroups',
    '/subscriptions/s1/foo/bar',
    `${SERVER}/databases`,
    '/subscriptions/s1/resourceGroups/rg/providers/Provider.Sql',
  ])('a scope that is no ARM scope (%s): no resource path, and scopeProblem names it', (scope) => {
    expect(parseResourcePath(`${scope}/${TYPE}/request-1`)).toBeUndefined();
    expect(scopeProblem(`${scope}/${TYPE}/request-1`)).toBe(scope);
  });

  it.each([
    ['slashes encoded', '/subscriptions%2Fs1%2FresourceGroups%2Frg'],
    ['a leading slash of its own', '//subscriptions/s1'],
    ['a segment percent-encoded', '/subscriptions/s1/resourceGroups/my%20rg'],
    ['the tenant', ''],
  ])('a scope as a {scope} value may carry it (%s): no problem', (_, scope) => {
    expect(scopeProblem(`${scope}/${TYPE}/request-1`)).toBeUndefined();
  });

  it.each(['/subscriptions//resourceGroups/rg', '/foo%2Fbar', '/subscriptions/%E0%A4%A'])(
    'a scope with an empty or undecodable segment (%s) is a problem',
    (scope) => {
      expect(scopeProblem(`${scope}/${TYPE}/request-1`)).toBe(scope);
    },
  );

  it('a list for a scope holds what is at it and below it; atScope: at it only', () => {
    const at = (scope: string) => parseResourcePath(`${scope}/${TYPE}/one`);
    const list = (scope: string) => parseResourcePath(`${scope}/${TYPE}`);
    const [bySubscription, byGroup, byServer] = ['/subscriptions/S1', '/subscriptions/s1/resourceGroups/RG-A', SERVER].map(list);
    expect(inCollection(at(SERVER), bySubscription)).toBe(true);
    expect(inCollection(at(SERVER), byGroup)).toBe(true);
    expect(inCollection(at(SERVER), byServer)).toBe(true);
    expect(inCollection(at('/subscriptions/s1/resourceGroups/rg-ab'), byGroup)).toBe(false);
    expect(inCollection(at('/subscriptions/s2'), bySubscription)).toBe(false);
    expect(inCollection(at(SERVER), bySubscription, { atScope: true })).toBe(false);
    expect(inCollection(at('/subscriptions/s1'), bySubscription, { atScope: true })).toBe(true);
    expect(inCollection(at('/providers/Microsoft.Management/managementGroups/g'), bySubscription)).toBe(false);
  });
});
