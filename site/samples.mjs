// Code samples for every operation, made from the bundled document when the docs are
// built (never written per operation): a TypeScript call through this package's client
// and a curl command against the workspace's mock. Redoc shows them as tabs
// (`x-codeSamples`) in each operation's right panel; test/docs/samples.test.ts
// type-checks every TypeScript sample and runs every curl sample against the mock.
//
// What a sample says is read from the document: the family (which client), the path
// template, the parameters and their examples, the request body's first example, and
// the operation's shape (which call): see `sampleShape`.
import { INITIAL_STATUSES, LONG_RUNNING_METHODS, NEXT_LINK, pollingHeadersOf } from '../model/arm.mjs';
import { BUSINESS_CENTRAL, RESOURCE_MANAGER } from '../model/family.mjs';
import { ifMatchOf, isAnnotation, isNavigation, NEXT_LINK as ODATA_NEXT_LINK, queryMisfitsOf } from '../model/odata.mjs';
import { METHODS } from '../model/operations.mjs';
import { basePathOf } from '../model/servers.mjs';

/** A local `$ref` followed (bundled documents hold only local ones). */
export function deref(document, node) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops += 1) {
    if (!current.$ref.startsWith('#/')) return undefined;
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at, key) => at?.[key], document);
  }
  return current;
}

/** Every operation of a document: { path, method, operation, parameters (path-level ones included, dereferenced) }. */
export function operationsIn(document) {
  const list = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const pathItem = deref(document, item) ?? {};
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const own = (operation.parameters ?? []).map((p) => deref(document, p)).filter(Boolean);
      const inherited = (pathItem.parameters ?? []).map((p) => deref(document, p)).filter((p) => p && !own.some((o) => o.name === p.name && o.in === p.in));
      list.push({ path, method, operation, parameters: [...inherited, ...own] });
    }
  }
  return list;
}

/** The example value of a parameter: `example`, else its first named example, else the schema's. */
function parameterExample(document, parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {}).map((e) => deref(document, e)?.value);
  if (named.length) return named[0];
  const schema = deref(document, parameter.schema) ?? {};
  return schema.example ?? schema.examples?.[0] ?? schema.default ?? schema.enum?.[0];
}

/** The request body's first example value (named examples first), or undefined when it has none. */
function bodyExample(document, operation) {
  const body = deref(document, operation.requestBody);
  const media = body?.content?.['application/json'] ?? Object.values(body?.content ?? {})[0];
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {}).map((e) => deref(document, e)?.value);
  return named[0] ?? media.example ?? deref(document, media.schema)?.example;
}

/**
 * The example request of one operation, read from the document: what the samples send
 * and what the docs' "Try it" opens with. Values are strings (as typed into a form).
 */
export function exampleRequest(document, { path, method, operation, parameters }, family) {
  const odata = family === BUSINESS_CENTRAL ? odataQueryExample(document, operation, parameters) : {};
  const pick = (where) =>
    parameters
      .filter((p) => p.in === where)
      .map((p) => ({
        name: p.name,
        required: p.required === true,
        value: where === 'query' && p.name in odata ? odata[p.name] : stringOf(parameterExample(document, p)),
        keepSlashes: p['x-ms-skip-url-encoding'] === true,
        type: deref(document, p.schema)?.type,
      }));
  const statuses = Object.keys(operation.responses ?? {});
  const success = statuses.find((s) => /^2\d\d$/.test(s)) ?? statuses.find((s) => /^2XX$/i.test(s));
  return {
    family,
    method: method.toUpperCase(),
    path,
    prefix: basePathOf(document),
    operationId: operation.operationId,
    pathParams: pick('path'),
    query: pick('query'),
    headers: pick('header'),
    body: bodyExample(document, operation),
    secured: (operation.security ?? document.security ?? []).some((requirement) => Object.keys(requirement).length > 0),
    success: success === undefined ? undefined : Number(success.replace(/XX$/i, '00')),
  };
}

/**
 * The OData query options of a business-data list, as its samples and "Try it" send them:
 * each parameter's own example where it names what this entity has (model/odata.mjs),
 * else a value read from the entity's schema (a shared parameter's example may name a
 * property another entity lacks). Annotations (`@odata.etag`) are never taken for
 * properties. `$filter`: a text property starting with the first letter of its example
 * value (else `id ne null`); `$orderby`: that property; `$select`: the key and that
 * property; `$expand`: a related entity, or nothing. `$top`, `$skip`, `$count` keep their
 * own examples.
 */
