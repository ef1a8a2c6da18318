// The OData query options of a business-data list, as the mock answers them over its
// store, on a fixture entity set of this test's own (fixtures/odata-query/): `contacts`,
// whose list declares every option, with a property of each kind. Each case is a query
// and what OData says it answers, written here as plain JavaScript over the same seeded
// contacts (a filter, a sort, a slice): never the mock's code. Every answer is read to its
// last page by following @odata.nextLink, with a server page size of 3. (The schema
// requires `id` and `name`: $select keeps them.)
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../mock/index.js';
import { AUTH, startMock } from './growth-fixtures.js';

const DOCUMENT = join(import.meta.dirname, 'fixtures/odata-query/business-v7.0.yaml');
const COMPANY = 'c0ffee00-0000-4000-8000-00000000000a';
const PAGE_SIZE = 3;

interface Contact {
  id: string;
  name: string;
  city?: string | null;
  balance: number;
  visits: number;
  blocked: boolean;
  owner?: string;
  birthDate: string;
  lastModifiedDateTime: string;
  addresses?: Array<{ street: string }>;
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OWNER = 'A1B2C3D4-0000-4000-8000-0000000000FF';
// Ten contacts, seeded in this order (the order of an answer without $orderby).
const CONTACTS: Contact[] = [
  {
    id: id(1),
    name: "O'Neil & Sons",
    city: 'Oslo',
    balance: 10.5,
    visits: 3,
    blocked: false,
    owner: OWNER,
    birthDate: '1990-05-01',
    lastModifiedDateTime: '2024-01-01T10:00:00Z',
    addresses: [{ street: 'Main 1' }],
  },
  {
    id: id(2),
    name: 'Bergen Supplies',
    city: null,
    balance: -2,
    visits: 0,
    blocked: true,
    owner: 'bbbbbbbb-0000-4000-8000-000000000002',
    birthDate: '1985-12-31',
    lastModifiedDateTime: '2024-01-01T12:00:00+01:00',
  },
  { id: id(3), name: 'Cedar Works', balance: 100, visits: 7, blocked: false, birthDate: '2001-01-01', lastModifiedDateTime: '2023-06-01T00:00:00Z' },
  {
    id: id(4),
    name: 'adatum',
    city: 'Bergen',
    balance: 0,
    visits: 2,
    blocked: false,
    owner: OWNER.toLowerCase(),
    birthDate: '1990-05-01',
    lastModifiedDateTime: '2024-03-15T08:30:00.5Z',
  },
  {
    id: id(5),
    name: 'Adatum Corporation',
    city: 'Oslo',
    balance: 2500.75,
    visits: 12,
    blocked: true,
    birthDate: '1979-02-28',
    lastModifiedDateTime: '2022-11-30T23:59:59Z',
  },
  {
    id: id(6),
    name: 'Fabrikam',
    city: 'Trondheim',
    balance: 10.5,
    visits: 3,
    blocked: false,
    owner: 'cccccccc-0000-4000-8000-000000000003',
    birthDate: '1999-09-09',
    lastModifiedDateTime: '2024-01-01T10:00:00.000Z',
  },
  {
    id: id(7),
    name: 'Northwind Traders',
    city: 'Oslo',
    balance: 42,
    visits: 5,
    blocked: false,
    birthDate: '2000-02-29',
    lastModifiedDateTime: '2024-06-01T00:00:00-02:00',
    addresses: [{ street: 'Dock 7' }, { street: 'Pier 2' }],
  },
  {
    id: id(8),
    name: 'Tailspin',
    city: 'Stavanger',
    balance: -50,
    visits: 1,
    blocked: true,
    owner: OWNER,
    birthDate: '1970-01-01',
    lastModifiedDateTime: '2021-01-01T00:00:00Z',
  },
  {
    id: id(9),
    name: 'Wide World',
    city: 'bergen',
    balance: 7,
    visits: 9,
    blocked: false,
    birthDate: '1995-07-04',
    lastModifiedDateTime: '2024-02-29T12:00:00Z',
  },
  {
    id: id(10),
    name: 'Woodgrove',
    city: 'Oslo',
    balance: 999,
    visits: 0,
    blocked: false,
    birthDate: '1988-08-08',
    lastModifiedDateTime: '2023-12-31T23:00:00Z',
  },
];

// Independent helpers: plain JavaScript, the way a reader checks OData's rules by hand.
const time = (text: string) => new Date(text).getTime();
const by =
  <K extends keyof Contact>(key: K, direction = 1) =>
  (a: Contact, b: Contact) => {
    const [x, y] = [a[key] ?? null, b[key] ?? null];
    if (x === y) return 0;
    if (x === null) return -direction; // null first ascending, last descending
    if (y === null) return direction;
    return (x < y ? -1 : 1) * direction;
  };
const then =
  (...orders: Array<(a: Contact, b: Contact) => number>) =>
  (a: Contact, b: Contact) =>
    orders.reduce((result, order) => result || order(a, b), 0);
const sorted = (list: Contact[], order: (a: Contact, b: Contact) => number) => [...list].sort(order);

interface Case {
  name: string;
  query: Record<string, string>;
  /** The contacts OData answers, in order (all pages). */
  expected: (all: Contact[]) => Contact[];
  /** Only these properties (plus id) are in each answer: $select. */
  select?: Array<keyof Contact>;
  /** @odata.count, when $count=true. */
  count?: (all: Contact[]) => number;
}

const CASES: Case[] = [
  { name: 'no options: every contact, in store order, over several pages', query: {}, expected: (all) => all },
  { name: 'eq on a string', query: { $filter: "name eq 'Fabrikam'" }, expected: (all) => all.filter((c) => c.name === 'Fabrikam') },
  {
    name: "eq on a string with a quote ('' escaping)",
    query: { $filter: "name eq 'O''Neil & Sons'" },
    expected: (all) => all.filter((c) => c.name === "O'Neil & Sons"),
  },
  { name: 'ne on a string (case-sensitive)', query: { $filter: "city ne 'Oslo'" }, expected: (all) => all.filter((c) => (c.city ?? null) !== 'Oslo') },
  { name: 'gt on a number', query: { $filter: 'balance gt 10.5' }, expected: (all) => all.filter((c) => c.balance > 10.5) },
  { name: 'ge on a number', query: { $filter: 'balance ge 10.5' }, expected: (all) => all.filter((c) => c.balance >= 10.5) },
  { name: 'lt on a negative number', query: { $filter: 'balance lt -1' }, expected: (all) => all.filter((c) => c.balance < -1) },
  { name: 'le on an integer', query: { $filter: 'visits le 2' }, expected: (all) => all.filter((c) => c.visits <= 2) },
  { name: 'eq on a boolean', query: { $filter: 'blocked eq true' }, expected: (all) => all.filter((c) => c.blocked) },
  { name: 'a boolean property alone is a condition', query: { $filter: 'blocked' }, expected: (all) => all.filter((c) => c.blocked) },
  {
    name: 'eq on a GUID (any case)',
    query: { $filter: `owner eq ${OWNER.toLowerCase()}` },
    expected: (all) => all.filter((c) => c.owner?.toLowerCase() === OWNER.toLowerCase()),
  },
  { name: 'eq on a date', query: { $filter: 'birthDate eq 1990-05-01' }, expected: (all) => all.filter((c) => c.birthDate === '1990-05-01') },
  { name: 'lt on a date', query: { $filter: 'birthDate lt 1985-01-01' }, expected: (all) => all.filter((c) => c.birthDate < '1985-01-01') },
  {
    name: 'gt on a date-time (offsets honoured)',
    query: { $filter: 'lastModifiedDateTime gt 2024-01-01T10:30:00Z' },
    expected: (all) => all.filter((c) => time(c.lastModifiedDateTime) > time('2024-01-01T10:30:00Z')),
  },
  {
    name: 'eq on a date-time written differently',
    query: { $filter: 'lastModifiedDateTime eq 2024-01-01T11:00:00+01:00' },
    expected: (all) => all.filter((c) => time(c.lastModifiedDateTime) === time('2024-01-01T10:00:00Z')),
  },
  { name: 'eq null: missing or null', query: { $filter: 'city eq null' }, expected: (all) => all.filter((c) => c.city === undefined || c.city === null) },
  { name: 'ne null', query: { $filter: 'owner ne null' }, expected: (all) => all.filter((c) => c.owner !== undefined && c.owner !== null) },
  { name: 'contains', query: { $filter: "contains(name,'at')" }, expected: (all) => all.filter((c) => c.name.includes('at')) },
  { name: 'startswith (case-sensitive)', query: { $filter: "startswith(name,'Ad')" }, expected: (all) => all.filter((c) => c.name.startsWith('Ad')) },
  { name: 'endswith', query: { $filter: "endswith(name,'s')" }, expected: (all) => all.filter((c) => c.name.endsWith('s')) },
  {
    name: 'a function over a property that may be null',
    query: { $filter: "startswith(city,'O')" },
    expected: (all) => all.filter((c) => typeof c.city === 'string' && c.city.startsWith('O')),
  },
  { name: 'and', query: { $filter: "city eq 'Oslo' and balance gt 20" }, expected: (all) => all.filter((c) => c.city === 'Oslo' && c.balance > 20) },
  { name: 'or', query: { $filter: "city eq 'Bergen' or visits ge 9" }, expected: (all) => all.filter((c) => c.city === 'Bergen' || c.visits >= 9) },
  { name: 'not', query: { $filter: "not contains(name,'a')" }, expected: (all) => all.filter((c) => !c.name.includes('a')) },
  { name: 'not binds tighter than and', query: { $filter: 'not blocked and visits gt 2' }, expected: (all) => all.filter((c) => !c.blocked && c.visits > 2) },
  {
    name: 'not binds tighter than or',
    query: { $filter: "not blocked or city eq 'Oslo'" },
    expected: (all) => all.filter((c) => !c.blocked || c.city === 'Oslo'),
  },
  {
    name: 'not inside a chain',
    query: { $filter: "visits gt 0 and not blocked and city ne 'Oslo'" },
    expected: (all) => all.filter((c) => c.visits > 0 && !c.blocked && (c.city ?? null) !== 'Oslo'),
  },
  {
    name: 'not over a parenthesised group',
    query: { $filter: "not (blocked or city eq 'Oslo') and visits ge 1" },
    expected: (all) => all.filter((c) => !(c.blocked || c.city === 'Oslo') && c.visits >= 1),
  },
  {
    name: 'not over a null: unknown, never true',
    query: { $filter: "not startswith(city,'O')" },
    expected: (all) => all.filter((c) => typeof c.city === 'string' && !c.city.startsWith('O')),
  },
  {
    name: 'and binds tighter than or',
    query: { $filter: "blocked eq true or city eq 'Oslo' and balance lt 50" },
    expected: (all) => all.filter((c) => c.blocked || (c.city === 'Oslo' && c.balance < 50)),
  },
  {
    name: 'parentheses change the grouping',
    query: { $filter: "(blocked eq true or city eq 'Oslo') and balance lt 50" },
    expected: (all) => all.filter((c) => (c.blocked || c.city === 'Oslo') && c.balance < 50),
  },
  {
    name: 'a combination of every kind',
    query: { $filter: "not (blocked) and (birthDate ge 1990-01-01 or owner eq null) and lastModifiedDateTime lt 2024-06-01T00:00:00Z and contains(name,'o')" },
    expected: (all) =>
      all.filter(
        (c) =>
          !c.blocked &&
          (c.birthDate >= '1990-01-01' || c.owner === undefined) &&
          time(c.lastModifiedDateTime) < time('2024-06-01T00:00:00Z') &&
          c.name.includes('o'),
      ),
  },
  { name: 'property compared with property', query: { $filter: 'visits gt balance' }, expected: (all) => all.filter((c) => c.visits > c.balance) },
  { name: '$orderby one key, ascending by default', query: { $orderby: 'name' }, expected: (all) => sorted(all, by('name')) },
  { name: '$orderby desc', query: { $orderby: 'balance desc' }, expected: (all) => sorted(all, by('balance', -1)) },
  { name: '$orderby several keys', query: { $orderby: 'visits desc,balance asc' }, expected: (all) => sorted(all, then(by('visits', -1), by('balance'))) },
  { name: '$orderby a key with nulls: first ascending', query: { $orderby: 'city,name' }, expected: (all) => sorted(all, then(by('city'), by('name'))) },
  {
    name: '$orderby a key with nulls: last descending',
    query: { $orderby: 'city desc,name' },
    expected: (all) => sorted(all, then(by('city', -1), by('name'))),
  },
  {
    name: '$orderby a date-time',
    query: { $orderby: 'lastModifiedDateTime desc' },
    expected: (all) => [...all].sort((a, b) => time(b.lastModifiedDateTime) - time(a.lastModifiedDateTime)),
  },
  { name: '$top', query: { $top: '4' }, expected: (all) => all.slice(0, 4) },
  { name: '$top 0', query: { $top: '0' }, expected: () => [] },
  { name: '$skip', query: { $skip: '8' }, expected: (all) => all.slice(8) },
  { name: '$skip past the end', query: { $skip: '50' }, expected: () => [] },
  {
    name: '$filter, $orderby, $skip and $top together (top and skip after filter and order)',
    query: { $filter: 'blocked eq false', $orderby: 'balance desc', $skip: '1', $top: '4' },
    expected: (all) =>
      sorted(
        all.filter((c) => !c.blocked),
        by('balance', -1),
      ).slice(1, 5),
  },
  { name: '$select', query: { $select: 'name,city' }, select: ['name', 'city'], expected: (all) => all },
  { name: '$select *', query: { $select: '*' }, expected: (all) => all },
  { name: '$select keeps what the list schema requires (name)', query: { $select: 'city' }, select: ['city', 'name'], expected: (all) => all },
  {
    name: '$count with $filter and $top: the count of every match',
    query: { $count: 'true', $filter: "city eq 'Oslo'", $top: '2' },
    count: (all) => all.filter((c) => c.city === 'Oslo').length,
    expected: (all) => all.filter((c) => c.city === 'Oslo').slice(0, 2),
  },
  { name: '$count=false: no count', query: { $count: 'false', $top: '1' }, expected: (all) => all.slice(0, 1) },
  {
    name: '$expand of a declared navigation property, with $select ([] where the contact has none)',
    query: { $expand: 'addresses', $select: 'name' },
    select: ['name', 'addresses'],
    expected: (all) => all.map((c) => ({ ...c, addresses: c.addresses ?? [] })),
  },
];

/** A malformed, unsupported or undeclared option, and the option its 400 must name. */
const REFUSED: Array<{ name: string; path?: string; query: Record<string, string | string[]>; option: string; position?: number }> = [
  { name: 'a syntax error: an unknown operator', query: { $filter: "name eqq 'x'" }, option: '$filter', position: 4 },
  { name: 'a syntax error: an unterminated string', query: { $filter: "name eq 'x" }, option: '$filter', position: 8 },
  { name: 'a syntax error: an unclosed parenthesis', query: { $filter: "visits eq 1 and (name eq 'x' or blocked" }, option: '$filter', position: 16 },
  { name: 'a syntax error: a dangling and', query: { $filter: 'visits eq 1 and' }, option: '$filter' },
  {
    name: 'parentheses nested deeper than the mock reads',
    query: { $filter: `${'('.repeat(40)}visits eq 1${')'.repeat(40)}` },
    option: '$filter',
    position: 32,
  },
  { name: 'an unknown property', query: { $filter: "nme eq 'x'" }, option: '$filter', position: 0 },
  { name: 'a string compared with a number', query: { $filter: 'name eq 1' }, option: '$filter', position: 8 },
  { name: 'a function the mock does not implement', query: { $filter: "tolower(name) eq 'x'" }, option: '$filter', position: 0 },
  { name: 'an operator the mock does not implement', query: { $filter: 'visits add 1 eq 2' }, option: '$filter' },
  { name: 'an unknown property in $orderby', query: { $orderby: 'name,nope desc' }, option: '$orderby', position: 5 },
  { name: 'a malformed $orderby', query: { $orderby: 'name sideways' }, option: '$orderby' },
  { name: 'an unknown property in $select', query: { $select: 'name,,city' }, option: '$select', position: 5 },
  { name: '$expand of a plain property', query: { $expand: 'name' }, option: '$expand', position: 0 },
  { name: 'a negative $top', query: { $top: '-1' }, option: '$top' },
  { name: 'a $skip that is no number', query: { $skip: 'abc' }, option: '$skip' },
  { name: '$count that is no boolean', query: { $count: 'maybe' }, option: '$count' },
  { name: 'an option the operation does not declare', query: { $search: 'oslo' }, option: '$search' },
  { name: 'an option another set declares but this one does not', path: 'notes', query: { $filter: "text eq 'x'" }, option: '$filter' },
  { name: 'an option given twice', query: { $top: ['1', '2'] }, option: '$top' },
];

let mock: Mock;
beforeAll(async () => {
  mock = await startMock({ port: 0, documents: [{ api: 'odata-query', version: 'v7.0', family: 'business-central', document: DOCUMENT }] });
}, 60_000);
afterAll(() => mock?.close());
beforeEach(() => {
  mock.reset();
  mock.seed({ entities: CONTACTS.map((entity) => ({ company: COMPANY, set: 'contacts', entity: { ...entity } })), pageSizes: { contacts: PAGE_SIZE } });
});

const listUrl = (query: Record<string, string | string[]>, set = 'contacts') => {
  const search = Object.entries(query)
    .flatMap(([name, values]) => [values].flat().map((value) => `${name}=${encodeURIComponent(value)}`))
    .join('&');
  return `${mock.url}/api/v7.0/companies(${COMPANY})/${set}${search ? `?${search}` : ''}`;
};

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { ...AUTH, ...headers } });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Every page of a query: the pages' bodies, following @odata.nextLink to the end. */
async function allPages(url: string, headers: Record<string, string> = {}) {
  const pages = [];
  for (let next: string | undefined = url; next; ) {
    const page = await get(next, headers);
    expect(page.status, `${next}: ${JSON.stringify(page.body)}`).toBe(200);
    pages.push(page.body);
    next = page.body['@odata.nextLink'];
    expect(pages.length).toBeLessThanOrEqual(CONTACTS.length + 1);
  }
  return pages;
}

