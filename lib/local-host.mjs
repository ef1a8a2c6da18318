// Local servers are local (docs/security.md). The mock, the proxy and the docs server bind
// 127.0.0.1, but a web page can still reach them: through DNS rebinding (a name of the
// attacker's that resolves to 127.0.0.1 once the page is loaded; the browser then sends
// `Host: attacker.example`), or by plain cross-origin requests. So:
//   - a request is answered only when its Host is a loopback name or address (localhost,
//     *.localhost, 127.0.0.0/8, [::1]) or one the user allowed (`--allow-host <name>`,
//     `allowHosts`); else 403 with a body saying why and what to pass;
//   - (the mock) a request that changes state (POST, PUT, PATCH, DELETE) from a foreign
//     Origin is refused 403 unless that origin was allowed (`--allow-origin <origin>` or
//     `*`, `allowOrigins`); reads from any origin stay allowed (a browser app under test
//     on another port reads the mock). Requests without Origin (curl, Node) are not
//     browsers' and pass.
// No dependencies: the packaged mock loads it.
import { isIPv4 } from 'node:net';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The host name of a Host header value (lower-cased, IPv6 in brackets, no port), or undefined if malformed. */
export function hostName(header) {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i.exec(String(header ?? '').trim());
  return match ? match[1].toLowerCase().replace(/\.$/, '') : undefined;
}

/** localhost, *.localhost, 127.0.0.0/8, [::1] (and its IPv4-mapped form of 127.x). */
export function isLoopbackName(name) {
  if (!name) return false;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIPv4(name)) return name.startsWith('127.');
  if (name.startsWith('[')) {
    const inner = name.slice(1, -1);
    return inner === '::1' || /^(?:0{0,4}:){7}0{0,3}1$/.test(inner) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(inner);
  }
  return false;
}

/** The origin of an Origin header (`scheme://host[:port]`), or undefined (absent, `null`, malformed). */
function originOf(header) {
  try {
    const url = new URL(String(header));
    return /^https?:$/.test(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

const normaliseOrigin = (origin) => (origin === '*' ? '*' : (originOf(origin)?.origin ?? String(origin)));

/**
 * The checks of one server. `allowHosts`: extra Host names answered (`*` = any; a page on
 * one of these names, any scheme or port, may also change state); `allowOrigins`: foreign
 * origins allowed to change state (`*` = any); `bound`: the
 * address the server listens on (a specific non-loopback address is allowed as a Host).
 * Returns `{ refuseHost(req), refuseOrigin(req) }`.
 * @param {{ allowHosts?: string[], allowOrigins?: string[], bound?: string }} [options]
 */
export function localGuard({ allowHosts = [], allowOrigins = [], bound } = {}) {
  /** @type {Set<string | undefined>} */
  const hosts = new Set(allowHosts.map((h) => (h === '*' ? '*' : (hostName(h) ?? String(h).toLowerCase()))));
  if (bound && !['0.0.0.0', '::', ''].includes(bound)) hosts.add(hostName(bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound));
  const origins = new Set(allowOrigins.map(normaliseOrigin));

  const hostAllowed = (name) => isLoopbackName(name) || hosts.has('*') || hosts.has(name);
  /** Loopback origins, and those allowed, may change state. */
  const originTrusted = (header) => {
    const url = originOf(header);
    if (origins.has('*')) return true;
    if (!url) return false;
    // A page served under a Host the user allowed is the user's own page.
    const name = hostName(url.host);
    return isLoopbackName(name) || origins.has(url.origin) || (hosts.has(name) && !hosts.has('*'));
  };

  return {
    /** `{ status, message }` when the Host header names a host this server does not answer. */
    refuseHost(req) {
      const header = req.headers.host;
      if (header === undefined) return undefined; // HTTP/1.0 without Host: not a browser
      const name = hostName(header);
      if (hostAllowed(name)) return undefined;
      const shown = JSON.stringify(String(header).slice(0, 100));
      return {
        status: 403,
        code: 'ForeignHost',
        message: `Host ${shown} is not served: this local server answers only loopback names (localhost, 127.0.0.1, [::1]), against DNS rebinding. To reach it by this name, start it with --allow-host ${name ?? '<name>'}.`,
      };
    },
    /**
     * `{ status, message }` when a browser on a foreign origin asks to change state: the
     * request itself, or its CORS preflight.
     */
    refuseOrigin(req) {
      const origin = req.headers.origin;
      if (origin === undefined) return undefined;
      const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
      const method = preflight ? String(req.headers['access-control-request-method']).toUpperCase() : req.method;
      if (!STATE_CHANGING.has(method) || originTrusted(origin)) return undefined;
      const shown = JSON.stringify(String(origin).slice(0, 100));
      return {
        status: 403,
        code: 'ForeignOrigin',
        message: `${method} from the origin ${shown} is refused: a page on another site may read this local server but not change its state. To allow it, start it with --allow-origin ${originOf(origin)?.origin ?? '<origin>'} (or --allow-origin '*').`,
      };
    },
  };
}
