// The test API over HTTP, for a harness in another process, under a reserved prefix
// (default `/__mock`; no document may declare a path under it, checked at load):
//   GET    /__mock             what is here
//   GET    /__mock/state       what the mock holds            (mock.state)
//   POST   /__mock/seed        { entities?, takenNames?, lists?, pageSizes? } -> the seeded entities
//   GET    /__mock/overrides   the overrides in force
//   POST   /__mock/overrides   one override (`when` as an object) -> 201 { id }
//   DELETE /__mock/overrides   clears them
//   GET    /__mock/long-running  the long-running rules in force
//   POST   /__mock/long-running  one rule (`when` as an object) -> 201 { id }  (mock.longRunning)
//   DELETE /__mock/long-running  clears them
//   GET    /__mock/requests    what the mock received         (mock.requests)
//   DELETE /__mock/requests    clears the record
//   POST   /__mock/reset       { takenNames? }: state, overrides and record back to start
// Loopback clients only (127.0.0.0/8, ::1), and no browser: a request that carries
// `Origin` (a web page's, cross-site or not) gets 403, and answers carry no CORS headers,
// so a page the developer happens to have open cannot read the record or seed the mock.
// Answers are JSON; errors are { error: { code, message } }.
import { errorAnswer } from '../errors.mjs';
import { readBody } from '../guards.mjs';

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export const isLoopback = (address) => LOOPBACK.test(String(address ?? ''));

/** True when `path` is the admin prefix or under it. */
export const isAdminPath = (prefix, path) => Boolean(prefix) && (path === prefix || path.startsWith(`${prefix}/`));

const json = (status, body) => ({ status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body });
const failure = (status, code, message) => errorAnswer(status, code, message, { headers: { 'cache-control': 'no-store' } });

/** An endpoint that does `act` with the body, then says it is done: { [done]: true }. */
const doing = (done, act) => (body) => {
  act(body);
  return json(200, { [done]: true });
};

/** Answers one admin request; `api` is the test API (test-api/index.mjs). Resolves the answer. */
export async function adminAnswer(req, path, prefix, api) {
  if (!isLoopback(req.socket.remoteAddress)) return failure(403, 'Forbidden', `${prefix} answers loopback clients only.`);
  if (req.headers.origin !== undefined)
    return failure(
      403,
      'Forbidden',
      `${prefix} answers test harnesses, not web pages (the request carries Origin ${JSON.stringify(String(req.headers.origin).slice(0, 100))}).`,
    );
  const route = path.slice(prefix.length) || '/';
  const endpoints = {
    '/': {
      GET: () =>
        json(200, {
          endpoints: Object.keys(endpoints)
            .filter((p) => p !== '/')
            .map((p) => `${prefix}${p}`),
        }),
    },
    '/state': { GET: () => json(200, api.snapshot()) },
    '/seed': { POST: (body) => json(200, api.seed(body)) },
    '/overrides': {
      GET: () => json(200, api.overrides.list()),
      POST: (body) => json(201, { id: api.override(body).id }),
      DELETE: doing('cleared', api.overrides.clear),
    },
    '/long-running': {
      GET: () => json(200, api.snapshot().longRunning),
      POST: (body) => json(201, { id: api.longRunning(body).id }),
      DELETE: doing('cleared', api.clearLongRunning),
    },
    '/requests': { GET: () => json(200, api.requests()), DELETE: doing('cleared', api.log.clear) },
    '/reset': { POST: doing('reset', (body) => api.reset(body ?? undefined)) },
  };
  const methods = endpoints[route];
  if (!methods)
    return failure(
      404,
      'NotFound',
      `${path} is not an endpoint of the mock's test API (${Object.keys(endpoints)
        .map((p) => prefix + (p === '/' ? '' : p))
        .join(', ')}).`,
    );
  const handler = methods[req.method];
  if (!handler)
    return {
      ...failure(405, 'MethodNotAllowed', `${req.method} ${path}: allowed ${Object.keys(methods).join(', ')}.`),
      headers: { allow: Object.keys(methods).join(', ') },
    };
  const read = await readBody(req);
  if (read.problem) return failure(read.problem[0], 'BadRequest', read.problem[1]);
  let body;
  if (read.text.length) {
    try {
      body = JSON.parse(read.text.toString('utf8'));
    } catch (error) {
      return failure(400, 'BadRequest', `The body is not valid JSON: ${error.message}`);
    }
  }
  if (req.method === 'POST' && route !== '/reset' && body === undefined) return failure(400, 'BadRequest', `POST ${path} needs a JSON body.`);
  try {
    return handler(body);
  } catch (error) {
    return failure(400, 'BadRequest', error.message);
  }
}
