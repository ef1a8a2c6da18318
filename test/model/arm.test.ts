// The model's reading of Azure Resource Manager's shapes: resource ids and path templates
// (model/arm-ids.mjs), tracked resources, long-running operations and nextLink pages
// (model/arm.mjs), and the schema reads they rest on (model/schemas.mjs).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { inCollection, namespaceOf, parseResourcePath, RESOURCE_PATH, templateShape } from '../../model/arm-ids.mjs';
// @ts-expect-error: plain ESM module without types
import { armOperations, finalStateVia, isLongRunning, isPage, longRunningOf, pageNamesOf, pollingHeadersOf, trackedResources } from '../../model/arm.mjs';
// @ts-expect-error: plain ESM module without types
import { hasType, propertiesOf, requiredOf } from '../../model/schemas.mjs';

const RG = '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql';

describe('ARM ids and templates', () => {
  it('reads an instance, a collection and a child template, and refuses what is not a resource path', () => {
    expect(templateShape(`${RG}/servers/{serverName}`)).toEqual({
      scope: 'resourceGroup',
      namespace: 'Provider.Sql',
      types: ['servers'],
      kind: 'instance',
      type: 'Provider.Sql/servers',
      instancePath: `${RG}/servers/{serverName}`,
    });
    expect(templateShape('/subscriptions/{s}/providers/Provider.Sql/servers')).toMatchObject({
      scope: 'subscription',
      kind: 'collection',
      instancePath: undefined,
    });
    expect(templateShape(`${RG}/servers/{serverName}/databases/{databaseName}`)).toMatchObject({
      kind: 'instance',
      types: ['servers', 'databases'],
      type: 'Provider.Sql/servers/databases',
    });
    expect(templateShape(`${RG}/servers/{serverName}/{other}`)).toBeUndefined();
    expect(templateShape('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{name}')).toMatchObject({
      scope: 'scope',
      kind: 'instance',
      type: 'Provider.Authorization/roleEligibilityScheduleRequests',
    });
    expect(templateShape('/companies({company_id})/vendors')).toBeUndefined();
  });

  it('parses a resource id with its key and parent, decoding names, and refuses a broken one', () => {
    const id = '/subscriptions/sub-1/resourceGroups/rg/providers/Provider.Sql/servers/one/databases/my%20db';
    expect(parseResourcePath(id)).toMatchObject({
      subscription: 'sub-1',
      resourceGroup: 'rg',
      kind: 'instance',
      names: ['one', 'my db'],
      type: 'Provider.Sql/servers/databases',
      id: '/subscriptions/sub-1/resourceGroups/rg/providers/Provider.Sql/servers/one/databases/my db',
      key: '/subscriptions/sub-1/resourcegroups/rg/providers/provider.sql/servers/one/databases/my db',
      name: 'my db',
      parentKey: '/subscriptions/sub-1/resourcegroups/rg/providers/provider.sql/servers/one',
      parentType: 'Provider.Sql/servers',
    });
    const list = parseResourcePath('/subscriptions/s/providers/Provider.Sql/servers');
    expect(list).toMatchObject({ kind: 'collection', resourceGroup: undefined, parentType: undefined });
    expect([list.id, list.parentKey]).toEqual([undefined, undefined]);
    expect(parseResourcePath('/subscriptions/s/providers/Provider.Sql/servers/%E0%A4%A')).toBeUndefined();
    expect(parseResourcePath('/subscriptions/s/providers/Provider.Sql/servers//x')).toBeUndefined();
    expect(parseResourcePath('/api/v2.0/companies(1)')).toBeUndefined();
  });

  it('tells which list a stored resource belongs to, without case', () => {
    const resource = parseResourcePath('/subscriptions/S/resourceGroups/RG/providers/Provider.Sql/servers/one');
    expect(inCollection(resource, parseResourcePath('/subscriptions/s/resourceGroups/rg/providers/provider.sql/servers'))).toBe(true);
    expect(inCollection(resource, parseResourcePath('/subscriptions/s/providers/Provider.Sql/servers'))).toBe(true);
    expect(inCollection(resource, parseResourcePath('/subscriptions/s/resourceGroups/other/providers/Provider.Sql/servers'))).toBe(false);
    expect(inCollection(resource, parseResourcePath('/subscriptions/s/resourceGroups/rg/providers/Provider.Sql/servers/one/databases'))).toBe(false);
  });

  it('names the namespace after the last literal providers segment', () => {
    expect(namespaceOf('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{name}')).toBe('Provider.Authorization');
    expect(namespaceOf('/subscriptions/{s}/providers/A.B/x/{y}/providers/C.D/z')).toBe('C.D');
    expect(namespaceOf('/subscriptions/{s}/providers/{namespace}/x')).toBeNull();
    expect(namespaceOf('/companies({company_id})/vendors')).toBeNull();
  });

  it('matches a resource’s own path at any scope (RESOURCE_PATH), not a collection or an action', () => {
    expect(RESOURCE_PATH.test(`${RG}/servers/{serverName}`)).toBe(true);
    expect(RESOURCE_PATH.test('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{name}')).toBe(true);
    expect(RESOURCE_PATH.test(`${RG}/servers`)).toBe(false);
    expect(RESOURCE_PATH.test(`${RG}/servers/{serverName}/restart`)).toBe(false);
  });
});

