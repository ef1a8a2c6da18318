// The record of what the mock received (test API `requests`): one entry per request to
// an API path (the admin prefix is not recorded), in arrival order, the newest `max`
// kept. Credentials never enter it: Authorization (and Proxy-Authorization, Cookie) keep
// only their scheme.
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
/** Bodies larger than this are recorded as a note of their size, so the record stays small. */
export const MAX_RECORDED_BODY_BYTES = 64 * 1024;

export function redactHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.includes(name)) out[name] = value;
    else out[name] = name === 'cookie' ? '[redacted]' : `${String(value).split(/\s+/)[0]} [redacted]`.replace(/^\[redacted\] \[redacted\]$/, '[redacted]');
  }
  return out;
}

/**
 * A body as the record keeps it: a batch's members' headers (`requests[].headers`, the
 * OData JSON batch format) redacted as a request's own are, so a member's token does not
 * enter the record either.
 * @param {unknown} body
 */
export function redactBody(body) {
  const requests = /** @type {any} */ (body)?.requests;
  if (!Array.isArray(requests)) return body;
  return {
    .../** @type {object} */ (body),
    requests: requests.map((member) =>
      member && typeof member === 'object' && member.headers && typeof member.headers === 'object' && !Array.isArray(member.headers)
        ? { ...member, headers: redactHeaders(Object.fromEntries(Object.entries(member.headers).map(([name, value]) => [name.toLowerCase(), value]))) }
        : member,
    ),
  };
}

export function createRequestLog({ max = 1000 } = {}) {
  let entries = [];
  let sequence = 0;
  return {
    /**
     * A record for one request, kept in the log (unless `keep` is false) and completed
     * as the mock learns more: its operation, its parsed body, then its answer's status
     * when the answer is sent (null while none was: a time-out, a dropped connection).
     */
    start(req, res) {
      const at = String(req.url).indexOf('?');
      const record = {
        id: ++sequence,
        time: new Date().toISOString(),
        method: req.method,
        path: at < 0 ? String(req.url) : String(req.url).slice(0, at),
        query: {},
        headers: redactHeaders(req.headers),
        body: undefined,
        operationId: undefined,
        api: undefined,
        version: undefined,
        status: null,
      };
      res.once('finish', () => (record.status = res.statusCode));
      entries.push(record);
      if (entries.length > max) entries.shift();
      return record;
    },
    /** A copy of the entries, oldest first. */
    list: () => structuredClone(entries),
    clear() {
      entries = [];
    },
  };
}
