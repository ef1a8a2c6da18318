// What the mock rejects, and how: one row per rule, sent over raw HTTP because the typed
// clients would not let most of these requests be built. Each answer must have the
// expected status, say what was wrong in its body (the family's error model:
// `{ error: { code, message } }`, never a placeholder), and carry the expected code.
import { describe, expect, it } from 'vitest';
import {
  errorModelViolations,
  label,
  methodNotDeclared,
  operation,
  prefixNotDeclaring,
  send,
  validRequest,
  type OperationId,
  type RawRequest,
} from './support.js';

interface Rule {
  operationId: OperationId;
  scenario: string;
  change: (request: RawRequest) => RawRequest;
  status: number;
  /** Found in the body's error.message. */
  says?: RegExp;
  /** The body's error.code. */
  code?: string;
}

const headers = (change: (h: Record<string, string>) => Record<string, string>) => (r: RawRequest) => ({ ...r, headers: change({ ...r.headers }) });
const without = (name: string) =>
  headers((h) => {
    delete h[name];
    return h;
  });
const withHeader = (name: string, value: string) => headers((h) => ({ ...h, [name]: value }));
const query = (change: (q: string) => string) => (r: RawRequest) => {
  const [path, q = ''] = r.path.split('?');
  const next = change(q);
  return { ...r, path: next ? `${path}?${next}` : path! };
};
const path = (change: (p: string) => string) => (r: RawRequest) => ({ ...r, path: change(r.path) });
const body =
  (text: string, contentType = 'application/json') =>
  (r: RawRequest) => ({ ...r, body: text, headers: { ...r.headers, 'content-type': contentType } });
const json = (value: unknown) => body(JSON.stringify(value));
const noApiVersion = query((q) => q.replace(/(^|&)api-version=[^&]*/, ''));

const ROLE = 'RoleEligibilityScheduleRequests_Get';
const NAME = 'Servers_CheckNameAvailability';
const IMAGES = 'Location_ListCachedImages';
const VENDOR = 'updateVendor';
const SHIP = 'createShipmentMethod';

