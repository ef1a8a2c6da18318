/**
 * Results and local faults: the error body of a failed answer (never empty or a bare
 * string), a network failure's cause in words without the token, and, when a request
 * could not even be built, which argument was at fault.
 */
import { redact } from './errors.js';

// A header value the fetch Headers class accepts (a ByteString without NUL, CR or LF).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** openapi-fetch gives `""`, `undefined` or the raw text when an error body is not JSON. */
export function errorBody(error: unknown, response: Response): unknown {
  if (error !== undefined && typeof error !== 'string') return error;
  // Shaped like CloudError/ErrorResponse ({ error: { code, message } }) so code written
  // against the family's error model reads it without a special case.
  return {
    error: {
      code: error ? 'NonJsonErrorBody' : 'EmptyErrorBody',
      message: `HTTP ${response.status} ${response.statusText}: ${error ? 'the body is not JSON' : 'empty body'}.`,
    },
  };
}

/** "fetch failed (ECONNREFUSED)": undici puts the system error code on the cause. */
export function describeCause(cause: any, token: string | undefined): string {
  try {
    const code = cause?.cause?.code ?? cause?.code;
    const message = typeof cause?.message === 'string' ? cause.message : Object.prototype.toString.call(cause);
    return redact(`${message}${typeof code === 'string' ? ` (${code})` : ''}`, token);
  } catch {
    return 'an unreadable error';
  }
}

const entriesOf = (value: unknown): Array<[string, unknown]> =>
  value instanceof Headers ? [...value] : typeof value === 'object' && value !== null ? Object.entries(value) : [];

const wellFormed = (value: string) => {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * The request failed before it reached the fetch: which argument was at fault? Run only
 * after such a failure, so a good call pays nothing for it. Values are never quoted (a
 * header may hold a secret); the parameter is named.
 */
export function diagnose(init: Record<string, any>, headers: unknown): [parameter: string, why: string] {
  if (init.body !== undefined && init.bodySerializer === undefined) {
    try {
      JSON.stringify(init.body);
    } catch {
      return ['body', 'cannot be serialised as JSON'];
    }
  }
  const sources: Array<[string, unknown]> = [
    ['headers', headers],
    ['headers', init.headers],
    ['params.header', init.params?.header],
  ];
  for (const [where, source] of sources) {
    for (const [name, value] of entriesOf(source)) {
      if (value === undefined || value === null) continue;
      if (!HEADER_NAME.test(name)) return [where, 'has a header name that is not a valid token'];
      if (!HEADER_VALUE.test(String(value))) return [`${where}.${name}`, 'is not a valid header value'];
    }
  }
  for (const [name, value] of entriesOf(init.params?.query)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && !wellFormed(v))) return [`params.query.${name}`, 'is not well-formed Unicode'];
  }
  return ['request', 'could not be built'];
}
