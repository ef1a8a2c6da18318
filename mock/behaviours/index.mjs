// What the source states for one operation in particular, by operationId; everything
// else is answered by the family's conventions (conventions/). A module exports
//   respond(ctx)          the answer to a valid request that asks for no example/status
//                         (it then replaces the conventions for that operation),
//   rejected(ctx)         (optional) the answer to a request Prism found invalid,
//   decorate(ctx, answer) (optional) headers every answer of the operation carries,
//   extraItems            (optional) items a paged list holds besides its examples' items.
// ctx: { body, headers, params, query, rawPath, origin, state, doc, validations }.
import * as cachedImages from './cached-images.mjs';
import * as nameCheck from './name-check.mjs';

export const behaviours = new Map([nameCheck, cachedImages].map((b) => [b.operationId, b]));