describe('tracked resources', () => {
  const resource = { allOf: [{ properties: { location: { type: 'string' } }, required: ['location'] }], properties: { tags: { type: 'object' } } };
  const put = { requestBody: { content: { 'application/json': { schema: resource } } } };
  const document = (url: string) => ({
    servers: [{ url }],
    paths: {
      [`${RG}/servers/{serverName}`]: { put, get: {} },
      [`${RG}/servers/{serverName}/firewallRules/{ruleName}`]: {
        put: { requestBody: { content: { 'application/json': { schema: { properties: { ip: {} } } } } } },
      },
      [`${RG}/servers`]: { put },
    },
  });

  it('are the PUTs on a resource path whose body has a location (through allOf)', () => {
    expect([...trackedResources(document('{base_url}'))]).toEqual([[`${RG}/servers/{serverName}`, put, resource]]);
  });

  it('belong to resource management only', () => {
    expect([...trackedResources(document('{api_prefix}'))]).toEqual([]);
    expect([...armOperations(document('{api_prefix}'))]).toEqual([]);
    expect([...armOperations(document('{base_url}'))].map(([path, method]) => `${method} ${path}`)).toEqual([
      `get ${RG}/servers/{serverName}`,
      `put ${RG}/servers/{serverName}`,
      `put ${RG}/servers/{serverName}/firewallRules/{ruleName}`,
      `put ${RG}/servers`,
    ]);
  });

  it('read properties and required names through allOf, once per schema in a cycle', () => {
    const cycle: Record<string, any> = { properties: { b: {} }, required: ['b'] };
    cycle.allOf = [cycle, { properties: { a: {} }, required: ['a'] }];
    expect(Object.keys(propertiesOf(cycle)).sort()).toEqual(['a', 'b']);
    expect(requiredOf(cycle).sort()).toEqual(['a', 'b']);
    expect(propertiesOf(undefined)).toEqual({});
    expect([
      hasType({ type: 'array' }, 'array'),
      hasType({ type: ['array', 'null'] }, 'array'),
      hasType({ type: 'object' }, 'array'),
      hasType(undefined, 'array'),
    ]).toEqual([true, true, false, false]);
  });
});

describe('long-running operations', () => {
  it('are marked x-ms-long-running-operation: true, with their final-state-via when a string', () => {
    expect(isLongRunning({ 'x-ms-long-running-operation': true })).toBe(true);
    expect(isLongRunning({ 'x-ms-long-running-operation': 'true' })).toBe(false);
    expect(longRunningOf({})).toBeUndefined();
    expect(longRunningOf({ 'x-ms-long-running-operation': true })).toEqual({ finalStateVia: undefined });
    expect(
      longRunningOf({ 'x-ms-long-running-operation': true, 'x-ms-long-running-operation-options': { 'final-state-via': 'azure-async-operation' } }),
    ).toEqual({ finalStateVia: 'azure-async-operation' });
    expect(longRunningOf({ 'x-ms-long-running-operation': true, 'x-ms-long-running-operation-options': { 'final-state-via': 3 } })).toEqual({
      finalStateVia: undefined,
    });
  });

  it('read their result where final-state-via says, else the resource (PUT, PATCH) or Location (POST, DELETE)', () => {
    const via = { 'x-ms-long-running-operation-options': { 'final-state-via': 'azure-async-operation' } };
    expect(finalStateVia('post', via)).toEqual({ value: 'azure-async-operation', explicit: true, method: 'post' });
    expect(['put', 'patch', 'post', 'delete'].map((method) => finalStateVia(method, {}).value)).toEqual([
      'original-uri',
      'original-uri',
      'location',
      'location',
    ]);
    expect(finalStateVia('put', { 'x-ms-long-running-operation-options': [] }).explicit).toBe(false);
  });

  it('poll by the headers their answer declares, named in any case', () => {
    expect(pollingHeadersOf({ headers: { 'Azure-AsyncOperation': {}, 'retry-after': {} } })).toEqual({
      asyncOperation: true,
      location: false,
      retryAfter: true,
    });
    expect(pollingHeadersOf({ headers: { LOCATION: {} } })).toEqual({ asyncOperation: false, location: true, retryAfter: false });
    expect(pollingHeadersOf(undefined)).toEqual({ asyncOperation: false, location: false, retryAfter: false });
  });
});

describe('nextLink pages', () => {
  it('are named by x-ms-pageable, else value and nextLink', () => {
    expect(pageNamesOf({})).toEqual({ itemName: 'value', nextLinkName: 'nextLink' });
    expect(pageNamesOf({ 'x-ms-pageable': { nextLinkName: 'next', itemName: 'items' } })).toEqual({ itemName: 'items', nextLinkName: 'next' });
    expect(pageNamesOf({ 'x-ms-pageable': { nextLinkName: null } })).toEqual({ itemName: 'value', nextLinkName: 'nextLink' });
  });

  it('have the link and an item array', () => {
    const names = { itemName: 'value', nextLinkName: 'nextLink' };
    expect(isPage({ value: { type: 'array' }, nextLink: { type: 'string' } }, names)).toBe(true);
    expect(isPage({ value: { type: 'array' } }, names)).toBe(false);
    expect(isPage({ value: { type: 'object' }, nextLink: {} }, names)).toBe(false);
  });
});
