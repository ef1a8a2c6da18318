// The bundled documents as the mock serves them: one entry per API of redocly.yaml, with
// Prism's operations (paths carrying the document's servers[0] prefix), the family, the
// version each operation answers to, and what the behaviours read from the document
// (examples). Read once at start and again on reload().
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { loadApis, rel } from '../lib/apis.mjs';
import { basePathOf } from '../lib/servers.mjs';

const require = createRequire(import.meta.url);
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');

/** Loads every bundle; rejects with a one-line reason when one is missing or broken. */
export async function loadDocuments(apis = loadApis()) {
  const documents = await Promise.all(apis.map(loadDocument));
  if (documents.every((d) => d.operations.length === 0)) throw new Error('no operations in the bundled documents');
  return documents;
}

async function loadDocument(api) {
  let document;
  try {
    document = parse(await readFile(api.bundle, 'utf8'));
  } catch (error) {
    throw new Error(`${rel(api.bundle)}: ${error.code === 'ENOENT' ? 'missing (run npm run generate)' : error.message.split('\n')[0]}`);
  }
  if (!document?.openapi) throw new Error(`${rel(api.bundle)}: not an OpenAPI document (run npm run generate)`);
  const prefix = basePathOf(document);
  // The object, not the file: the bundles hold only internal $refs.
  const operations = await getHttpOperationsFromSpec(document);
  for (const operation of operations) operation.path = prefix + operation.path;
  return {
    api,
    document,
    family: api.family,
    prefix,
    /** What a resource-management request names in `api-version`; business data versions by prefix. */
    version: String(document.info?.version ?? api.version),
    operations,
    multiSegment: multiSegmentParams(document),
  };
}

/**
 * Names of the path parameters that carry several segments: Azure marks them with
 * `x-ms-skip-url-encoding` (the value is sent as is, its `/` kept), as it does the
 * scope. Read from the document itself: Prism's operation model drops `x-` keys.
 */
export function multiSegmentParams(document) {
  const names = new Set();
  for (const item of Object.values(document.paths ?? {})) {
    const operations = Object.values(item).filter((value) => value && typeof value === 'object' && !Array.isArray(value));
    const params = [...(item.parameters ?? []), ...operations.flatMap((operation) => operation.parameters ?? [])];
    for (const param of params.map((p) => deref(document, p))) {
      if (param?.in === 'path' && param['x-ms-skip-url-encoding'] === true) names.add(param.name);
    }
  }
  return names;
}

/** Follows internal `#/...` references (bundles hold no others). */
export function deref(document, node) {
  let current = node;
  for (let hops = 0; typeof current?.$ref === 'string' && current.$ref.startsWith('#/') && hops < 20; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at, key) => at?.[key], document);
  }
  return current;
}

/** The operation object of a document by operationId: { path, method, operation }. */
export function findOperation(document, operationId) {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (operation?.operationId === operationId) return { path, method, operation };
    }
  }
  return undefined;
}

/** Values of the named examples of a response (status `200`, `201`...) of an operation. */
export function responseExamples(document, operationId, status) {
  const found = findOperation(document, operationId);
  const response = deref(document, found?.operation.responses?.[status]);
  const media = response?.content?.['application/json'];
  return Object.fromEntries(Object.entries(media?.examples ?? {}).map(([key, example]) => [key, deref(document, example)?.value]));
}
