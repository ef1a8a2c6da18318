// What an override does to one request (overrides.mjs picks it): wait, then answer with
// its status, headers and body; or hold the answer back (`timeout`); or drop the
// connection (`drop`). A delay alone lets the mock answer as usual afterwards.
import { STATUS_CODES } from 'node:http';
import { responseExamples } from '../documents.mjs';
import { errorAnswer, familyError } from '../errors.mjs';

/** Applies `rule`; resolves true when the request is dealt with, false when the mock answers it as usual. */
export async function applyOverride(rule, { req, res, record, family, entry, held, send }) {
  if (rule.failed) {
    send(res, errorAnswer(500, 'MockOverrideFailed', rule.failed));
    return true;
  }
  record.override = rule.id;
  if (rule.delayMs) await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
  if (rule.fault === 'timeout') {
    // Never answered: held until the client gives up, reset() or close().
    record.fault = 'timeout';
    held.add(res);
    res.once('close', () => held.delete(res));
    return true;
  }
  if (rule.fault === 'drop') {
    record.fault = 'drop';
    req.socket.destroy();
    return true;
  }
  if (rule.status === undefined) return false;
  send(res, overrideAnswer(rule, family, entry));
  return true;
}

/** The answer an override gives: its status, headers and body; a family error body when an error status comes without one. */
function overrideAnswer(rule, family, entry) {
  const headers = { ...(rule.headers ?? {}) };
  if (rule.body !== undefined) return { status: rule.status, headers: { 'content-type': 'application/json', ...headers }, body: rule.body };
  if (rule.status >= 400) {
    const code = (STATUS_CODES[rule.status] ?? `Status ${rule.status}`).replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? '').toUpperCase());
    return familyError(family, rule.status, `Answered ${rule.status} because a test override asked for it (${rule.operationId}).`, { code, headers });
  }
  // A success without a body: the operation's documented example for that status, if any.
  const example = Object.values(responseExamples(entry.doc.document, entry.operation.iid, String(rule.status)))[0];
  return example === undefined ? { status: rule.status, headers, body: undefined } : { status: rule.status, headers: { 'content-type': 'application/json', ...headers }, body: example };
}
