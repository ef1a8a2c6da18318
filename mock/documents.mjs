// The bundled documents as the mock serves them: one entry per API of redocly.yaml (or
// per document given to startMock), with Prism's operations (paths carrying the
// document's servers[0] prefix), the family, the version each operation answers to, and
// what the conventions read from the document (examples). Read once at start and again
// on reload().
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
// js-yaml, not `yaml`: it parses the bundles about 8 times faster, which is most of the
// start-up time with many documents (250 bundles: 0.3 s instead of 2.5 s, busy machine).
import { CORE_SCHEMA, load } from 'js-yaml';
import { FAMILIES } from '../model/family.mjs';
import { deref, operationsOf as operationsOfDocument, pathParameterKindsOf } from '../model/operations.mjs';
import { basePathOf } from '../model/servers.mjs';
import { operationsOf } from './prism.mjs';

/**
 * A document given to startMock ({ api, version, family, document }: a parsed OpenAPI 3.x
 * object or the path of a bundled YAML/JSON file) as the entry loadApis() would give.
 * Entries of loadApis() pass through.
 */
export function apiEntryOf(given, index) {
  if (given?.bundle && given?.name) return given;
  const where = `documents[${index}]`;
  if (!given || typeof given !== 'object') throw new Error(`${where}: give { api, version, family, document }.`);
  const { api, version, family, document } = given;
  if (typeof api !== 'string' || !/^[a-z][a-z0-9-]*$/.test(api))
    throw new Error(`${where}: "api" must be a name of lower-case letters, digits and hyphens (got ${JSON.stringify(api)}).`);
  if (typeof version !== 'string' || !version) throw new Error(`${where}: "version" must be the document's version (an api-version or vX.Y).`);
  if (!FAMILIES.includes(family)) throw new Error(`${where}: "family" must be one of ${FAMILIES.join(', ')} (got ${JSON.stringify(family)}).`);
  const isPath = typeof document === 'string';
  if (!isPath && (!document || typeof document !== 'object'))
    throw new Error(`${where}: "document" must be an OpenAPI object or the path of a bundled document.`);
  return {
    name: `${api}@${version}`,
    apiName: api,
    version,
    family,
    bundle: isPath ? document : undefined,
    document: isPath ? undefined : structuredClone(document),
  };
}

/**
 * Loads every bundle; rejects with a one-line reason (naming the file relative to `root`,
 * the workspace) when one is missing or broken.
 * @param {any[]} apis loadApis() entries, or documents given to startMock
 * @param {string} root
 */
export async function loadDocuments(apis, root) {
  const documents = await Promise.all(apis.map(apiEntryOf).map((api) => loadDocument(api, root)));
  if (documents.every((d) => d.operations.length === 0)) throw new Error('no operations in the bundled documents');
  return documents;
}

async function loadDocument(api, root) {
  let document = api.document;
  const source = api.bundle ? relative(root, api.bundle) : api.name;
  if (!document) {
    try {
      // YAML 1.2 core schema, as the `yaml` package reads it: `2025-01-01` stays a string
      // (js-yaml's default schema would make it a Date).
      document = load(await readFile(api.bundle, 'utf8'), { schema: CORE_SCHEMA });
    } catch (error) {
      throw new Error(`${source}: ${error.code === 'ENOENT' ? 'missing (run npm run generate)' : error.message.split('\n')[0]}`);
    }
  }
  if (!document?.openapi) throw new Error(`${source}: not an OpenAPI document (run npm run generate)`);
  const prefix = basePathOf(document);
  // What the router needs, read from the document itself; Prism's own operation model
  // is built on the first request that reaches this document.
  const operations = [];
  const multiSegment = new Set();
  for (const [path, method, operation, item] of operationsOfDocument(document)) {
    operations.push({ method, path: prefix + path, docPath: path, iid: operation.operationId });
    for (const [name, kind] of Object.entries(pathParameterKindsOf(document, item, operation, api.family))) if (kind === 'segments') multiSegment.add(name);
  }
  let prism;
  return {
    api,
    document,
    family: api.family,
    prefix,
    /** What a resource-management request names in `api-version`; business data versions by prefix. */
    version: String(document.info?.version ?? api.version),
    operations,
    /** The path parameters that carry several segments (`x-ms-skip-url-encoding`, as the scope). */
    multiSegment,
    /** Prism's operation for one of `operations` (its paths carry the prefix too). */
    async prismOperation({ method, path }) {
      prism ??= operationsOf(document, prefix);
      return (await prism).find((o) => o.method === method && o.path === path);
    },
  };
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
