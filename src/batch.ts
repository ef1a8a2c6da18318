/**
 * OData 4.01 JSON `$batch` for the business-data client: requests are built from the path
 * methods' own arguments (path template, `params`, `body`), sent as one POST to the
 * `$batch` of the version they are all sent at, and each answer is read back typed as
 * that operation's result.
 *
 *   const batch = createBatch(bc);   // imported on its own: an app that never batches ships none of this
 *   const a = batch.POST('/companies({company_id})/salesOrders', { params, body });
 *   const b = batch.PATCH(keyPath, { params, body }, { dependsOn: [a], atomicityGroup: 'g1' });
 *   const c = batch.at(a).GET('/companies({company_id})/salesOrders({salesOrder_id})/lines'); // url `$1/lines`
 *   const result = await batch.send();
 *   if (result.ok) result.get(a); // { ok, status, headers, data, error }, typed like POST's result
 *
 * Each request's `url` is relative to the service root (`companies(<id>)/salesOrders?$top=2`),
 * built as the path method would build it (the same path serializer, the query as openapi-fetch writes it);
 * its `headers` are its `params.header` and `headers`. A request added through `at(earlier)`
 * starts its `url` with `$<id>`, which the service reads as the URL of that earlier request's
 * result (the entity a POST created, else the earlier request's own URL: OData 4.01 JSON
 * batch), and depends on it; its path names the operation as usual, and the part of it that
 * `$<id>` stands for takes no parameters. The batch POST itself is an ordinary
 * call of the client: same origin, the token from the caller per attempt, the timeout, the
 * body limit, no redirect, never retried (POST). Refused before anything is sent (a rejected
 * `send()`, nothing added is sent), with a ClientError naming why: an empty batch, a request
 * that cannot be built (a path parameter, the body), and a request the client sends at
 * another version than its `$batch` (one batch goes to one version's service root, so a
 * batch mixing versions is refused at its first request of the other version). The types
 * take only a client one of whose versions declares `/$batch`.
 */
import { CORE, type Core } from './core.js';
import type { DataOf, OperationOf, RequiredKeys } from './conventions.js';
import { ClientError } from './errors.js';
import { errorBody } from './results.js';
import type { HttpMethod, InitOf, InitParam, PathsWithMethod, Result } from './types.js';

declare const ANSWER: unique symbol;
declare const RESULT: unique symbol;

/**
 * A request added to a batch: what `dependsOn` names, `at` starts from and `get` reads. `A` is
 * its answer's type, `R` the path template of its result's URL (a POST's: its path and a key).
 */
export interface BatchRequest<A = unknown, R extends string = string> {
  readonly id: string;
  /** Types only: the answer `get` gives for this request. */
  readonly [ANSWER]?: A;
  /** Types only: the paths `at(request)` takes, which start with this. */
  readonly [RESULT]?: R;
}

/** One request's answer inside a batch: like a path method's result, with `status` and `headers` in place of a Response. */
export type BatchAnswer<O> =
  O extends Record<string | number, any>
    ?
        | { ok: true; status: number; headers: Record<string, string>; data: DataOf<O>; error?: never }
        | { ok: false; status: number; headers: Record<string, string>; data?: never; error: Extract<Result<O>, { ok: false }>['error'] }
    : never;

export interface BatchRequestOptions {
  /** Earlier requests (or atomicity group names) this one runs after; it answers 424 when one failed. */
  dependsOn?: ReadonlyArray<BatchRequest<any> | string>;
  /** All or nothing: the requests of one group (adjacent) are undone together when one fails. */
  atomicityGroup?: string;
}

/** Where a request's result is: what a POST (a create) made under its path, else its own path. */
type ResultOf<M, Path> = Path extends string ? (M extends 'post' ? `${Path}({${string}})` : Path) : never;

type Add<P, M extends HttpMethod> = <Path extends PathsWithMethod<P, M>, Init extends InitOf<P, Path, M>>(
  path: Path,
  ...init: [...InitParam<Init>, BatchRequestOptions?]
) => BatchRequest<BatchAnswer<OperationOf<P, Path, M>>, ResultOf<M, Path>>;