const rules: Rule[] = [
  // api-version is required on every resource-management operation, in the family's error
  {
    operationId: ROLE,
    scenario: 'no api-version',
    change: noApiVersion,
    status: 400,
    code: 'MissingApiVersionParameter',
    says: /query parameter api-version is required/,
  },
  {
    operationId: IMAGES,
    scenario: 'no api-version',
    change: noApiVersion,
    status: 400,
    code: 'MissingApiVersionParameter',
    says: /query parameter api-version is required/,
  },
  {
    operationId: NAME,
    scenario: 'no api-version',
    change: noApiVersion,
    status: 400,
    code: 'MissingApiVersionParameter',
    says: /query parameter api-version is required/,
  },
  {
    operationId: ROLE,
    scenario: 'empty api-version',
    change: query((q) => q.replace(/api-version=[^&]*/, 'api-version=')),
    status: 400,
    code: 'MissingApiVersionParameter',
    says: /api-version is required/,
  },
  {
    operationId: NAME,
    scenario: 'api-version no document declares',
    change: query((q) => q.replace(/api-version=[^&]*/, 'api-version=2019-01-01')),
    status: 400,
    code: 'InvalidApiVersionParameter',
    says: /'2019-01-01'.*versions served.*2025-01-01/,
  },
  {
    operationId: IMAGES,
    scenario: 'api-version given twice',
    change: query((q) => `${q}&api-version=2025-09-01`),
    status: 400,
    code: 'InvalidApiVersionParameter',
    says: /given 2 times/,
  },
  // GUID path parameters
  {
    operationId: IMAGES,
    scenario: 'subscription id not a UUID',
    change: path((p) => p.replace(/subscriptions\/[^/]+/, 'subscriptions/not-a-guid')),
    status: 400,
    code: 'InvalidParameter',
    says: /subscriptionid.*uuid/i,
  },
  {
    operationId: ROLE,
    scenario: 'request name not a UUID',
    change: path((p) => p.replace(/[^/]+\?/, 'not-a-guid?')),
    status: 400,
    code: 'InvalidParameter',
    says: /roleeligibilityschedulerequestname.*uuid/i,
  },
  {
    operationId: VENDOR,
    scenario: 'vendor id not a UUID',
    change: path((p) => p.replace(/vendors\([^)]+\)/, 'vendors(42)')),
    status: 400,
    code: 'BadRequest',
    says: /vendor_id.*uuid/i,
  },
  // the name check's body: the source's two 400 codes
  {
    operationId: NAME,
    scenario: 'unknown type',
    change: json({ name: 'sales-db-west-02', type: 'Provider.Sql/databases' }),
    status: 400,
    code: 'UnknownNameType',
    says: /'Provider.Sql\/databases'/,
  },
  {
    operationId: NAME,
    scenario: 'no name',
    change: json({ type: 'Provider.Sql/servers' }),
    status: 400,
    code: 'InvalidNameAvailabilityRequest',
    says: /required property 'name'/,
  },
  {
    operationId: NAME,
    scenario: 'name not a string',
    change: json({ name: 7, type: 'Provider.Sql/servers' }),
    status: 400,
    code: 'InvalidNameAvailabilityRequest',
    says: /name.*string/,
  },
  { operationId: NAME, scenario: 'body not JSON', change: body('{"name": sales'), status: 400, code: 'InvalidNameAvailabilityRequest', says: /not valid JSON/ },
  {
    operationId: NAME,
    scenario: 'body sent as text/plain',
    change: body('sales-db', 'text/plain'),
    status: 400,
    code: 'InvalidNameAvailabilityRequest',
    says: /application\/json/,
  },
  {
    operationId: NAME,
    scenario: 'no body',
    change: (r) => ({ ...without('content-type')(r), body: undefined }),
    status: 400,
    code: 'InvalidNameAvailabilityRequest',
    says: /[Bb]ody/,
  },
  // If-Match and the vendor body
  { operationId: VENDOR, scenario: 'no If-Match', change: without('if-match'), status: 400, code: 'BadRequest', says: /if-match/i },
  { operationId: VENDOR, scenario: 'empty If-Match', change: withHeader('if-match', ''), status: 400, code: 'BadRequest', says: /if-match/i },
  { operationId: VENDOR, scenario: 'body not JSON', change: body('{displayName:'), status: 400, code: 'BadRequest', says: /not valid JSON/ },
  {
    operationId: VENDOR,
    scenario: 'body sent as text/plain',
    change: body('displayName=x', 'text/plain'),
    status: 415,
    code: 'UnsupportedMediaType',
    says: /application\/json/,
  },
  { operationId: VENDOR, scenario: 'body a JSON array', change: json([{ displayName: 'x' }]), status: 400, code: 'BadRequest', says: /must be object/ },
  { operationId: VENDOR, scenario: 'field of the wrong type', change: json({ taxLiable: 'yes' }), status: 400, code: 'BadRequest', says: /taxLiable.*boolean/ },
  { operationId: VENDOR, scenario: 'JSON null body', change: body('null'), status: 400, code: 'BadRequest' },
  { operationId: SHIP, scenario: 'body not JSON', change: body('code=EXW'), status: 400, code: 'BadRequest', says: /not valid JSON/ },
  { operationId: SHIP, scenario: 'code of the wrong type', change: json({ code: 7 }), status: 400, code: 'BadRequest', says: /code.*string/ },
  {
    operationId: SHIP,
    scenario: 'charset other than UTF-8',
    change: withHeader('content-type', 'application/json; charset=klingon'),
    status: 415,
    code: 'UnsupportedMediaType',
    says: /charset=klingon/,
  },
  {
    operationId: SHIP,
    scenario: 'gzip Content-Encoding',
    change: withHeader('content-encoding', 'gzip'),
    status: 415,
    code: 'UnsupportedMediaType',
    says: /Content-Encoding/,
  },
  // security: every operation that declares it; the name check declares none (source gap)
  ...([ROLE, IMAGES] as const).map((operationId) => ({
    operationId,
    scenario: 'no token',
    change: without('authorization'),
    status: 401,
    code: 'AuthenticationFailed',
    says: /Bearer/,
  })),
  ...([VENDOR, SHIP] as const).map((operationId) => ({
    operationId,
    scenario: 'no token',
    change: without('authorization'),
    status: 401,
    code: 'Unauthorized',
    says: /Bearer/,
  })),
  {
    operationId: VENDOR,
    scenario: 'Basic instead of Bearer',
    change: withHeader('authorization', 'Basic dXNlcjpwYXNz'),
    status: 401,
    code: 'Unauthorized',
    says: /Bearer/,
  },
  { operationId: NAME, scenario: 'no token (its authentication is not shown in the source: accepted)', change: without('authorization'), status: 200 },
  // routes
  // The prefix and the method are picked from the documents: one that does not declare the operation, one the path does not have.
  ...([VENDOR, SHIP] as const).map((operationId) => {
    const prefix = prefixNotDeclaring(operation(operationId));
    return {
      operationId,
      scenario: `under a version prefix that does not declare it (${prefix})`,
      change: path((p) => p.replace(/^\/api\/v\d+\.\d+(?=\/)/, prefix)),
      status: 404,
      code: 'NotFound',
      says: /No operation is served/,
    };
  }),
  {
    operationId: VENDOR,
    scenario: 'without its prefix',
    change: path((p) => p.replace(/^\/api\/v\d+\.\d+(?=\/)/, '')),
    status: 404,
    code: 'NotFound',
    says: /No operation is served/,
  },
  {
    operationId: IMAGES,
    scenario: 'unknown route',
    change: path(() => '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Nope/things'),
    status: 404,
    code: 'NotFound',
    says: /No operation is served/,
  },
  ...([VENDOR, ROLE, IMAGES] as const).map((operationId) => {
    const op = operation(operationId);
    const method = methodNotDeclared(op);
    return {
      operationId,
      scenario: `undeclared method (${method})`,
      change: (r: RawRequest) => ({ ...r, method, body: undefined }),
      status: 405,
      code: 'MethodNotAllowed',
      says: new RegExp(`allowed: (.*, )?${op.method}\\b`),
    };
  }),
  {
    operationId: ROLE,
    scenario: 'Accept: application/xml',
    change: withHeader('accept', 'application/xml'),
    status: 406,
    code: 'NotAcceptable',
    says: /accept/i,
  },
  // malformed headers and targets that take bare Prism 5.14 down or make it answer 500
  { operationId: ROLE, scenario: 'Accept: ;;; (Prism: process exit)', change: withHeader('accept', ';;;'), status: 400, says: /Accept/ },
  { operationId: IMAGES, scenario: 'Accept: */*;q=abc (Prism: 500)', change: withHeader('accept', '*/*;q=abc'), status: 400, says: /q=abc/ },
  {
    operationId: IMAGES,
    scenario: 'Content-Type: json on a GET (Prism: process exit)',
    change: withHeader('content-type', 'json'),
    status: 415,
    says: /"json" is not a media type/,
  },
  {
    operationId: ROLE,
    scenario: 'Content-Type: /// on a GET (Prism: process exit)',
    change: withHeader('content-type', '///'),
    status: 415,
    says: /not a media type/,
  },
  {
    operationId: SHIP,
    scenario: 'Content-Type: /// with a body (Prism: 500)',
    change: withHeader('content-type', '///'),
    status: 415,
    says: /not a media type/,
  },
  { operationId: IMAGES, scenario: 'GET /\\ (Prism: 500)', change: path(() => '/\\'), status: 400, says: /backslash/ },
  {
    operationId: IMAGES,
    scenario: 'GET /\\evil.example/... (Prism: read as a host, 200)',
    change: path((p) => `/\\evil.example${p}`),
    status: 400,
    says: /backslash/,
  },
  {
    operationId: ROLE,
    scenario: 'malformed percent-encoding in the path (Prism: process exit)',
    change: path((p) => p.replace('64caffb6', '%E0%A4%A')),
    status: 400,
    says: /percent-encoding/,
  },
  // Prefer
  {
    operationId: IMAGES,
    scenario: 'Prefer: code=100 (Prism: sent as a final status, the client hangs)',
    change: withHeader('prefer', 'code=100'),
    status: 400,
    says: /final HTTP status \(200-599\)/,
  },
  { operationId: ROLE, scenario: 'Prefer: code=000', change: withHeader('prefer', 'code=000'), status: 400, says: /200-599/ },
  { operationId: ROLE, scenario: '__code=999 in the query', change: query((q) => `${q}&__code=999`), status: 400, says: /200-599/ },
  { operationId: NAME, scenario: 'Prefer: example=<unknown>', change: withHeader('prefer', 'example=Taken'), status: 404, code: 'NotFound', says: /Taken/ },
  {
    operationId: NAME,
    scenario: 'Prefer: code=418 (not declared, no default)',
    change: withHeader('prefer', 'code=418'),
    status: 404,
    code: 'NotFound',
    says: /418/,
  },
  {
    operationId: ROLE,
    scenario: 'Prefer: code=404 (served from default)',
    change: withHeader('prefer', 'code=404'),
    status: 404,
    code: 'NotFound',
    says: /asked for it/,
  },
  {
    operationId: VENDOR,
    scenario: 'Prefer: code=412 (served from default)',
    change: withHeader('prefer', 'code=412'),
    status: 412,
    code: 'PreconditionFailed',
    says: /asked for it/,
  },
  {
    operationId: NAME,
    scenario: 'Prefer: code=400, example=Invalid (a 200 example)',
    change: withHeader('prefer', 'code=400, example=Invalid'),
    status: 404,
    says: /code=400 and example=Invalid/,
  },
  {
    operationId: VENDOR,
    scenario: 'Prefer: code=412, example=BlockPayment (a 200 example)',
    change: withHeader('prefer', 'code=412, example=BlockPayment'),
    status: 404,
    says: /code=412 and example=BlockPayment/,
  },
  { operationId: ROLE, scenario: 'Prefer: code=abc', change: withHeader('prefer', 'code=abc'), status: 400, says: /code=abc/ },
  { operationId: ROLE, scenario: 'Prefer: dynamic=maybe', change: withHeader('prefer', 'dynamic=maybe'), status: 400, says: /dynamic=maybe/ },
];

describe('rules: what the mock rejects', () => {
  it.each(rules.map((r) => [label(r.operationId, r.scenario), r] as const))('%s', async (name, rule) => {
    const response = await send(rule.change(validRequest(operation(rule.operationId))));
    const error = (response.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const violations = [
      ...(response.status === rule.status ? [] : [`status ${response.status}, expected ${rule.status}: ${response.text.slice(0, 300)}`]),
      ...(rule.status < 400 ? [] : errorModelViolations(error, response.text)),
      ...(rule.code && error?.code !== rule.code ? [`error.code ${String(error?.code)}, expected ${rule.code}`] : []),
      ...(rule.says && !rule.says.test(String(error?.message)) ? [`error.message does not say ${rule.says}: ${response.text.slice(0, 300)}`] : []),
    ];
    expect(violations, name).toEqual([]);
  });
});
