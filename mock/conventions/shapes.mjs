// What the conventions read from a document's operation: its success statuses, the JSON
// schema and example values of those answers, its header parameters. Plain reads of the
// bundled document (internal `#/` references followed), nothing guessed.
import { deref } from '../../model/operations.mjs';
import { answer } from '../errors.mjs';

/** The declared 2xx statuses of an operation, lowest first. */
export const successStatuses = (operation) =>
  Object.keys(operation.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .map(Number)
    .sort((a, b) => a - b);

/** `wanted` when the operation declares it, else its lowest declared 2xx, else `wanted`. */
export function statusFor(operation, wanted) {
  const declared = successStatuses(operation);
  return declared.includes(wanted) ? wanted : (declared[0] ?? wanted);
}

/** The application/json media object of a response or request body, dereferenced. */
export function jsonMedia(document, node) {
  const resolved = deref(document, node);
  return deref(document, resolved?.content?.['application/json']);
}

/** The schema of the operation's first 2xx JSON answer (dereferenced), or undefined. */
export function successSchema(document, operation) {
  for (const status of successStatuses(operation)) {
    const schema = deref(document, jsonMedia(document, operation.responses[String(status)])?.schema);
    if (schema) return schema;
  }
  return undefined;
}

/** The example values of a media object (named examples, then `example`). */
function examplesOf(document, media) {
  return [...Object.values(media?.examples ?? {}).map((example) => deref(document, example)?.value), media?.example].filter((value) => value !== undefined);
}

/** The example values of the operation's 2xx JSON answers (named examples, then `example`). */
export function successExamples(document, operation) {
  return successStatuses(operation).flatMap((status) => examplesOf(document, jsonMedia(document, operation.responses[String(status)])));
}

/**
 * The operation's documented answer with `status`: its first JSON example (no body when
 * the answer declares no JSON content), with `headers`. What an action answers.
 */
export function documentedAnswer(document, operation, status, headers = {}) {
  const media = jsonMedia(document, operation.responses?.[String(status)]);
  if (!media) return { status, headers, body: undefined };
  return answer(status, structuredClone(examplesOf(document, media)[0]), headers);
}

/** The properties of an object schema (through `allOf`), each dereferenced. */
export function propertiesOf(document, schema, depth = 0) {
  const resolved = deref(document, schema);
  if (!resolved || typeof resolved !== 'object' || depth > 8) return {};
  const own = Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([name, p]) => [name, deref(document, p)]));
  const parts = (resolved.allOf ?? []).map((part) => propertiesOf(document, part, depth + 1));
  return Object.assign({}, ...parts, own);
}

/** The operation's parameters (path item's and its own), dereferenced. */
export function parametersOf(document, pathItem, operation) {
  return [...(pathItem?.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(document, p)).filter(Boolean);
}

/** The names of a request's operation's parameters as its document spells them (ctx.doc, ctx.op of the request path). */
export const parameterNames = ({ doc, op }) =>
  parametersOf(doc.document, doc.document.paths?.[op.docPath], doc.document.paths?.[op.docPath]?.[op.method] ?? {})
    .map((p) => p.name)
    .filter((name) => typeof name === 'string');

/** The example of a parameter: `example`, else the first named example's value. */
export function parameterExample(document, parameter) {
  if (parameter?.example !== undefined) return parameter.example;
  const first = Object.values(parameter?.examples ?? {})[0];
  return first === undefined ? undefined : deref(document, first)?.value;
}

/**
 * A request's path as its document writes it: without the document's base path (its
 * `servers[0]` prefix, mock/documents.mjs), which the mock's routes carry.
 * @param {{ prefix?: string }} doc
 * @param {string} rawPath
 */
export const pathInDocument = (doc, rawPath) => (doc.prefix && rawPath.startsWith(doc.prefix) ? rawPath.slice(doc.prefix.length) : rawPath);