describe('the query options a list declares, answered as OData defines them', () => {
  it('has at least 30 cases, every one over more than one page somewhere', () => {
    expect(CASES.length + REFUSED.length).toBeGreaterThanOrEqual(30);
    expect(CASES.some((c) => c.expected(CONTACTS).length > PAGE_SIZE)).toBe(true);
  });

  it.each(CASES)('$name', async ({ query, expected, select, count }) => {
    const pages = await allPages(listUrl(query));
    const want = expected(CONTACTS);
    const got = pages.flatMap((page) => page.value);
    // $select: the key and the named properties; related entities only when expanded.
    const shape = (c: Contact) =>
      select ? Object.fromEntries(Object.entries(c).filter(([key]) => key === 'id' || select.includes(key as keyof Contact))) : omitNavigation(c);
    expect(got).toEqual(want.map(shape));
    // Pages hold the server's page size, and only the last one has no next link.
    expect(pages.map((page) => page.value.length)).toEqual(pagesOf(want.length));
    for (const page of pages) expect('@odata.count' in page).toBe(count !== undefined);
    if (count) for (const page of pages) expect(page['@odata.count']).toBe(count(CONTACTS));
  });

  it("the next link stays on the mock's origin and holds the whole query", async () => {
    const query = { $filter: 'blocked eq false', $orderby: 'name desc', $select: 'name' };
    const first = await get(listUrl(query));
    const next = new URL(first.body['@odata.nextLink']);
    expect(next.origin).toBe(mock.url);
    expect(Object.fromEntries([...next.searchParams].filter(([name]) => name !== '$skiptoken'))).toEqual(query);
  });

  it('Prefer: odata.maxpagesize asks for smaller pages, on every page, and says it was applied', async () => {
    const prefer = { prefer: 'odata.maxpagesize=2' };
    const first = await get(listUrl({ $orderby: 'visits' }), prefer);
    expect(first.headers.get('preference-applied')).toBe('odata.maxpagesize=2');
    const pages = await allPages(listUrl({ $orderby: 'visits' }), prefer);
    expect(pages.map((page) => page.value.length)).toEqual([2, 2, 2, 2, 2]);
    expect(pages.flatMap((page) => page.value)).toEqual(sorted(CONTACTS, by('visits')).map(omitNavigation));
    // More than the server's page size: the server's size, and no Preference-Applied.
    const larger = await get(listUrl({}), { prefer: 'odata.maxpagesize=50' });
    expect(larger.body.value).toHaveLength(PAGE_SIZE);
    expect(larger.headers.get('preference-applied')).toBeNull();
  });

  it("the server page size is the test API's (seed pageSizes), also over HTTP", async () => {
    const admin = await fetch(`${mock.adminUrl}/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pageSizes: { contacts: 4 } }),
    });
    expect(admin.status).toBe(200);
    expect((await allPages(listUrl({}))).map((page) => page.value.length)).toEqual([4, 4, 2]);
    expect(mock.state.pageSizes).toEqual({ contacts: 4 });
    expect(() => mock.seed({ pageSizes: { nowhere: 2 } })).toThrow(/nowhere/);
  });

  it.each(REFUSED)('400 naming the option: $name', async ({ query, option, position, path }) => {
    const { status, body } = await get(listUrl(query, path));
    expect(status).toBe(400);
    expect(body.error.code).toBe('BadRequest');
    expect(body.error.target).toBe(option);
    expect(body.error.message).toContain(option);
    if (position !== undefined) expect(body.error.message).toContain(`at position ${position}:`);
  });

  it('a next link the mock did not give is refused', async () => {
    expect((await get(listUrl({ $skiptoken: 'abc' }))).status).toBe(400);
    expect((await get(listUrl({ $skiptoken: '99' }))).status).toBe(400);
  });
});

const omitNavigation = ({ addresses: _addresses, ...rest }: Contact) => rest;
const pagesOf = (n: number) => (n === 0 ? [0] : Array.from({ length: Math.ceil(n / PAGE_SIZE) }, (_, i) => Math.min(PAGE_SIZE, n - i * PAGE_SIZE)));
