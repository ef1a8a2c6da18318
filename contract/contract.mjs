// What the documents promise, as checks on one HTTP exchange: which operation (and which
// version of its document) a request is for, what is wrong with the request, and what is
// wrong with the answer. Read from the bundles in generated/bundled/ (every API and
// version of redocly.yaml), validated with Ajv (JSON Schema 2020-12, formats on).
// Used by the validating proxy (contract/proxy.mjs) and by the contract suite's coverage.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { compareVersions, defaultVersionOf, loadApis } from '../model/apis.mjs';
import { deref, METHODS } from '../model/operations.mjs';
import { basePathOf } from '../model/servers.mjs';

/**
 * One operation of one document version, ready to match and check.
 * @typedef {object} Operation
 * @property {ReturnType<typeof loadApis>[number]} api
 * @property {any} document the bundled document
 * @property {(schema: any, value: unknown) => string[]} validate
 * @property {string} operationId
 * @property {string} label `operationId@version`
 * @property {string} method
 * @property {string} template the path with its document's prefix
 * @property {string} path
 * @property {any} spec the operation object
 * @property {any[]} params
 * @property {boolean} secured
 * @property {boolean} versioned
 * @property {RegExp} regex
 * @property {string[]} names the path parameters, in order
 */
/**
 * A request matched to its operation (`versionProblem`: an api-version no document
 * declares; the default version's operation is checked), or why none matched.
 * @typedef {{ operation: Operation, pathValues: Record<string, string>, query: URLSearchParams, versionProblem?: string, problem?: undefined }
 *   | { operation?: undefined, problem: string }} Match
 */

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {string} template
 * @param {Set<string>} multiSegment path parameters that may span segments (x-ms-skip-url-encoding)
 */
function compilePath(template, multiSegment) {
  const names = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (!name) return escapeRegExp(part);
      names.push(name);
      return multiSegment.has(name) ? '(.+?)' : '([^/]+)';
    })
    .join('');
  return { regex: new RegExp(`^${pattern}$`), names };
}

/** One validator per document: its components addressable as `doc#/components/...`. */
/**
 * @param {any} document
 * @returns {Operation['validate']}
 */
function validatorFor(document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components ?? {} });
  const cache = new Map();
  return (schema, value) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      cache.set(schema, validate);
    }
    return validate(value) ? [] : dedupe((validate.errors ?? []).map(describeError));
  };
}

/** @type {(list: string[]) => string[]} */
const dedupe = (list) => [...new Set(list)];

