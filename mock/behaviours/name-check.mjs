// Servers_CheckNameAvailability as the source states it: a name that breaks the naming
// rules is `Invalid`, a taken name `AlreadyExists`, any other name available. A wrong
// request body is a 400 ErrorResponse: `UnknownNameType` for a `type` the check does not
// know, else `InvalidNameAvailabilityRequest`. The answer always names the name sent.
// Taken: a name of the mock's taken names, or the name of a resource the ARM store holds
// of the type asked about (`Provider.Sql/servers`: a server created through any
// api-version), compared without case as ARM compares names.
import { deref } from '../../model/operations.mjs';
import { findOperation, responseExamples } from '../documents.mjs';
import { answer, describeViolations, errorAnswer } from '../errors.mjs';
import { storedNames } from '../state.mjs';

export const operationId = 'Servers_CheckNameAvailability';

/** The rules, as the source's `Invalid` message states them. */
export const NAME_RULES =
  "A name has at most 63 characters, uses only lower-case letters, digits and inner hyphens, contains no '.' or '_', and neither starts nor ends with '-'.";
export const MAX_NAME_LENGTH = 63;

/** The first rule a name breaks, as a phrase ("is 64 characters long, ..."), or undefined. */
export function brokenNameRule(name) {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_LENGTH) return `is ${name.length} characters long, more than ${MAX_NAME_LENGTH}`;
  if (name.includes('.')) return "contains '.'";
  if (name.includes('_')) return "contains '_'";
  if (/[A-Z]/.test(name)) return 'contains upper-case letters';
  const other = /[^a-z0-9-]/u.exec(name);
  if (other) return `contains ${JSON.stringify(other[0])}, which is not a lower-case letter, a digit or a hyphen`;
  if (name.startsWith('-')) return "starts with '-'";
  if (name.endsWith('-')) return "ends with '-'";
  return undefined;
}

export function invalidNameMessage(name, broken) {
  return `'${name}' is not a valid server name: it ${broken}. ${NAME_RULES}`;
}

/** Names the spec's `AlreadyExists` examples show as taken: the mock's taken names at start. */
export function takenNamesOf(documents) {
  return documents.flatMap((doc) =>
    Object.values(responseExamples(doc.document, operationId, '200'))
      .filter((value) => value?.reason === 'AlreadyExists' && typeof value.name === 'string')
      .map((value) => value.name),
  );
}

/** The resource types the request schema allows (`type` enum or const). */
function knownTypes(document) {
  const found = findOperation(document, operationId);
  const body = deref(document, found?.operation.requestBody);
  const schema = deref(document, body?.content?.['application/json']?.schema);
  const type = deref(document, schema?.properties?.type);
  return type?.enum ?? (type?.const === undefined ? [] : [type.const]);
}

export function respond({ body, state }) {
  const { name } = body;
  const broken = brokenNameRule(name);
  if (broken) return answer(200, { name, available: false, reason: 'Invalid', message: invalidNameMessage(name, broken) });
  if (state.takenNames.has(name) || storedNames(state, body.type).has(name.toLowerCase()))
    return answer(200, { name, available: false, reason: 'AlreadyExists', message: `Server name '${name}' is already in use.` });
  return answer(200, { name, available: true });
}

/** Any rejected request (body, parameters, media type) is one of the two 400s of the source. */
export function rejected({ body, doc, validations }) {
  const type = body && typeof body === 'object' && !Array.isArray(body) ? body.type : undefined;
  const known = knownTypes(doc.document);
  if (typeof type === 'string' && known.length && !known.includes(type)) {
    return errorAnswer(400, 'UnknownNameType', `'${type}' is not a resource type known to a subscription-level name check (known: ${known.join(', ')}).`, {
      target: 'type',
    });
  }
  return errorAnswer(
    400,
    'InvalidNameAvailabilityRequest',
    `The name availability request is invalid: ${describeViolations(validations) || 'the body is not a name and a type'}.`,
  );
}
