// Business data's listAll/listPages: offered on the GETs whose 200 body has `value` and
// `@odata.nextLink` (an OData entity set's list), typed by the list: its items, its pages,
// and its query options as the document declares them. Today's documents have no such
// list, so the shapes are checked on a paths type written here the way openapi-typescript
// writes a list with the shared query parameters (specs/common/business-central/parameters/),
// and the client is checked to refuse everything else.
import { describe, expectTypeOf, it } from 'vitest';
import { createBusinessCentralClient } from '../../src/index.js';
import type { ItemOf, ListInit, ListPaths, ODataListPaths, PageOf } from '../../src/conventions.js';

interface Customer {
  id?: string;
  displayName?: string;
}
interface Paths {
  '/companies({company_id})/customers': {
    get: {
      parameters: {
        query?: { $filter?: string; $orderby?: string; $top?: number; $skip?: number; $select?: string; $count?: boolean };
        header?: never;
        path: { company_id: string };
        cookie?: never;
      };
      responses: {
        200: {
          headers: { [name: string]: unknown };
          content: { 'application/json': { '@odata.count'?: number; value?: Customer[]; '@odata.nextLink'?: string } };
        };
      };
    };
    post: {
      parameters: { path: { company_id: string } };
      requestBody: { content: { 'application/json': Customer } };
      responses: { 201: { headers: { [name: string]: unknown }; content: { 'application/json': Customer } } };
    };
  };
  '/companies({company_id})/customers({customer_id})': {
    get: {
      parameters: { path: { company_id: string; customer_id: string } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Customer } } };
    };
  };
  /** A list without a next link: one answer, nothing to follow. */
  '/companies({company_id})/countries': {
    get: {
      parameters: { path: { company_id: string } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': { value?: Array<{ code?: string }> } } } };
    };
  };
}
type Customers = '/companies({company_id})/customers';

describe('OData lists', () => {
  it('are the GETs with value and @odata.nextLink, and only those', () => {
    expectTypeOf<ODataListPaths<Paths>>().toEqualTypeOf<Customers>();
    // resource management's nextLink lists are another shape
    expectTypeOf<ListPaths<Paths>>().toEqualTypeOf<never>();
  });

  it("yield the list's items and pages", () => {
    expectTypeOf<ItemOf<Paths, Customers>>().toEqualTypeOf<Customer>();
    expectTypeOf<PageOf<Paths, Customers>>().toEqualTypeOf<{ '@odata.count'?: number; value?: Customer[]; '@odata.nextLink'?: string }>();
  });

  it('take the declared query options as typed parameters, plus the paging options', () => {
    const init = (value: ListInit<Paths, Customers>) => value;
    init({
      params: { path: { company_id: 'c' }, query: { $filter: "startswith(displayName,'A')", $orderby: 'displayName desc', $top: 20, $count: true } },
      maxPages: 5,
      headers: { Prefer: 'odata.maxpagesize=50' },
    });
    // @ts-expect-error $top is an integer
    init({ params: { path: { company_id: 'c' }, query: { $top: '20' } } });
    // @ts-expect-error an option the list does not declare
    init({ params: { path: { company_id: 'c' }, query: { $search: 'x' } } });
    // @ts-expect-error the company is required
    init({ params: { query: { $top: 1 } } });
  });
});

describe('the business-data client', () => {
  const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', token: 't' });

  it('offers listAll and listPages, refusing what is not an OData list', () => {
    expectTypeOf(bc.listAll).toBeFunction();
    expectTypeOf(bc.listPages).toBeFunction();
    // @ts-expect-error updating a vendor is not a list
    bc.listAll('/companies({company_id})/vendors({vendor_id})', { params: { path: { company_id: 'c', vendor_id: 'v' } } });
    // @ts-expect-error creating shipment methods is not a list
    bc.listPages('/companies({company_id})/shipmentMethods', { params: { path: { company_id: 'c' } } });
  });
});
