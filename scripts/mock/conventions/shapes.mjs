// What the conventions read from a document's operation: its success statuses, the JSON
// schema and example values of those answers, its header parameters. Plain reads of the
// bundled document (internal `#/` references followed), nothing guessed.
import { deref } from '../documents.mjs';

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

/** The example values of the operation's 2xx JSON answers (named examples, then `example`). */
export function successExamples(document, operation) {
  const values = [];
  for (const status of successStatuses(operation)) {
    const media = jsonMedia(document, operation.responses[String(status)]);
    for (const example of Object.values(media?.examples ?? {})) {
      const value = deref(document, example)?.value;
      if (value !== undefined) values.push(value);
    }
    if (media?.example !== undefined) values.push(media.example);
  }
  return values;
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

/** The example of a parameter: `example`, else the first named example's value. */
export function parameterExample(document, parameter) {
  if (parameter?.example !== undefined) return parameter.example;
  const first = Object.values(parameter?.examples ?? {})[0];
  return first === undefined ? undefined : deref(document, first)?.value;
}