export function odataQueryExample(document, operation, parameters = []) {
  const ok = deref(document, operation.responses?.['200']);
  const page = resolveSchema(document, ok?.content?.['application/json']?.schema);
  const item = resolveSchema(document, resolveSchema(document, page?.properties?.value)?.items);
  if (!item?.properties) return {};
  const resolve = (schema) => resolveSchema(document, schema);
  /** @type {[string, any][]} */
  const properties = Object.entries(item.properties)
    .filter(([name]) => !isAnnotation(name))
    .map(([name, schema]) => [name, resolve(schema) ?? {}]);
  const first = examplesOf(document, ok)
    .flatMap((value) => (Array.isArray(value?.value) ? value.value : []))
    .find((entity) => entity && typeof entity === 'object');
  const isText = (/** @type {[string, any]} */ [name, schema]) => name !== 'id' && [schema.type].flat().includes('string') && !schema.format && !schema.enum;
  const text = properties.find((p) => isText(p) && typeof first?.[p[0]] === 'string' && first[p[0]]) ?? properties.find(isText);
  const navigation = properties.find(([, schema]) => isNavigation(schema, resolve));
  const letter =
    String(first?.[String(text?.[0])] ?? 'A')
      .charAt(0)
      .replace(/'/g, "''") || 'A';
  // Without a text property: the key (`id`), else the first primitive property, else nothing.
  const plain =
    properties.find(([name]) => name === 'id') ?? properties.find(([, schema]) => !['object', 'array'].some((t) => [schema.type].flat().includes(t)));
  const name = text?.[0] ?? plain?.[0];
  const key = properties.some(([property]) => property === 'id') ? 'id' : undefined;
  const built = {
    $filter: text ? `startswith(${text[0]},'${letter}')` : name ? `${name} ne null` : '',
    $orderby: name ?? '',
    $select: [...new Set([key, name].filter(Boolean))].join(','),
    $expand: navigation ? navigation[0] : '',
  };
  const own = (option) => parameterExample(document, parameters.find((p) => p.in === 'query' && p.name === option) ?? {});
  const fits = (option, value) => typeof value === 'string' && queryMisfitsOf(option, value, Object.fromEntries(properties), resolve).length === 0;
  return Object.fromEntries(Object.entries(built).map(([option, value]) => [option, fits(option, own(option)) ? own(option) : value]));
}

/** The example values of a response's JSON content (named examples first). */
function examplesOf(document, response) {
  const media = response?.content?.['application/json'];
  return [...Object.values(media?.examples ?? {}).map((e) => deref(document, e)?.value), media?.example].filter((v) => v !== undefined);
}

const stringOf = (value) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The mock's base URL of a document: servers[0] with its variables at their defaults. */
export function mockUrlOf(document) {
  const server = document.servers?.[0];
  if (typeof server?.url !== 'string') return undefined;
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name) => server.variables?.[name]?.default ?? `{${name}}`);
  return /^https?:\/\//.test(url) && !/[{}]/.test(url) ? url.replace(/\/+$/, '') : undefined;
}

/**
 * Which call a TypeScript sample makes, from the operation's shape:
 *   'list'       a GET whose 200 body is a page (`value` array + `nextLink`) and whose
 *                client has `listAll`: every item, page after page;
 *   'etag-patch' a business-data PATCH with a required If-Match, when the client has
 *                `patchWithETag`: the tag given by name;
 *   'long-running' a resource-management PUT, PATCH, POST or DELETE whose 201 or 202
 *                answer declares `Azure-AsyncOperation` or `Location` (ARM's long-running
 *                pattern), when the client has `beginAndWait`: start it and wait;
 *   'call'       anything else: the typed path method (GET, POST, PATCH, ...).
 * `conveniences` names the client conveniences that exist (read from src/ by the caller).
 */
