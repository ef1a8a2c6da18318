// A fetch double for the client tests: records every Request it receives (with its
// body read once) and answers from a function of the call number and the request.

export interface Call {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

export type Answer = Response | Promise<Response> | (() => Response | Promise<Response>);

export function fakeFetch(answer: (call: Call, index: number, request: Request) => Answer) {
  const calls: Call[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const call: Call = {
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: request.body ? await request.clone().text() : '',
    };
    calls.push(call);
    const a = answer(call, calls.length - 1, request);
    return typeof a === 'function' ? a() : a;
  };
  return { fetch, calls };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** A fetch that never answers until the request's signal fires, then rejects with its reason. */
export const hangingFetch = (request: Request) =>
  new Promise<Response>((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });

export const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
export const GUID = '8d4e7a53-3f4b-4c2a-9d7e-5b6a1c2d3e4f';
export const ROLE = '/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}';
export const CHECK = '/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability';
export const IMAGES = '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages';
export const VENDOR = '/companies({company_id})/vendors({vendor_id})';
export const SHIPMENTS = '/companies({company_id})/shipmentMethods';
