// A stand-in for a real service, on a free port of 127.0.0.1: it answers some requests as
// the documents promise and breaks the contract in known ways for others. The proxy and
// verify tests check that every known break is reported and nothing else is.
//
// Correct: the name check (all three 200 outcomes, both 400 codes), the role eligibility
// request 64caffb6-..., the cached images list in two pages (nextLink on the request's
// own origin).
// Broken, on purpose (BREAKS lists what a validator must say about each):
//   role eligibility request 0bad0000-...   status "Unknown" (not one of the 22)
//   name check name "boom-503"              503 text/html (status and content type not declared)
//   name check name "lost-field"            200 without `available` (a required field)
//   cached images in location "brokenregion"  osType 5 (wrong type)
//   shipment method create                  201 as text/plain (undeclared content type)
//   vendor update                           ignores If-Match (a stale tag updates too) and
//                                           answers `balance` as a string (wrong type)
import http from 'node:http';

export const GOOD_REQUEST = '64caffb6-55c0-4deb-a585-68e948ea1ad6';
export const BAD_REQUEST = '0bad0000-55c0-4deb-a585-68e948ea1ad6';
export const SUB = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
export const COMPANY = '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f';
export const VENDOR = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';

export interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
}

const roleRequest = (name: string, status: string) => ({
  id: `/subscriptions/${SUB}/providers/Provider.Authorization/RoleEligibilityRequests/${name}`,
  name,
  type: 'Provider.Authorization/RoleEligibilityRequests',
  properties: {
    scope: `/subscriptions/${SUB}`,
    principalType: 'User',
    requestType: 'AdminAssign',
    status,
    scheduleInfo: { startDateTime: '2020-09-09T21:35:27.91Z', expiration: { type: 'AfterDuration', endDateTime: null, duration: 'P365D' } },
    conditionVersion: '1.0',
  },
});

const vendor = {
  id: VENDOR,
  number: '50000',
  displayName: 'Fabrikam Supplies',
  city: 'Atlanta',
  blocked: 'Payment',
  balance: 1250.5,
  lastModifiedDateTime: '2020-08-21T00:24:13.68Z',
};

const IMAGES = [
  { image: 'nginx:1.27', osType: 'Linux' },
  { image: 'mcr.microsoft.com/windows/servercore:ltsc2022', osType: 'Windows' },
  { image: 'alpine:3.20', osType: 'Linux' },
];

function invalidName(name: string) {
  return name.length > 63 || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name);
}

export async function startFakeUpstream() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
      const json = (status: number, body: unknown, type = 'application/json') => {
        const out = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(out) });
        res.end(out);
      };
      const url = new URL(req.url!, `http://${req.headers.host}`);
      const path = decodeURIComponent(url.pathname);
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }

      let m = /\/roleEligibilityScheduleRequests\/([^/]+)$/.exec(path);
      if (m && req.method === 'GET') {
        return json(200, roleRequest(m[1]!, m[1] === BAD_REQUEST ? 'Unknown' : 'Provisioned'));
      }
      if (/\/providers\/Provider\.Sql\/checkNameAvailability$/.test(path) && req.method === 'POST') {
        if (!body || typeof body.name !== 'string')
          return json(400, { error: { code: 'InvalidNameAvailabilityRequest', message: 'The name availability request is invalid.' } });
        if (body.type !== 'Provider.Sql/servers')
          return json(400, { error: { code: 'UnknownNameType', message: `'${body.type}' is unknown.`, target: 'type' } });
        if (body.name === 'boom-503') return json(503, '<html>Service Unavailable</html>', 'text/html');
        if (body.name === 'lost-field') return json(200, { name: body.name });
        if (invalidName(body.name))
          return json(200, { name: body.name, available: false, reason: 'Invalid', message: `'${body.name}' is not a valid server name.` });
        if (body.name === 'sales-db-west-01') return json(200, { name: body.name, available: false, reason: 'AlreadyExists', message: 'taken' });
        return json(200, { name: body.name, available: true });
      }
      m = /\/locations\/([^/]+)\/cachedImages$/.exec(path);
      if (m && req.method === 'GET') {
        if (m[1] === 'brokenregion') return json(200, { value: [{ image: 'nginx:1.27', osType: 5 }] });
        const second = url.searchParams.get('$skiptoken') === 'page2';
        if (second) return json(200, { value: IMAGES.slice(2) });
        const next = `http://${req.headers.host}${url.pathname}?api-version=2025-09-01&$skiptoken=page2`;
        return json(200, { value: IMAGES.slice(0, 2), nextLink: next });
      }
      if (/\/shipmentMethods$/.test(path) && req.method === 'POST') {
        return json(201, `id=1;code=${body?.code};displayName=${body?.displayName}`, 'text/plain');
      }
      if (/\/vendors\([^)]+\)$/.test(path) && req.method === 'PATCH') {
        Object.assign(vendor, body ?? {});
        res.setHeader('etag', `W/"${Date.now()}"`);
        return json(200, { ...vendor, balance: String(vendor.balance) });
      }
      return json(404, { error: { code: 'NotFound', message: `no route for ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
