// updateVendor with optimistic concurrency, per mock process. A vendor the mock has not
// seen starts as the spec's example vendor with the id of the path, and with the eTag of
// the spec's If-Match example (or the mock's documented initial tag when the spec has
// none). Every answer about a vendor carries its current tag in `ETag`.
//   If-Match equal to the current tag (or `*`): apply the fields sent, stamp
//     lastModifiedDateTime, new tag, 200 with the whole vendor.
//   Otherwise: the vendor is not changed (the source says so) and the answer is
//     412 Precondition Failed with the current ETag -- HTTP's answer (RFC 9110, 13.1.1);
//     the source does not show it (the operation's x-source-gap).
import { randomBytes } from 'node:crypto';
import { deref, findOperation, responseExamples } from '../documents.mjs';
import { answer, errorAnswer } from '../errors.mjs';

export const operationId = 'updateVendor';

/** The initial tag when the spec gives If-Match no example: the tag the README's examples use. */
export const INITIAL_ETAG = 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="';
const READ_ONLY = new Set(['id', 'lastModifiedDateTime']);

const newETag = () => `W/"${randomBytes(18).toString('base64')}"`;

function initialETag(document) {
  const found = findOperation(document, operationId);
  const ifMatch = (found?.operation.parameters ?? []).map((p) => deref(document, p)).find((p) => p?.in === 'header' && p.name?.toLowerCase() === 'if-match');
  const example = ifMatch?.example ?? Object.values(ifMatch?.examples ?? {}).map((e) => deref(document, e)?.value)[0];
  return typeof example === 'string' && example.trim() ? example : INITIAL_ETAG;
}

/** The stored vendor of the request's path, created from the example on first sight. */
function vendorOf({ state, doc, params }) {
  // Versions of one API share their vendors (the same resource); other APIs do not.
  const key = `${doc.api.apiName}|${params.company_id}|${String(params.vendor_id).toLowerCase()}`;
  let entry = state.vendors.get(key);
  if (!entry) {
    const example = Object.values(responseExamples(doc.document, operationId, '200'))[0] ?? {};
    entry = { vendor: { ...structuredClone(example), id: params.vendor_id }, eTag: initialETag(doc.document) };
    state.vendors.set(key, entry);
  }
  return entry;
}

const matches = (ifMatch, current) =>
  String(ifMatch)
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === current);

export function respond(ctx) {
  const entry = vendorOf(ctx);
  const ifMatch = ctx.headers['if-match'];
  if (!matches(ifMatch, entry.eTag)) {
    return errorAnswer(412, 'PreconditionFailed', `If-Match ${ifMatch} is not the vendor's current eTag ${entry.eTag}: the vendor was not updated. Read the current tag from the ETag header and retry.`, {
      headers: { etag: entry.eTag },
    });
  }
  for (const [field, value] of Object.entries(ctx.body)) if (!READ_ONLY.has(field)) entry.vendor[field] = value;
  entry.vendor.lastModifiedDateTime = new Date().toISOString();
  entry.eTag = newETag();
  return answer(200, structuredClone(entry.vendor), { etag: entry.eTag });
}

/** Any other answer about a valid vendor path (a Prefer example, a rejected body) gets the tag too. */
export function decorate(ctx, result) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(ctx.params.vendor_id))) return result;
  return { ...result, headers: { ...result.headers, etag: vendorOf(ctx).eTag } };
}
