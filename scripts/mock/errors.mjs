// Every error the mock answers, in the error model of the operation's family:
//   resource management  CloudError     { error: { code, message } }  (the source's model)
//   name check           ErrorResponse  { error: { code, message } }  (the source's model)
//   business data        { error: { code, message } }  -- the source does not show this
//     body (its schema stays open, BusinessCentralError); the mock's choice is the same
//     envelope, so a client can always read `error.code` and `error.message`.
// A message names what was wrong; never a placeholder, never `null`.

/** An answer object as the server writes it. */
export const answer = (status, body, headers = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body });

export function errorAnswer(status, code, message, { target, headers } = {}) {
  return answer(status, { error: { code, message, ...(target === undefined ? {} : { target }) } }, headers);
}

/** Codes by status for the mock's own answers, in each family's spelling. */
const CODES = {
  'resource-manager': { 400: 'InvalidRequest', 401: 'AuthenticationFailed', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable', 412: 'PreconditionFailed', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType' },
  'business-central': { 400: 'BadRequest', 401: 'Unauthorized', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable', 412: 'PreconditionFailed', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType' },
};

export function familyError(family, status, message, options = {}) {
  const code = options.code ?? CODES[family]?.[status] ?? `Status${status}`;
  return errorAnswer(status, code, message, options);
}

/** The text of Prism's validation results: "query.api-version must be ...; body ...". */
export function describeViolations(validations) {
  return validations
    .filter((v) => v.severity === 0)
    .map((v) => {
      const where = (v.path ?? []).join('.');
      return where && !v.message.startsWith(where) ? `${where}: ${v.message}` : v.message;
    })
    .join('; ');
}
