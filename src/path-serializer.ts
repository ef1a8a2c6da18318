import { ClientError } from './errors.js';

/**
 * Fills `{name}` placeholders of a path template, for both families.
 *
 * openapi-fetch's default uses `encodeURIComponent`, which (a) turns the `/` of a
 * multi-segment `scope` into `%2F`, while the service and the official SDKs send it
 * with its slashes, and (b) leaves `(`, `)` and `'` alone, so an OData key such as
 * `companies(<id>)` could be closed early by a hostile id. Hence:
 *
 * - every value is encoded with `encodeURIComponent` plus `! ' ( ) *`, so no value
 *   can leave its segment or its OData parentheses;
 * - a multi-segment parameter (`x-ms-skip-url-encoding: true` in its document, as `scope`)
 *   is split on `/`, each segment encoded that way, and re-joined with `/`; one leading `/`
 *   is tolerated;
 * - a GUID-typed business-data key (`format: uuid` in its document, as `vendor_id`) must be
 *   a GUID;
 * - an empty value, an empty scope segment (`//`) and `.`/`..` (which URL parsers
 *   collapse, even percent-encoded) are refused, so a value cannot move the request
 *   to another path;
 * - a missing value is refused instead of leaving `{name}` in the URL.
 *
 * What each parameter is comes from its API's documents, through the client manifest
 * (pipeline/manifest.mjs `pathParameters`, per API and parameter name), not from names
 * known here. Refusals throw a ClientError `invalid-argument` naming the parameter; openapi-fetch
 * calls the serializer before it builds the Request, so nothing is sent.
 */
const PLACEHOLDER = /\{([^{}]+)\}/g;
/** How an API's documents say to write a parameter, by name (generated/client-manifest.ts `pathParameters`); absent: one plain segment. */
export type PathKinds = Readonly<Record<string, 'segments' | 'uuid'>>;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

export function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function refuse(name: string, why: string): never {
  throw new ClientError('invalid-argument', `Path parameter "${name}" ${why}; nothing sent.`, { parameter: name });
}

function serializeValue(name: string, raw: unknown, kind: string | undefined): string {
  if (raw === undefined || raw === null) refuse(name, 'is missing');
  if (typeof raw !== 'string' && typeof raw !== 'number') refuse(name, 'is not a string');
  const value = String(raw);
  // encodeURIComponent throws a URIError on a lone surrogate: refuse it by name instead.
  try {
    encodeURIComponent(value);
  } catch {
    refuse(name, 'is not well-formed Unicode');
  }
  // A GUID is written as any one segment is (its characters need no encoding).
  if (kind === 'uuid' && !GUID.test(value)) refuse(name, 'is not a GUID');
  if (kind === 'segments') {
    const segments = (value.startsWith('/') ? value.slice(1) : value).split('/');
    for (const segment of segments) {
      if (segment === '' || DOT_SEGMENT.test(segment)) refuse(name, 'has an empty, "." or ".." segment');
    }
    return segments.map(encodeSegment).join('/');
  }
  if (value === '' || DOT_SEGMENT.test(value)) refuse(name, 'is empty, "." or ".."');
  return encodeSegment(value);
}

/** A `pathSerializer` for openapi-fetch (it receives baseUrl + template) that writes each parameter as `kinds` says. */
export const serializerOf =
  (kinds: PathKinds = {}) =>
  (url: string, params: Record<string, unknown>): string =>
    url.replace(PLACEHOLDER, (_match, name: string) => serializeValue(name, params[name], kinds[name]));