export function sampleShape(document, entry, family, conveniences = new Set()) {
  const { method, operation, parameters } = entry;
  if (method === 'get' && conveniences.has('listAll')) {
    const ok = deref(document, operation.responses?.['200']);
    const schema = resolveSchema(document, ok?.content?.['application/json']?.schema);
    // The link's name is the family's: `nextLink` (resource management), `@odata.nextLink` (business data).
    const link = family === BUSINESS_CENTRAL ? ODATA_NEXT_LINK : NEXT_LINK;
    if (resolveSchema(document, schema?.properties?.value)?.type === 'array' && schema?.properties?.[link]) return 'list';
  }
  if (family === RESOURCE_MANAGER && LONG_RUNNING_METHODS.includes(method) && conveniences.has('beginAndWait') && isLongRunning(document, operation))
    return 'long-running';
  if (family === BUSINESS_CENTRAL && method === 'patch' && conveniences.has('patchWithETag') && ifMatchOf(parameters)?.required) return 'etag-patch';
  return 'call';
}

/** ARM's long-running shape, as the clients' types read it: a 201 or 202 that declares a polling link header. */
export function isLongRunning(document, operation) {
  return INITIAL_STATUSES.some((status) => {
    const declared = pollingHeadersOf(deref(document, operation.responses?.[status]));
    return declared.asyncOperation || declared.location;
  });
}

function resolveSchema(document, schema) {
  const resolved = deref(document, schema);
  if (resolved?.allOf)
    return Object.assign({ properties: {} }, ...resolved.allOf.map((s) => resolveSchema(document, s)), {
      properties: Object.assign({}, ...resolved.allOf.map((s) => resolveSchema(document, s)?.properties ?? {})),
    });
  return resolved;
}

const FACTORY = {
  [RESOURCE_MANAGER]: { factory: 'createResourceManagerClient', name: 'arm' },
  [BUSINESS_CENTRAL]: { factory: 'createBusinessCentralClient', name: 'bc' },
};

const ts = (value) => JSON.stringify(value);
const tsKey = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : ts(name));
const tsObject = (entries) => (entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${tsKey(k)}: ${v}`).join(', ')} }`);
const tsValue = (value, indent) =>
  JSON.stringify(value, null, 2)
    .replace(/\n/g, `\n${indent}`)
    .replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');

/** The TypeScript sample of one operation: this package's client, the result narrowed with `ok`. */
export function typescriptSample(document, entry, family, conveniences) {
  const request = exampleRequest(document, entry, family);
  const { factory, name } = FACTORY[family] ?? FACTORY[RESOURCE_MANAGER];
  const mockUrl = new URL(mockUrlOf(document) ?? 'http://127.0.0.1:4010').origin;
  const shape = sampleShape(document, entry, family, conveniences);
  // resource management: the client fills in api-version; business data: the client adds /api/vX.Y.
  // A business-data list shows its query options (filtered and ordered, a page at a time).
  const odataList = shape === 'list' && family === BUSINESS_CENTRAL;
  const query = request.query.filter(
    (q) =>
      !(family === RESOURCE_MANAGER && q.name === 'api-version') && (q.required || (odataList && ['$filter', '$orderby'].includes(q.name) && q.value !== '')),
  );
  const headers = request.headers.filter((h) => h.required && !(shape === 'etag-patch' && h.name.toLowerCase() === 'if-match'));
  const params = [];
  if (request.pathParams.length) params.push(['path', tsObject(request.pathParams.map((p) => [p.name, ts(p.value)]))]);
  if (query.length) params.push(['query', tsObject(query.map((q) => [q.name, typedValue(q)]))]);
  if (headers.length) params.push(['header', tsObject(headers.map((h) => [h.name, ts(h.value)]))]);
  const init = [];
  if (params.length) init.push(`  params: {\n${params.map(([k, v]) => `    ${k}: ${v},`).join('\n')}\n  },`);
  if (shape === 'etag-patch') {
    const ifMatch = request.headers.find((h) => h.name.toLowerCase() === 'if-match');
    init.push(`  eTag: ${ts(ifMatch?.value ?? '*')}, // the ETag of your last read or update`);
  }
  if (request.body !== undefined) init.push(`  body: ${tsValue(request.body, '  ')},`);
  if (odataList) init.push(`  headers: { Prefer: 'odata.maxpagesize=50' }, // at most 50 a page; listAll reads them all`);
  const initText = init.length ? `, {\n${init.join('\n')}\n}` : '';
  const options = [`baseUrl: ${ts(mockUrl)}`];
  if (request.secured) options.push(`token: ${ts('<ACCESS_TOKEN>')}`);
  const head = [
    `import { ${factory} } from 'provider-api-clients';`,
    '',
    `// ${mockUrl} is the workspace's mock (npm run mock); use your service's address.`,
    `const ${name} = ${factory}({ ${options.join(', ')} });`,
    '',
  ];
  if (shape === 'list') {
    return [
      ...head,
      odataList
        ? `// Every match, in order, following @odata.nextLink page after page (same origin only).`
        : `// Every item, following nextLink page after page (same origin only).`,
      `for await (const item of ${name}.listAll(${ts(request.path)}${initText})) {`,
      '  console.log(item);',
      '}',
      '',
    ].join('\n');
  }
  if (shape === 'long-running') {
    const done = request.method === 'DELETE' ? `console.log('deleted');` : 'console.log(resource);';
    return [
      ...head,
      `// Starts the long-running operation and waits until it is done: the status monitor`,
      `// (Azure-AsyncOperation) before Location, Retry-After honoured, the result read where the`,
      `// document says. Failed or Canceled rejects with a ClientError carrying the service's error.`,
      `${request.method === 'DELETE' ? 'await' : 'const resource = await'} ${name}.beginAndWait(${ts(request.method)}, ${ts(request.path)}${initText || ', {}'});`,
      done,
      '',
    ].join('\n');
  }
  const call = shape === 'etag-patch' ? `${name}.patchWithETag(${ts(request.path)}${initText})` : `${name}.${request.method}(${ts(request.path)}${initText})`;
  return [
    ...head,
    `const { ok, data, error, response } = await ${call};`,
    'if (ok) console.log(response.status, data);',
    'else console.error(response.status, error);',
    '',
  ].join('\n');
}

