// House rule: the example of an OData query option that names properties ($select,
// $orderby, $filter, $expand), on any operation of a business-data document, names only
// what the operation's entity has (model/odata.mjs reads both): a property of the list's
// `value` items (or of the entity answered), and for $expand a navigation property. An
// annotation (`@odata.etag`) is never a property. The docs' samples, "Try it" and the
// contract tests send these examples, and the mock answers a name the entity lacks with
// 400. A shared parameter (common/business-central/parameters/) is checked at every
// operation that uses it: its example must fit them all, and a finding is reported in the
// operation's own file (at the parameter, or at its `parameters:` when the parameter is a
// `$ref` to another file, where every user would share one place).
import { BUSINESS_CENTRAL, familyOf } from '../model/family.mjs';
import { entitySchemaOf, queryMisfitsOf } from '../model/odata.mjs';
import { operationsOf } from '../model/operations.mjs';
import { propertiesOf } from '../model/schemas.mjs';

/**
 * The properties of the operation's entity; none where its schema is malformed (an `allOf`
 * that is not a list: the structural rules report it, and a throw would stop all of lint).
 * @param {any} operation
 * @returns {Record<string, any>}
 */
function entityPropertiesOf(operation) {
  try {
    return propertiesOf(entitySchemaOf(operation));
  } catch {
    return {};
  }
}
const listOf = (/** @type {unknown} */ value) => (Array.isArray(value) ? value : []);

/**
 * @param {any} document the resolved document
 * @param {unknown} _options
 * @param {any} context Spectral's (its document inventory maps a path to a file)
 */
export default function odataQueryExample(document, _options, context) {
  if (familyOf(document) !== BUSINESS_CENTRAL) return [];
  const sourceOf = (/** @type {(string | number)[]} */ path) => context?.documentInventory?.findAssociatedItemForPath(path, true)?.document?.source;
  const inOperationFile = (/** @type {(string | number)[]} */ path) => (sourceOf(path) === sourceOf(path.slice(0, -1)) ? path : path.slice(0, -1));
  const results = [];
  for (const [pathKey, method, operation, pathItem] of operationsOf(document)) {
    const properties = entityPropertiesOf(operation);
    if (Object.keys(properties).length === 0) continue; // no entity to judge by
    /** @type {[any, (string | number)[]][]} */
    const own = listOf(operation.parameters).map((/** @type {any} */ p, /** @type {number} */ i) => [p, ['paths', pathKey, method, 'parameters', i]]);
    /** @type {[any, (string | number)[]][]} */
    const shared = listOf(pathItem.parameters).map((/** @type {any} */ p, /** @type {number} */ i) => [p, ['paths', pathKey, 'parameters', i]]);
    const overridden = (/** @type {any} */ p) => own.some(([o]) => o?.name === p?.name && o?.in === p?.in);
    for (const [parameter, path] of [...shared.filter(([p]) => !overridden(p)), ...own]) {
      if (parameter?.in !== 'query') continue;
      const examples = [
        ['example', parameter.example],
        ...Object.entries(parameter.examples ?? {}).map(([name, example]) => [`example ${name}`, example?.value]),
      ];
      for (const [which, value] of examples) {
        const misfits = queryMisfitsOf(parameter.name, value, properties);
        if (misfits.length === 0) continue;
        results.push({
          message: `${method.toUpperCase()} ${pathKey}: the ${which} of ${parameter.name}, ${JSON.stringify(value)}, does not fit the operation's entity (${misfits.join('; ')}): the docs' samples, Try it and the contract tests send it and the mock answers 400. Give an example that names what this entity has; a shared parameter's example must fit every operation that uses it.`,
          path: inOperationFile(path),
        });
      }
    }
  }
  return results;
}
