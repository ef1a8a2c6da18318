// Every error the mock answers, in the error model of the operation's family:
//   resource management  CloudError     { error: { code, message } }  (the source's model)
//   name check           ErrorResponse  { error: { code, message } }  (the source's model)
//   business data        { error: { code, message } }  -- the source does not show this
//     body (its schema stays open, BusinessCentralError); the mock's choice is the same
//     envelope, so a client can always read `error.code` and `error.message`.
// A message names what was wrong; never a placeholder, never `null`.
// This is the one place that writes an error body: the request path, the conventions, the
// test API (its own answers and its overrides) and the server's unparsable requests all
// take theirs from here.
import { STATUS_CODES } from 'node:http';

/**
 * An answer as the request path passes it on and the server writes it.
 * @typedef {{ status: number, headers: Record<string, any>, body: unknown }} Answer
 */

/**
 * A JSON answer.
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, any>} [headers]
 * @returns {Answer}
 */
export const answer = (status, body, headers = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body });

/**
 * The error body `{ error: { code, message, target? } }` (ARM's CloudError, the name
 * check's ErrorResponse, business data's error), with its status.
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @param {{ target?: string, headers?: Record<string, any> }} [options]
 * @returns {Answer}
 */
export function errorAnswer(status, code, message, { target, headers } = {}) {
  return answer(status, { error: { code, message, ...(target === undefined ? {} : { target }) } }, headers);
}

/**
 * An error status a test or a request asked for (an override, `Prefer: code=`), coded
 * by its reason phrase (`ServiceUnavailable`).
 * @param {number} status
 * @param {string} message
 * @param {Record<string, any>} [headers]
 */
export function askedError(status, message, headers) {
  const code = (STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ?? '').toUpperCase());
  return errorAnswer(status, code, message, { headers });
}

/**
 * A request without the credentials its operation needs: 401 in the family's body, with
 * the challenge (`WWW-Authenticate`) of its security scheme.
 * @param {string} family
 * @param {string} [challenge]
 */
export function credentialsError(family, challenge = 'Bearer') {
  return familyError(family, 401, 'The request carries no valid credentials: send Authorization: Bearer <token>.', {
    headers: { 'www-authenticate': challenge },
  });
}

/**
 * A resource-management path whose scope is no ARM scope (a `{scope}` parameter takes any
 * segments): 400, coded as ARM's front door codes a request it cannot place
 * (`MissingSubscription`), naming the scope as sent.
 * @param {string} scope
 */
export function armScopeError(scope) {
  const forms =
    '/subscriptions/{subscriptionId}, /subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}, a resource id (…/providers/{Namespace}/{type}/{name}), or a management group (/providers/Microsoft.Management/managementGroups/{groupId})';
  return errorAnswer(
    400,
    'MissingSubscription',
    `The scope '${scope.slice(0, 200)}' is not an ARM scope: the request did not have a subscription or a valid tenant level resource provider. A scope is ${forms}.`,
    { target: 'scope' },
  );
}

/** Codes by status for the mock's own answers, in each family's spelling. */
const CODES = {
  'resource-manager': {
    400: 'InvalidRequest',
    401: 'AuthenticationFailed',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    412: 'PreconditionFailed',
    413: 'RequestEntityTooLarge',
    415: 'UnsupportedMediaType',
  },
  'business-central': {
    400: 'BadRequest',
    401: 'Unauthorized',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    406: 'NotAcceptable',
    412: 'PreconditionFailed',
    413: 'RequestEntityTooLarge',
    415: 'UnsupportedMediaType',
  },
};

/**
 * The mock's own error in the family's spelling of the status.
 * @param {string} family
 * @param {number} status
 * @param {string} message
 * @param {{ code?: string, target?: string, headers?: Record<string, any> }} [options]
 */
export function familyError(family, status, message, options = {}) {
  const code = options.code ?? CODES[family]?.[status] ?? `Status${status}`;
  return errorAnswer(status, code, message, options);
}

/**
 * The text of Prism's validation results: "query.api-version must be ...; body ...".
 * Prism gives path and header parameter names in lower case (`path.servername`); with
 * `names` (the operation's parameter names as the document spells them) such a violation
 * names its parameter that way again (`path.serverName`), in the place and in its message.
 * Nothing else is touched (a body field called `name` stays `name`).
 */
export function describeViolations(validations, names = []) {
  return validations
    .filter((v) => v.severity === 0)
    .map((v) => {
      const path = [...(v.path ?? [])];
      let message = String(v.message);
      if ((path[0] === 'path' || path[0] === 'header') && typeof path[1] === 'string') {
        const lower = path[1].toLowerCase();
        const spelled = names.find((name) => String(name).toLowerCase() === lower && name !== path[1]);
        if (spelled) {
          const word = new RegExp(`(?<![\\w-])${lower.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g');
          message = message.replace(word, spelled);
          path[1] = spelled;
        }
      }
      const where = path.join('.');
      return where && !message.startsWith(where) ? `${where}: ${message}` : message;
    })
    .join('; ');
}