/** The placeholders of a path template. */
type Names<S> = S extends `${string}{${infer N}}${infer Rest}` ? N | Names<Rest> : never;
/** The operation with the path parameters `N` taken out (optional when none is left). */
type Without<O, N> = O extends { parameters: infer Params }
  ? Omit<O, 'parameters'> & {
      parameters: Omit<Params, 'path'> &
        (Params extends { path?: infer Given }
          ? [RequiredKeys<Omit<NonNullable<Given>, N & string>>] extends [never]
            ? { path?: Omit<NonNullable<Given>, N & string> }
            : { path: Omit<NonNullable<Given>, N & string> }
          : {});
    }
  : O;
/** What `at(earlier)` adds: a path at or below the earlier result `R`, without the parameters of the part `$<id>` stands for. */
type AddAt<P, M extends HttpMethod, R extends string> = <
  Path extends PathsWithMethod<P, M> & (R | `${R}/${string}`),
  Init extends InitOf<
    { at: { [K in M]: Without<OperationOf<P, Path, M>, Exclude<Names<Path>, Names<Path extends `${R}/${infer Rest}` ? Rest : ''>>> } },
    'at',
    M
  >,
>(
  path: Path,
  ...init: [...InitParam<Init>, BatchRequestOptions?]
) => BatchRequest<BatchAnswer<OperationOf<P, Path, M>>, ResultOf<M, Path>>;

/** What `send()` resolves with: the batch POST's own result, and on success each request's answer. */
export type BatchResult<P> =
  | { ok: true; response: Response; get<A>(request: BatchRequest<A>): A; error?: never }
  | {
      ok: false;
      response: Response;
      error: '/$batch' extends keyof P ? Extract<BatchAnswer<OperationOf<P, '/$batch', 'post'>>, { ok: false }>['error'] : unknown;
    };

