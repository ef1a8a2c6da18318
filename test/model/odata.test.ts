// The model's reading of business data's OData shapes (model/odata.mjs): entity sets and
// the key in their paths, bound actions, declared query options and the If-Match tag.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { entitySetOf, ifMatchOf, queryOptionsOf } from '../../model/odata.mjs';

describe('OData entity sets', () => {
  it('read the set, the key and the kind of operation from the path and method', () => {
    const set = '/companies({company_id})/vendors';
    const entity = '/companies({company_id})/vendors({vendor_id})';
    expect(entitySetOf('get', set)).toEqual({ kind: 'list', set: 'vendors', companyParam: 'company_id', keyParam: undefined, action: undefined });
    expect(entitySetOf('post', set)?.kind).toBe('create');
    expect(['get', 'patch', 'delete'].map((method) => entitySetOf(method, entity)?.kind)).toEqual(['read', 'update', 'delete']);
    expect(entitySetOf('put', entity)).toBeUndefined();
    expect(entitySetOf('post', `${entity}/Microsoft.NAV.post`)).toEqual({ kind: 'action', set: 'vendors', companyParam: 'company_id', keyParam: 'vendor_id', action: 'Microsoft.NAV.post' });
    expect(entitySetOf('post', `${set}/Microsoft.NAV.post`)).toBeUndefined();
    expect(entitySetOf('get', '/subscriptions/{s}/providers/Provider.Sql/servers')).toBeUndefined();
  });

  it('find the If-Match header and the declared $ options among the parameters', () => {
    const ifMatch = { name: 'if-MATCH', in: 'header', required: true };
    const parameters = [{ name: 'If-Match', in: 'query' }, ifMatch, { name: '$filter', in: 'query' }, { name: '$top', in: 'query' }, { name: '$x', in: 'header' }, undefined];
    expect(ifMatchOf(parameters)).toBe(ifMatch);
    expect(ifMatchOf([])).toBeUndefined();
    expect(queryOptionsOf(parameters)).toEqual(['$filter', '$top']);
  });
});
