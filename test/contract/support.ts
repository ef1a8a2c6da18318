// What the contract scenarios share: the operations (generated/operations.ts), their
// bundled documents, a valid request for each, a raw HTTP sender, and the check of an
// answer against the document. Everything is derived from the bundles, so a new example
// or operation becomes a new scenario without touching the tests.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { inject } from 'vitest';
import { operations } from '../../generated/operations.js';
import { bundleOf, deref, validatorFor } from '../helpers/bundles.js';

export type OperationId = (typeof operations)[number]['operationId'];
export type Operation = (typeof operations)[number];

export const mockUrl = () => inject('mockUrl');
export const TOKEN = 'Bearer contract.test.token';

const documents = new Map<string, any>();
export const documentOf = (op: Operation) => documents.get(op.api) ?? documents.set(op.api, bundleOf(op.api)).get(op.api);
const validators = new Map<string, ReturnType<typeof validatorFor>>();
const validatorOf = (op: Operation) => validators.get(op.api) ?? validators.set(op.api, validatorFor(documentOf(op))).get(op.api)!;

export const operation = (id: OperationId) => operations.find((o) => o.operationId === id)!;

/** The operation object of the bundled document, with its parameters dereferenced. */
export function specOf(op: Operation) {
  const doc = documentOf(op);
  const spec = doc.paths[op.path][op.method.toLowerCase()];
  return { doc, spec, params: (spec.parameters ?? []).map((p: any) => deref(doc, p)) as any[] };
}

/**
 * The company every business-data request of this test file is sent to: one per file
 * (a module instance each), so that what one file creates, patches or deletes in the
 * mock's shared store never changes what another file reads.
 */
export const COMPANY = randomUUID();

export const pathParam = (op: Operation, name: string): string => {
  if (name === 'company_id') return COMPANY;
  const param = specOf(op).params.find((p) => p.name === name && p.in === 'path');
  // Lint guarantees one (house-parameter-example).
  const value = param?.example ?? deref(specOf(op).doc, Object.values<any>(param?.examples ?? {})[0])?.value;
  if (value === undefined) throw new Error(`${op.operationId}: path parameter ${name} has no example: give it one in the spec`);
  return String(value);
};

/** Path parameter values of a valid request, as the typed clients take them. */
export const pathParams = (op: Operation) =>
  Object.fromEntries(
    specOf(op)
      .params.filter((p) => p.in === 'path')
      .map((p) => [p.name, pathParam(op, p.name)]),
  );

/** Request-body examples of an operation, by scenario name. */
export function requestExamples(op: Operation): Record<string, unknown> {
  const { doc, spec } = specOf(op);
  const body = spec.requestBody ? deref(doc, spec.requestBody) : undefined;
  const examples = body?.content?.['application/json']?.examples ?? {};
  return Object.fromEntries(Object.entries<any>(examples).map(([key, ex]) => [key, deref(doc, ex).value]));
}

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (no normalisation). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A valid request for an operation as a real client sends it: the scope unencoded, OData
 * parentheses literal, the api-version of the manifest, the token, If-Match, a JSON body.
 */
export function validRequest(op: Operation, scenario?: string): RawRequest {
  const { doc, spec, params } = specOf(op);
  // A multi-segment parameter (x-ms-skip-url-encoding, as the scope) is sent with its slashes.
  const segments = new Set(params.filter((p) => p.in === 'path' && p['x-ms-skip-url-encoding'] === true).map((p) => p.name));
  const path = `${'prefix' in op ? op.prefix : ''}${op.path}`.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParam(op, name);
    return segments.has(name) ? value : encodeURIComponent(value);
  });
  const query = 'apiVersion' in op ? `?api-version=${op.apiVersion}` : '';
  // What its success answers in: JSON for most, text for a `/$count`.
  const success = Object.entries<any>(spec.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const accept = Object.keys(deref(doc, success)?.content ?? {})[0] ?? 'application/json';
  const headers: Record<string, string> = { authorization: TOKEN, accept };
  // `*` matches whatever tag the (stateful) vendor has now: scenarios stay independent.
  if (params.some((p) => p.in === 'header' && p.name === 'If-Match')) headers['if-match'] = '*';
  const bodies = requestExamples(op);
  const body = (scenario !== undefined && scenario in bodies ? bodies[scenario] : Object.values(bodies)[0]) as unknown;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { method: op.method, path: path + query, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
  /** Prism's `sl-violations` header: what was wrong with the request (or response). */
  violations: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Sends exactly the given request (node:http: no path normalisation, any header value). */
export function send(request: RawRequest, base = mockUrl()): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: request.method, path: request.path, headers: request.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json, violations: String(res.headers['sl-violations'] ?? '') });
      });
    });
    req.on('error', reject);
    if (request.body !== undefined) req.setHeader('content-length', Buffer.byteLength(request.body));
    req.end(request.body);
  });
}

