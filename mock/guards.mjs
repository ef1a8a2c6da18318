// Everything the mock checks before Prism reads a request, so that no input reaches a
// place where Prism 5.14 throws outside a handler (the process exits), answers 500, or
// misreads a path as a host (PITFALLS.md, Prism). Each check returns a parsed value or
// an error answer in the family's model (a 4xx that says what was wrong).
import { randomUUID } from 'node:crypto';
import { contentType } from './prism.mjs';

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * How deep a JSON body may nest (objects and arrays): 64, the default of the JSON readers
 * behind both families' services (System.Text.Json's and Json.NET's MaxDepth in ASP.NET
 * Core). A body within the size limit can nest some 500,000 levels, and every walk of it
 * (read-only fields, validation, the record) would overflow the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of a parsed JSON value, counted without recursion, up to `limit + 1`. */
function depthOf(value, limit) {
  const stack = [[value, 1]];
  let deepest = 0;
  while (stack.length) {
    const [node, depth] = /** @type {[any, number]} */ (stack.pop());
    if (node === null || typeof node !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * What is wrong with a request: its status and the message of its error body.
 * @typedef {[number, string]} Problem
 */

/**
 * The request target: { path, query } or { problem: [status, message] }. The path is
 * kept as sent (percent-encoding included) except for OData parentheses; the query is
 * parsed into name -> value (or values when repeated).
 */
/**
 * @param {string | undefined} url
 * @returns {{ path: string, query: Record<string, string | string[]>, problem?: undefined } | { problem: Problem, path?: undefined, query?: undefined }}
 */
export function parseTarget(url) {
  if (typeof url !== 'string' || !url.startsWith('/'))
    return { problem: [400, `The request target ${JSON.stringify(String(url).slice(0, 100))} is not a path (it must start with "/").`] };
  const at = url.indexOf('?');
  const rawPath = at < 0 ? url : url.slice(0, at);
  const rawQuery = at < 0 ? '' : url.slice(at + 1);
  // WHATWG URL parsing (Prism's) reads `\` as `/` and `/\host/...` as a host.
  if (rawPath.includes('\\')) return { problem: [400, 'The request path contains a backslash ("\\"), which is not allowed in a path.'] };
  try {
    decodeURIComponent(rawPath);
  } catch {
    return { problem: [400, `The request path ${JSON.stringify(rawPath.slice(0, 200))} holds a malformed percent-encoding.`] };
  }
  // OData keys: `companies%28x%29` is the same resource as `companies(x)`. Only the
  // key's own parentheses are decoded (after a segment's name, at a segment's end): an
  // encoded parenthesis inside a key value stays part of the value.
  const path = rawPath.replace(/(\/[A-Za-z][\w.]*)%28/gi, '$1(').replace(/%29(?=\/|$)/gi, ')');
  /** @type {Record<string, string | string[]>} */
  const query = {};
  try {
    for (const [name, value] of new URLSearchParams(rawQuery)) {
      query[name] = name in query ? [query[name]].flat().concat(value) : value;
    }
  } catch {
    return { problem: [400, 'The query string cannot be parsed.'] };
  }
  return { path, query };
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const PARAMETER = new RegExp(`^\\s*(${TOKEN})\\s*=\\s*(${TOKEN}|"(?:[^"\\\\]|\\\\.)*")\\s*$`);
const MEDIA_RANGE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})\\s*$`);

/** Accept per RFC 9110 12.5.1; `q` must be a number from 0 to 1. Returns a message or undefined. */
export function checkAccept(value) {
  const elements = value.split(',').filter((e) => e.trim() !== '');
  if (elements.length === 0) return `Accept ${JSON.stringify(value)} names no media range.`;
  for (const element of elements) {
    const [range, ...parameters] = element.split(';');
    if (!MEDIA_RANGE.test(range)) return `Accept ${JSON.stringify(value)}: ${JSON.stringify(range.trim())} is not a media range (type/subtype).`;
    for (const parameter of parameters) {
      const found = PARAMETER.exec(parameter);
      if (!found) return `Accept ${JSON.stringify(value)}: ${JSON.stringify(parameter.trim())} is not a name=value parameter.`;
      if (found[1].toLowerCase() === 'q' && !/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(found[2]))
        return `Accept ${JSON.stringify(value)}: q=${found[2]} is not a weight from 0 to 1.`;
    }
  }
  return undefined;
}

/** Header checks: { problem: [status, message] } or {}. */
/**
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {{ problem?: Problem }}
 */
export function checkHeaders(headers) {
  if (headers.accept !== undefined) {
    const wrong = checkAccept(headers.accept);
    if (wrong) return { problem: [400, wrong] };
  }
  const type = headers['content-type'];
  if (type !== undefined) {
    try {
      contentType.parse(type);
    } catch {
      return { problem: [415, `Content-Type ${JSON.stringify(type)} is not a media type (type/subtype).`] };
    }
  }
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return { problem: [415, `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the body unencoded.`] };
  }
  return {};
}

/**
 * `Prefer` (RFC 7240) and Prism's query equivalents (`__code`, `__example`, `__dynamic`,
 * `__seed`); the header wins. Unknown preferences are ignored, as the RFC says. Returns
 * { prefer: { code, exampleKey, dynamic, seed } } or { problem }.
 */
/**
 * @param {string | undefined} header
 * @param {Record<string, string | string[]>} query
 * @returns {{ prefer: { code?: number, exampleKey?: string, dynamic?: boolean, seed?: string }, problem?: undefined } | { problem: Problem, prefer?: undefined }}
 */
export function parsePrefer(header, query) {
  const raw = {};
  const fromQuery = { code: query.__code, example: query.__example, dynamic: query.__dynamic, seed: query.__seed };
  for (const [key, value] of Object.entries(fromQuery)) if (value !== undefined) raw[key] = value;
  for (const piece of String(header ?? '').split(/[,;]/)) {
    const at = piece.indexOf('=');
    if (at < 0) continue;
    const key = piece.slice(0, at).trim().toLowerCase();
    const value = piece
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (['code', 'example', 'dynamic', 'seed'].includes(key)) raw[key] = value;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) return { problem: [400, `Prefer ${key} is given more than once.`] };
  }
  const prefer = {};
  if (raw.code !== undefined) {
    const code = /^\d{3}$/.test(raw.code) ? Number(raw.code) : NaN;
    if (!(code >= 200 && code <= 599)) return { problem: [400, `Prefer code=${raw.code} is not a final HTTP status (200-599).`] };
    prefer.code = code;
  }
  if (raw.dynamic !== undefined) {
    if (raw.dynamic !== 'true' && raw.dynamic !== 'false') return { problem: [400, `Prefer dynamic=${raw.dynamic} is neither true nor false.`] };
    prefer.dynamic = raw.dynamic === 'true';
  }
  if (raw.example !== undefined) prefer.exampleKey = raw.example;
  // Seeding is per request: a dynamic answer always gets a seed, the one asked for or a
  // fresh one, so one client's seed never decides what the next client gets.
  if (prefer.dynamic) prefer.seed = raw.seed || randomUUID();
  return { prefer };
}

/** Reads the body (bounded); resolves { text } or { problem }. */
/**
 * @param {import('node:stream').Readable} req
 * @returns {Promise<{ text: Buffer, size: number, problem?: undefined } | { problem: Problem, text?: undefined, size?: undefined }>}
 */
export function readBody(req) {
  return new Promise((resolve) => {
    // Too large: read to the end without keeping it (the server's requestTimeout bounds
    // the wait), then answer 413 -- answering first would reset a client still sending.
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? { problem: [413, `The body is larger than ${MAX_BODY_BYTES} bytes.`] } : { text: Buffer.concat(chunks), size }),
    );
    req.on('error', () => resolve({ problem: [400, 'The request body could not be read.'] }));
  });
}

/**
 * The body as Prism takes it: null when empty, parsed JSON for a JSON media type, text
 * otherwise (Prism then answers the content-type mismatch). { body } or { problem }.
 */
/**
 * @param {Buffer | undefined} bytes
 * @param {string | undefined} type
 * @returns {{ body: unknown, problem?: undefined } | { problem: Problem, body?: undefined }}
 */
export function decodeBody(bytes, type) {
  if (!bytes || bytes.length === 0) return { body: null };
  let parsed;
  try {
    parsed = type ? contentType.parse(type) : undefined;
  } catch {
    parsed = undefined;
  }
  const charset = (parsed?.parameters?.charset ?? 'utf-8').toLowerCase();
  const isJson = parsed && /^application\/(?:json|[^/]+\+json)$/.test(parsed.type);
  if (!['utf-8', 'utf8', 'us-ascii'].includes(charset)) return { problem: [415, `charset=${charset} is not supported; send UTF-8.`] };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (!isJson) return { body: text };
  let body;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { problem: [400, `The body is not valid JSON: ${error.message}`] };
  }
  if (depthOf(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { problem: [400, `The body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`] };
  return { body };
}