export interface Batch<P> {
  GET: Add<P, 'get'>;
  POST: Add<P, 'post'>;
  PUT: Add<P, 'put'>;
  PATCH: Add<P, 'patch'>;
  DELETE: Add<P, 'delete'>;
  /** Requests whose URL starts at the result of an earlier request of this batch (`$<id>`), and depend on it. */
  at<R extends string>(
    earlier: BatchRequest<any, R>,
  ): { GET: AddAt<P, 'get', R>; POST: AddAt<P, 'post', R>; PUT: AddAt<P, 'put', R>; PATCH: AddAt<P, 'patch', R>; DELETE: AddAt<P, 'delete', R> };
  /** Sends the requests added so far as one `$batch`. Rejects (nothing sent) with a ClientError when the batch cannot be sent. */
  send(init?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<BatchResult<P>>;
}

declare const PATHS: unique symbol;
/** The paths a business-data client is typed by (a type-only member: nothing at run time). */
export interface WithPaths<P> {
  readonly [PATHS]?: P;
}

/**
 * A new batch of `client`'s operations, where one of its versions declares `/$batch`. A
 * function of its own, not a method, so that an app that never batches bundles none of it.
 */
export function createBatch<P>(client: WithPaths<P> & ('/$batch' extends keyof P ? unknown : never)): Batch<P> {
  const core = (client as { [CORE]?: Core })[CORE];
  if (!core) throw new ClientError('invalid-argument', 'createBatch: not a business-data client of this package; nothing sent.', { parameter: 'client' });
  return batchOf(core);
}

/** A new batch of `core`'s operations. */
export function batchOf(core: Core): Batch<any> {
  const requests: Array<Record<string, unknown>> = [];
  const handles: BatchRequest[] = [];
  /** Each request's method and path template, by its index in `handles`. */
  const made: Array<[string, string]> = [];
  const root = core.operation('POST', '/$batch');
  let fault: unknown = root ? undefined : new ClientError('unknown-operation', '$batch: not an operation this client sends; nothing sent.');

  const add =
    (method: string, at?: BatchRequest) =>
    (path: string, init: Record<string, any> = {}, { dependsOn, atomicityGroup }: BatchRequestOptions = {}): BatchRequest => {
      const id = String(handles.push({ id: String(handles.length + 1) }));
      made.push([method, path]);
      try {
        const { params = {}, body, headers } = init;
        // The part of the path that `$<id>` stands for: the earlier request's path, and a POST's key after it.
        const [earlier, under = ''] = (at && made[handles.indexOf(at)]) || [];
        const end = earlier === 'POST' ? path.indexOf(')', under.length) + 1 : under.length;
        if (at && !(earlier && path.startsWith(earlier === 'POST' ? `${under}(` : under) && /^(\/|$)/.test(path.slice(end)))) {
          const what = earlier ? `request ${at.id} (${earlier} ${under})` : 'a request of this batch';
          throw new ClientError('invalid-argument', `$batch: request ${id} (${method} ${path}) is not at or below the result of ${what}; nothing sent.`, {
            parameter: 'at',
          });
        }
        const op = core.operation(method, path);
        if (op?.version !== root?.version) {
          // One batch goes to one version's service root.
          throw new ClientError(
            'invalid-argument',
            `$batch: request ${id} (${method} ${path}) is sent at ${op?.version}, the batch at ${root?.version}; pin the version or send one batch per version; nothing sent.`,
            { parameter: 'apiVersions' },
          );
        }
        // The query as openapi-fetch's default serializer writes the primitives and arrays of OData's query options.
        const query = Object.entries(params.query ?? {}).flatMap(([name, value]) =>
          value == null ? [] : (Array.isArray(value) ? value : [value]).map((v) => `${name}=${encodeURIComponent(v)}`),
        );
        const url = op!.serialize(path.slice(end), params.path ?? {}) + (query.length ? `?${query.join('&')}` : '');
        const after = dependsOn?.map((d) => (typeof d === 'string' ? d : d.id));
        requests.push({
          id,
          method,
          url: at ? `$${at.id}${url}` : url.slice(1),
          headers: { ...params.header, ...headers },
          body,
          // A request that starts at an earlier one's result runs after it (OData asks the reference to be in dependsOn).
          dependsOn: at && !after?.includes(at.id) ? [...(after ?? []), at.id] : after,
          atomicityGroup,
        });
      } catch (cause) {
        fault ??= cause;
      }
      return handles[handles.length - 1]!;
    };

  async function send({ headers, signal }: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<any> {
    if (fault) throw fault;
    if (!requests.length) throw new ClientError('invalid-argument', '$batch: no request added; nothing sent.', { parameter: 'batch' });
    const result = await core.send('POST', '/$batch', { headers, signal, body: { requests } });
    if (!result.ok) return result;
    const { response, data } = result;
    const byId = new Map<string, any>((Array.isArray(data?.responses) ? data.responses : []).map((answer: any) => [String(answer?.id), answer]));
    const answers = new Map(handles.map((handle) => [handle, byId.get(handle.id)]));
    for (const [{ id }, answer] of answers) {
      if (!answer)
        throw new ClientError('invalid-body', `${root!.what} answered ${response.status} without an answer to request ${id}.`, { status: response.status });
    }
    const get = (request: BatchRequest) => {
      const answer = answers.get(request);
      if (!answer) throw new ClientError('invalid-argument', '$batch: get() takes a request of this batch.', { parameter: 'request' });
      const { status, headers = {}, body } = answer;
      return status >= 200 && status < 300
        ? { ok: true, status, headers, data: body }
        : { ok: false, status, headers, error: errorBody(body ?? undefined, { status, statusText: '' } as Response) };
    };
    return { ok: true, response, get };
  }

  const methods = (at?: BatchRequest) => ({
    GET: add('GET', at),
    POST: add('POST', at),
    PUT: add('PUT', at),
    PATCH: add('PATCH', at),
    DELETE: add('DELETE', at),
  });
  return { ...methods(), at: methods, send } as Batch<any>;
}
