// What the mock rejects, and how: one row per rule of issue 4, sent over raw HTTP because
// the typed clients would not let most of these requests be built. Each answer must have
// the expected status and say what was wrong, in the `sl-violations` header (Prism's
// channel) or in the body.
import { describe, expect, it } from 'vitest';
import { label, operation, send, validRequest, type OperationId, type RawRequest } from './support.js';

interface Rule {
  operationId: OperationId;
  scenario: string;
  change: (request: RawRequest) => RawRequest;
  status: number;
  /** Found in the sl-violations header or the body. */
  says?: RegExp;
}

const headers = (change: (h: Record<string, string>) => Record<string, string>) => (r: RawRequest) => ({ ...r, headers: change({ ...r.headers }) });
const without = (name: string) => headers((h) => (delete h[name], h));
const withHeader = (name: string, value: string) => headers((h) => ({ ...h, [name]: value }));
const query = (change: (q: string) => string) => (r: RawRequest) => {
  const [path, q = ''] = r.path.split('?');
  const next = change(q);
  return { ...r, path: next ? `${path}?${next}` : path! };
};
const path = (change: (p: string) => string) => (r: RawRequest) => ({ ...r, path: change(r.path) });
const body = (text: string, contentType = 'application/json') => (r: RawRequest) => ({ ...r, body: text, headers: { ...r.headers, 'content-type': contentType } });
const json = (value: unknown) => body(JSON.stringify(value));
const noApiVersion = query((q) => q.replace(/(^|&)api-version=[^&]*/, ''));

const ROLE = 'RoleEligibilityScheduleRequests_Get';
const NAME = 'Servers_CheckNameAvailability';
const IMAGES = 'Location_ListCachedImages';
const VENDOR = 'updateVendor';
const SHIP = 'createShipmentMethod';