/** A query value as TypeScript: a number or boolean where the parameter's schema says so. */
function typedValue(q) {
  if ((q.type === 'integer' || q.type === 'number') && q.value !== '' && Number.isFinite(Number(q.value))) return String(Number(q.value));
  if (q.type === 'boolean' && (q.value === 'true' || q.value === 'false')) return q.value;
  return ts(q.value);
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

/** The URL a request goes to: path values encoded (an `x-ms-skip-url-encoding` one keeps its slashes), the query after. */
export function requestUrl(base, request, values = {}) {
  const pathValue = (p) => {
    const value = values.path?.[p.name] ?? p.value;
    const encoded = p.keepSlashes ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    // OData keys keep their parentheses and quotes, as openapi-fetch sends them.
    return encoded.replace(/%28/g, '(').replace(/%29/g, ')').replace(/%27/g, "'");
  };
  const path = request.path.replace(/\{([^}]+)\}/g, (whole, name) => {
    const p = request.pathParams.find((x) => x.name === name);
    return p ? pathValue(p) : whole;
  });
  const search = new URLSearchParams();
  for (const q of request.query) {
    const value = values.query?.[q.name] ?? q.value;
    if (q.required || value !== '') search.append(q.name, value);
  }
  const query = search.toString();
  return `${base}${request.prefix}${path}${query ? `?${query}` : ''}`;
}

/** The curl sample of one operation, against the mock at the document's server default. */
export function curlSample(document, entry, family) {
  const request = exampleRequest(document, entry, family);
  const origin = new URL(mockUrlOf(document) ?? 'http://127.0.0.1:4010').origin;
  const lines = [`curl -i -X ${request.method} ${shellQuote(requestUrl(origin, request))}`];
  if (request.secured) lines.push(`-H ${shellQuote('Authorization: Bearer <ACCESS_TOKEN>')}`);
  for (const h of request.headers.filter((x) => x.required || x.value !== '')) lines.push(`-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  if (request.body !== undefined) {
    lines.push(`-H ${shellQuote('Content-Type: application/json')}`);
    lines.push(`--data-raw ${shellQuote(JSON.stringify(request.body))}`);
  }
  return `# Against the workspace's mock (npm run mock); any token works there.\n${lines.join(' \\\n  ')}\n`;
}

/** `x-codeSamples` of one operation: TypeScript first, then curl. */
export function codeSamplesOf(document, entry, family, conveniences) {
  return [
    { lang: 'typescript', label: 'TypeScript', source: typescriptSample(document, entry, family, conveniences) },
    { lang: 'bash', label: 'curl (mock)', source: curlSample(document, entry, family) },
  ];
}