/** Whether an operation has any named example: in a parameter, its request body or a response. */
export function hasNamedExample(op: Operation): boolean {
  const { doc, spec, params } = specOf(op);
  const named = (node: any) => Object.keys(deref(doc, node)?.examples ?? {}).length > 0;
  const media = (holder: any) => Object.values<any>(deref(doc, holder)?.content ?? {}).some(named);
  return params.some(named) || media(spec.requestBody) || Object.values<any>(spec.responses ?? {}).some(media);
}

/** Every named example of every response of every operation: one scenario each. */
export interface ExampleScenario {
  /** The operation of one version: an operationId names one per version of its API. */
  op: Operation;
  operationId: OperationId;
  scenario: string;
  status: number;
  mediaType: string;
  value: unknown;
  /** What a caller puts in Prefer to get this example. */
  prefer: string;
}

export function exampleScenarios(): ExampleScenario[] {
  return operations.flatMap((op) => {
    const { doc, spec } = specOf(op);
    const statuses = Object.keys(spec.responses).filter((s) => /^\d{3}$/.test(s));
    const first2xx = statuses.filter((s) => s.startsWith('2')).sort()[0];
    return statuses.flatMap((status) =>
      Object.entries<any>(deref(doc, spec.responses[status]).content ?? {}).flatMap(([mediaType, media]) =>
        Object.entries<any>(media.examples ?? {}).map(([scenario, example]) => ({
          op,
          operationId: op.operationId,
          scenario,
          status: Number(status),
          mediaType,
          value: deref(doc, example).value,
          // The lowest 2xx is Prism's default answer: the example name alone selects in it.
          prefer: status === first2xx ? `example=${scenario}` : `code=${status}, example=${scenario}`,
        })),
      ),
    );
  });
}

/**
 * What is wrong with an answer, measured against the document: the status must be one
 * the operation declares (or `default`), the content type the declared one, the body
 * valid against the declared schema. An empty list means it conforms.
 */
export function violationsOf(op: Operation, status: number, contentType: string | null | undefined, body: unknown): string[] {
  const { doc, spec } = specOf(op);
  const declared = spec.responses[String(status)] ?? spec.responses.default;
  if (!declared) return [`status ${status} is not declared (declared: ${Object.keys(spec.responses).join(', ')})`];
  const content = deref(doc, declared).content ?? {};
  // A response declared without content (a 204, say) must come without a body.
  if (Object.keys(content).length === 0) return body === undefined || body === '' ? [] : [`status ${status} declares no content but came with a body`];
  const mediaType = Object.keys(content).find((m) => (contentType ?? '').split(';')[0]!.trim() === m);
  if (!mediaType) return [`content type ${contentType} is not declared for ${status} (declared: ${Object.keys(content).join(', ')})`];
  const schema = content[mediaType].schema;
  if (!schema) return [];
  const { ok, errors } = validatorOf(op)(schema, body);
  return ok ? [] : [`body does not match the ${status} schema: ${errors}`];
}

/** The label of a scenario in test names and failure messages. */
export const label = (operationId: string, scenario: string) => `${operationId} / ${scenario}`;

/** An operation's name in labels: its operationId, with `@version` when several versions have it. */
export const nameOf = (op: Operation) =>
  operations.filter((o) => o.operationId === op.operationId).length > 1 ? `${op.operationId}@${op.version}` : op.operationId;

/** `{ error: { code, message } }` with real text: never null, never Prism's "string". */
export function errorModelViolations(error: { code?: unknown; message?: unknown } | undefined, text: string): string[] {
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') return [`not { error: { code, message } }: ${text.slice(0, 200)}`];
  if (error.code === 'string' || error.message === 'string' || error.message.length < 10) return [`a placeholder error: ${text.slice(0, 200)}`];
  return [];
}

/** A method the operation's path does not have in its document (for a 405), chosen from the documents. */
export function methodNotDeclared(op: Operation): string {
  const declared = Object.keys(documentOf(op).paths[op.path]).map((m) => m.toUpperCase());
  const method = ['DELETE', 'PUT', 'POST', 'PATCH', 'GET'].find((m) => !declared.includes(m));
  if (!method) throw new Error(`${op.operationId}: its path declares every method; no undeclared one to send`);
  return method;
}

/**
 * A business-data version prefix under which the operation is not served: another version
 * of the API that does not declare it, or, where every version declares it, one no document has.
 */
export function prefixNotDeclaring(op: Operation): string {
  const key = `${op.method} ${op.path}`;
  const declaring = new Set(operations.filter((o) => o.apiName === op.apiName && `${o.method} ${o.path}` === key).map((o) => o.version));
  const other = operations.find((o) => 'prefix' in o && o.apiName === op.apiName && !declaring.has(o.version));
  return other && 'prefix' in other ? String(other.prefix) : '/api/v0.9';
}