/** An Ajv error as a person says it: missing field, wrong type, value not allowed. */
/** @param {import('ajv').ErrorObject} error */
function describeError(error) {
  const at = error.instancePath || '/';
  switch (error.keyword) {
    case 'required':
      return `missing field ${error.instancePath}/${error.params.missingProperty}`;
    case 'type':
      return `wrong type at ${at}: expected ${[error.params.type].flat().join(' or ')}`;
    case 'enum':
      return `value at ${at} is not one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `value at ${at} is not ${JSON.stringify(error.params.allowedValue)}`;
    case 'format':
      return `value at ${at} is not a ${error.params.format}`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `unexpected field ${error.instancePath}/${error.params.additionalProperty ?? error.params.unevaluatedProperty}`;
    case 'not':
      return `field(s) at ${at} must not be there (${error.message})`;
    case 'if':
      return '';
    default:
      return `${at} ${error.message}`;
  }
}

/**
 * The contract of every API and version in the redocly.yaml of the workspace at `root`:
 * `{ operations, match, checkRequest, checkResponse, declared }`.
 */
export function loadContract(root) {
  const apis = loadApis(root);
  /** @type {Operation[]} */
  const operations = [];
  const versionsOf = new Map();
  for (const api of apis) {
    const document = parse(readFileSync(api.bundle, 'utf8'));
    const validate = validatorFor(document);
    const prefix = basePathOf(document);
    for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
      const item = deref(document, rawItem);
      for (const method of METHODS) {
        const spec = item?.[method];
        if (!spec) continue;
        const params = [...(item.parameters ?? []), ...(spec.parameters ?? [])].map((p) => deref(document, p));
        const multiSegment = new Set(params.filter((p) => p.in === 'path' && p['x-ms-skip-url-encoding']).map((p) => p.name));
        const security = spec.security ?? document.security ?? [];
        operations.push({
          api,
          document,
          validate,
          operationId: spec.operationId,
          label: `${spec.operationId}@${api.version}`,
          method: method.toUpperCase(),
          template: prefix + path,
          path,
          spec,
          params,
          secured: security.some((requirement) => Object.keys(requirement).length > 0),
          versioned: params.some((p) => p.in === 'query' && p.name === 'api-version'),
          ...compilePath(prefix + path, multiSegment),
        });
      }
    }
    versionsOf.set(api.apiName, [...(versionsOf.get(api.apiName) ?? []), api.version]);
  }

  /**
   * The operation a request is for, or `{ problem }`. Among the versions of one path the
   * `api-version` query parameter picks (resource management); the /api/vX.Y prefix is
   * part of the path (business data). Matching reads the path percent-decoded, so an
   * encoded scope or encoded OData parentheses find their operation too.
   * @param {string} method
   * @param {string} rawUrl
   * @returns {Match}
   */
  function match(method, rawUrl) {
    const [rawPath, rawQuery = ''] = rawUrl.split('?', 2);
    let path;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return { problem: `path ${rawPath} has malformed percent-encoding` };
    }
    const query = new URLSearchParams(rawQuery);
    const onPath = operations.filter((o) => o.regex.test(path));
    if (!onPath.length) return { problem: `no operation of the documents has the path ${rawPath}` };
    const candidates = onPath.filter((o) => o.method === method.toUpperCase());
    if (!candidates.length)
      return { problem: `${method.toUpperCase()} is not declared on ${rawPath} (declared: ${[...new Set(onPath.map((o) => o.method))].join(', ')})` };
    let operation = candidates[0];
    let versionProblem;
    if (candidates.length > 1 || operation.versioned) {
      const asked = query.get('api-version');
      const exact = candidates.find((o) => o.api.version === asked);
      if (exact) operation = exact;
      else {
        // Validate against the default version, and say the version is not a documented one.
        const versions = candidates.map((o) => o.api.version).sort(compareVersions);
        const fallback = defaultVersionOf(versions) ?? versions.at(-1);
        // (`fallback` is one of the candidates' versions: found.)
        operation = /** @type {Operation} */ (candidates.find((o) => o.api.version === fallback));
        // A missing api-version is reported by the parameter check; an unknown one here.
        if (asked !== null) versionProblem = `request: api-version ${JSON.stringify(asked)} is not a documented version (documented: ${versions.join(', ')})`;
      }
    }
    // (`operation.regex` matched `path` above.)
    const values = /** @type {RegExpExecArray} */ (operation.regex.exec(path)).slice(1);
    return { operation, pathValues: Object.fromEntries(operation.names.map((n, i) => [n, values[i]])), query, versionProblem };
  }

  /**
   * What is wrong with a request: parameters, security, content type, body.
   * @param {Match & { operation: Operation }} matched
   * @param {import('node:http').IncomingHttpHeaders} headers
   * @param {string} bodyText
   */
  function checkRequest(matched, headers, bodyText) {
    const { operation, pathValues, query } = matched;
    const problems = matched.versionProblem ? [matched.versionProblem] : [];
    for (const param of operation.params) {
      // An api-version no document declares is reported once, above: each document's
      // api-version accepts only its own version, so its enum would say the same again.
      if (matched.versionProblem && param.in === 'query' && param.name === 'api-version') continue;
      const raw =
        param.in === 'path'
          ? pathValues[param.name]
          : param.in === 'query'
            ? query.get(param.name)
            : param.in === 'header'
              ? headers[param.name.toLowerCase()]
              : undefined;
      if (raw === undefined || raw === null || raw === '') {
        if (param.required) problems.push(`request: missing ${param.in} parameter ${param.name}`);
        continue;
      }
      if (param.schema)
        for (const p of operation.validate(param.schema, coerce(param.schema, operation.document, String(raw))))
          problems.push(`request: ${param.in} parameter ${param.name}: ${p.replace(/ at \/(?=:| is)/, '')}`);
    }
    if (operation.secured && !/^Bearer\s+\S/i.test(String(headers.authorization ?? '')))
      problems.push('request: no bearer token (the operation declares security)');
    const body = deref(operation.document, operation.spec.requestBody);
    const hasBody = bodyText.length > 0;
    if (body?.required && !hasBody) problems.push('request: missing body');
    if (hasBody && body) {
      const type = mediaType(headers['content-type']);
      const media = body.content?.[type];
      if (!media) problems.push(`request: content type ${type || '(none)'} is not declared (declared: ${Object.keys(body.content ?? {}).join(', ')})`);
      else if (media.schema && isJson(type)) {
        const parsed = parseJson(bodyText);
        if (!parsed.ok) problems.push('request: body is not JSON');
        else for (const p of operation.validate(media.schema, parsed.value)) problems.push(`request body: ${p}`);
      }
    }
    return problems.filter(Boolean);
  }

  /**
   * What is wrong with an answer: status not declared, content type, body schema.
   * @param {Operation} operation
   * @param {number} status
   * @param {import('node:http').IncomingHttpHeaders} headers
   * @param {string} bodyText
   * @returns {{ response: any, media?: any, value?: unknown, problems: string[] }}
   */
  function checkResponse(operation, status, headers, bodyText) {
    const declared = operation.spec.responses?.[String(status)] ?? operation.spec.responses?.[`${String(status)[0]}XX`] ?? operation.spec.responses?.default;
    if (!declared)
      return { response: undefined, problems: [`status ${status} is not declared (declared: ${Object.keys(operation.spec.responses ?? {}).join(', ')})`] };
    const response = deref(operation.document, declared);
    const content = response.content ?? {};
    if (!bodyText.length) {
      return {
        response,
        problems:
          Object.keys(content).length && status !== 204 && status !== 304
            ? [`empty body; the ${status} answer declares ${Object.keys(content).join(', ')}`]
            : [],
      };
    }
    const type = mediaType(headers['content-type']);
    const media = content[type];
    if (!media)
      return { response, problems: [`undeclared content type ${type || '(none)'} for ${status} (declared: ${Object.keys(content).join(', ') || 'no body'})`] };
    if (!media.schema || !isJson(type)) return { response, problems: [] };
    const parsed = parseJson(bodyText);
    if (!parsed.ok) return { response, problems: [`body is not JSON though the content type is ${type}`] };
    return { response, media, value: parsed.value, problems: operation.validate(media.schema, parsed.value).filter(Boolean) };
  }

  /** Every declared response: operation x status x named example (for coverage). */
  function declared() {
    return operations.flatMap((operation) =>
      Object.entries(operation.spec.responses ?? {}).flatMap(([status, raw]) => {
        const response = deref(operation.document, raw);
        const examples = Object.entries(response.content ?? {}).flatMap(([type, media]) =>
          Object.entries(media.examples ?? {}).map(([name, example]) => ({ name, type, value: deref(operation.document, example)?.value })),
        );
        return { operation, status, examples };
      }),
    );
  }

  return { operations, versionsOf, match, checkRequest, checkResponse, declared };
}

/** @type {(header: unknown) => string} */
export const mediaType = (header) =>
  String(header ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
/** @type {(type: string) => boolean} */
const isJson = (type) => type === 'application/json' || type.endsWith('+json');

/**
 * @param {string} text
 * @returns {{ ok: true, value: unknown } | { ok: false, value?: undefined }}
 */
function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * A parameter's text as the JSON type its schema wants (numbers, booleans).
 * @param {any} schema
 * @param {any} document
 * @param {string} text
 */
function coerce(schema, document, text) {
  const type = deref(document, schema)?.type;
  if ((type === 'integer' || type === 'number') && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