const rules: Rule[] = [
  // api-version is required on every resource-management operation
  { operationId: ROLE, scenario: 'no api-version', change: noApiVersion, status: 422, says: /api-version/ },
  { operationId: IMAGES, scenario: 'no api-version', change: noApiVersion, status: 422, says: /api-version/ },
  { operationId: NAME, scenario: 'no api-version (the spec declares a 400)', change: noApiVersion, status: 400, says: /api-version/ },
  { operationId: ROLE, scenario: 'empty api-version', change: query((q) => q.replace(/api-version=[^&]*/, 'api-version=')), status: 422, says: /api-version/ },
  // GUID path parameters
  { operationId: IMAGES, scenario: 'subscription id not a UUID', change: path((p) => p.replace(/subscriptions\/[^/]+/, 'subscriptions/not-a-guid')), status: 422, says: /subscriptionid.*uuid/i },
  { operationId: ROLE, scenario: 'request name not a UUID', change: path((p) => p.replace(/[^/]+\?/, 'not-a-guid?')), status: 422, says: /roleeligibilityschedulerequestname.*uuid/i },
  { operationId: VENDOR, scenario: 'vendor id not a UUID', change: path((p) => p.replace(/vendors\([^)]+\)/, 'vendors(42)')), status: 422, says: /vendor_id.*uuid/i },
  // the name check's body
  { operationId: NAME, scenario: 'unknown type', change: json({ name: 'sales-db-west-02', type: 'Provider.Sql/databases' }), status: 400, says: /type.*allowed values/ },
  { operationId: NAME, scenario: 'no name', change: json({ type: 'Provider.Sql/servers' }), status: 400, says: /required property 'name'/ },
  { operationId: NAME, scenario: 'body not JSON', change: body('{"name": sales'), status: 400, says: /Invalid JSON/ },
  { operationId: NAME, scenario: 'body sent as text/plain', change: body('sales-db', 'text/plain'), status: 400, says: /Supported content types: application\/json/ },
  { operationId: NAME, scenario: 'no body', change: (r) => ({ ...without('content-type')(r), body: undefined }), status: 400, says: /Body parameter is required/ },
  // If-Match and the vendor body
  { operationId: VENDOR, scenario: 'no If-Match', change: without('if-match'), status: 422, says: /if-match/ },
  { operationId: VENDOR, scenario: 'empty If-Match', change: withHeader('if-match', ''), status: 422, says: /if-match/ },
  { operationId: VENDOR, scenario: 'body not JSON', change: body('{displayName:'), status: 400, says: /Invalid JSON/ },
  { operationId: VENDOR, scenario: 'body sent as text/plain', change: body('displayName=x', 'text/plain'), status: 415, says: /Supported content types: application\/json/ },
  { operationId: VENDOR, scenario: 'body a JSON array', change: json([{ displayName: 'x' }]), status: 422, says: /body must be object/ },
  { operationId: VENDOR, scenario: 'field of the wrong type', change: json({ taxLiable: 'yes' }), status: 422, says: /taxLiable.*boolean/ },
  { operationId: SHIP, scenario: 'body not JSON', change: body('code=EXW'), status: 400, says: /Invalid JSON/ },
  { operationId: SHIP, scenario: 'code of the wrong type', change: json({ code: 7 }), status: 422, says: /code.*string/ },
  // security: every operation that declares it; the name check declares none (source gap)
  ...([ROLE, IMAGES, VENDOR, SHIP] as const).map((operationId) => ({ operationId, scenario: 'no token', change: without('authorization'), status: 401, says: /security/i })),
  { operationId: VENDOR, scenario: 'Basic instead of Bearer', change: withHeader('authorization', 'Basic dXNlcjpwYXNz'), status: 401, says: /security/i },
  { operationId: NAME, scenario: 'no token (its authentication is not shown in the source: accepted)', change: without('authorization'), status: 200 },
  // routes
  { operationId: SHIP, scenario: 'under the other version prefix (/api/v2.0)', change: path((p) => p.replace('/api/v1.0/', '/api/v2.0/')), status: 404, says: /NO_PATH_MATCHED/ },
  { operationId: VENDOR, scenario: 'without its prefix', change: path((p) => p.replace('/api/v2.0', '')), status: 404, says: /NO_PATH_MATCHED/ },
  { operationId: IMAGES, scenario: 'unknown route', change: path(() => '/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Nope/things'), status: 404, says: /NO_PATH_MATCHED/ },
  { operationId: VENDOR, scenario: 'undeclared method (DELETE)', change: (r) => ({ ...r, method: 'DELETE', body: undefined }), status: 405, says: /NO_METHOD_MATCHED/ },
  { operationId: ROLE, scenario: 'undeclared method on an unencoded scope (PUT)', change: (r) => ({ ...r, method: 'PUT' }), status: 405, says: /NO_METHOD_MATCHED/ },
  { operationId: ROLE, scenario: 'Accept: application/xml', change: withHeader('accept', 'application/xml'), status: 406, says: /NOT_ACCEPTABLE/ },
  // Prefer
  { operationId: NAME, scenario: 'Prefer: example=<unknown>', change: withHeader('prefer', 'example=Taken'), status: 404, says: /exampleKey: Taken/ },
  { operationId: NAME, scenario: 'Prefer: code=418 (not declared, no default)', change: withHeader('prefer', 'code=418'), status: 404, says: /418 is not defined/ },
  { operationId: ROLE, scenario: 'Prefer: code=404 (served from default)', change: withHeader('prefer', 'code=404'), status: 404 },
  { operationId: VENDOR, scenario: 'Prefer: code=412 (served from default)', change: withHeader('prefer', 'code=412'), status: 412 },
  { operationId: NAME, scenario: 'Prefer: code=400, example=Invalid (a 200 example)', change: withHeader('prefer', 'code=400, example=Invalid'), status: 404, says: /code=400 and example=Invalid/ },
  { operationId: ROLE, scenario: 'Prefer: code=abc', change: withHeader('prefer', 'code=abc'), status: 422, says: /code/ },
  { operationId: ROLE, scenario: 'Prefer: dynamic=maybe', change: withHeader('prefer', 'dynamic=maybe'), status: 422, says: /dynamic/ },
];

describe('rules: what the mock rejects', () => {
  it.each(rules.map((r) => [label(r.operationId, r.scenario), r] as const))('%s', async (name, rule) => {
    const response = await send(rule.change(validRequest(operation(rule.operationId))));
    const said = `${response.violations}\n${response.text}`;
    const violations = [
      ...(response.status === rule.status ? [] : [`status ${response.status}, expected ${rule.status}`]),
      ...(rule.says && !rule.says.test(said) ? [`the answer does not say ${rule.says}: ${said.slice(0, 300)}`] : []),
    ];
    expect(violations, name).toEqual([]);
  });
});
