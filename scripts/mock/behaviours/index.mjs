// The behaviours the source states, by operationId. Each module exports
//   respond(ctx)          the answer to a valid request that asks for no example/status,
//   rejected(ctx)         (optional) the answer to a request Prism found invalid,
//   decorate(ctx, answer) (optional) headers every answer of the operation carries.
// ctx: { body, headers, params, query, rawPath, origin, state, doc, validations }.
import * as cachedImages from './cached-images.mjs';
import * as nameCheck from './name-check.mjs';
import * as shipmentMethod from './shipment-method.mjs';
import * as vendor from './vendor.mjs';

export const behaviours = new Map([nameCheck, vendor, shipmentMethod, cachedImages].map((b) => [b.operationId, b]));
