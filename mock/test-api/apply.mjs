// What an override does to one request (overrides.mjs picks it): wait, then answer with
// its status, headers and body; or hold the answer back (`timeout`); or drop the
// connection (`drop`). A delay alone lets the mock answer as usual afterwards.
import { responseExamples } from '../documents.mjs';
import { askedError, errorAnswer } from '../errors.mjs';

/**
 * Applies `rule` to the request (ctx of the request path): resolves its answer
 * (`{ fault }` for one the server carries out: hold the answer back, or drop the
 * connection), or undefined when the mock answers it as usual.
 * @param {any} rule
 * @param {{ record: Record<string, any>, doc: any, op: any }} ctx
 */
export async function applyOverride(rule, { record, doc, op }) {
  if (rule.failed) return errorAnswer(500, 'MockOverrideFailed', rule.failed);
  record.override = rule.id;
  if (rule.delayMs) await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
  // timeout: never answered, held until the client gives up, reset() or close().
  if (rule.fault) {
    record.fault = rule.fault;
    return { fault: rule.fault };
  }
  if (rule.status === undefined) return undefined;
  const headers = { ...(rule.headers ?? {}) };
  if (rule.body !== undefined) return { status: rule.status, headers: { 'content-type': 'application/json', ...headers }, body: rule.body };
  // An error status without a body: the family's error body.
  if (rule.status >= 400) return askedError(rule.status, `Answered ${rule.status} because a test override asked for it (${rule.operationId}).`, headers);
  // A success without a body: the operation's documented example for that status, if any.
  const example = Object.values(responseExamples(doc.document, op.iid, String(rule.status)))[0];
  return example === undefined
    ? { status: rule.status, headers, body: undefined }
    : { status: rule.status, headers: { 'content-type': 'application/json', ...headers }, body: example };
}
