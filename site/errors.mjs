// Error examples for the docs: without them Redoc fills an error response with what it
// generates from the schema (`"code": "string"`, `"details": [null]`). Every error
// response (4xx, 5xx, default) that has no example of its own gets one made from the
// document, in its family's error model:
//   - the schema's envelope (`{ error: { code, message } }`), its string fields only;
//   - one example per code the response's description names (`InvalidRequest`, in
//     backticks), where it names them; otherwise the values say they are not shown;
//   - a body whose schema the source leaves open (no type, no properties) is said not
//     to be shown, plainly, and no shape is invented for it.
// Only what the docs render changes; the specs and the bundles stay as written.
import { deref } from './samples.mjs';

export const NOT_SHOWN = '(not shown in the source)';

const isError = (status) => /^[45]\d\d$/.test(status) || /^[45]XX$/i.test(status) || status === 'default';

/** Backticked CamelCase words of a description: the error codes the source names there. */
export function namedCodes(description) {
  return [...new Set([...String(description ?? '').matchAll(/`([A-Z][A-Za-z0-9]+)`/g)].map((m) => m[1]))];
}

/** A schema with nothing said about its shape: no type, properties, items or composition. */
function isOpen(schema) {
  if (!schema || typeof schema !== 'object') return true;
  return !['type', 'properties', 'items', 'allOf', 'anyOf', 'oneOf', 'enum', 'const'].some((key) => key in schema);
}

/** The envelope's value: objects by their properties, strings filled; arrays and open values left out. */
function envelope(document, schema, code, depth = 0) {
  const resolved = deref(document, schema);
  if (!resolved || depth > 4) return undefined;
  if (resolved.allOf) return Object.assign({}, ...resolved.allOf.map((part) => envelope(document, part, code, depth + 1) ?? {}));
  if (resolved.type === 'object' || resolved.properties) {
    const value = {};
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      const inner = deref(document, property);
      if (inner?.type === 'string') value[name] = stringValue(name, code);
      else if (inner?.type === 'object' || inner?.properties) {
        const nested = envelope(document, inner, code, depth + 1);
        if (nested && Object.keys(nested).length) value[name] = nested;
      }
    }
    return value;
  }
  return undefined;
}

function stringValue(name, code) {
  if (name === 'code') return code ?? NOT_SHOWN;
  if (name === 'message') return code ? `${NOT_SHOWN}: the message that comes with ${code}` : NOT_SHOWN;
  return NOT_SHOWN;
}

/** Examples for one error response's media type, or undefined when it has its own. */
export function errorExamples(document, response, status) {
  const media = response.content?.['application/json'] ?? Object.values(response.content ?? {})[0];
  if (!media || media.example !== undefined || Object.keys(media.examples ?? {}).length) return undefined;
  const schema = deref(document, media.schema);
  const what = status === 'default' ? 'any other status' : `status ${status}`;
  if (isOpen(schema)) {
    return {
      NotShown: {
        summary: 'Not shown in the source',
        description: `The source does not show the body of ${what}; no shape is given here for it.`,
        value: 'Not shown in the source.',
      },
    };
  }
  const codes = namedCodes(response.description);
  if (codes.length) {
    return Object.fromEntries(
      codes.map((code) => [
        code,
        { summary: code, description: `The ${code} error the source names; its message is not shown there.`, value: envelope(document, schema, code) },
      ]),
    );
  }
  const title = schema.title ?? 'error';
  return {
    Shape: {
      summary: `The ${title} shape`,
      description: `The shape of the ${title} body. Not shown in the source: the codes and messages of ${what}.`,
      value: envelope(document, schema),
    },
  };
}

/** The document with an example on every error response that had none (a copy's responses are replaced, not edited in place). */
export function withErrorExamples(document) {
  const walkResponses = (responses) => {
    if (!responses) return responses;
    const out = {};
    for (const [status, node] of Object.entries(responses)) {
      const response = deref(document, node);
      const examples = response && isError(status) ? errorExamples(document, response, status) : undefined;
      if (!examples) {
        out[status] = node;
        continue;
      }
      const [mediaType, media] = Object.entries(response.content).find(([type]) => type === 'application/json') ?? Object.entries(response.content)[0];
      out[status] = { ...response, content: { ...response.content, [mediaType]: { ...media, examples } } };
    }
    return out;
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      if (operation && typeof operation === 'object' && operation.responses) operation.responses = walkResponses(operation.responses);
    }
  }
  return document;
}
