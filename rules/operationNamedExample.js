// House rule: every operation has at least one named example (an `examples:` entry) on a
// parameter, its request body or a response. The mock serves examples by name
// (`Prefer: example=<Scenario>`), and the contract tests and docs build one request per
// named example: an operation without any has no scenario to send. A DELETE answering
// 204 has no body to show, so its key parameter carries the name
// (`examples: { <Scenario>: { value: … } }`); a bare `example:` has no name.
import { operationsOf } from '../model/operations.mjs';
import { mediaOf } from './walk.js';

const named = (node) => Boolean(node?.examples && typeof node.examples === 'object' && Object.keys(node.examples).length > 0);

export default function operationNamedExample(document) {
  const results = [];
  for (const [pathKey, method, operation, pathItem] of operationsOf(document)) {
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])];
    const bodies = [operation.requestBody, ...Object.values(operation.responses ?? {})];
    if (parameters.some(named) || bodies.some((holder) => mediaOf(holder, []).some(([media]) => named(media)))) continue;
    results.push({
      message: `${method.toUpperCase()} ${pathKey} has no named example: give a response or the request body \`examples: { <Scenario>: … }\`, or (a 204 has no body) its key parameter \`examples: { <Scenario>: { value: … } }\`; the mock, contract tests and docs send each by name.`,
      path: ['paths', pathKey, method],
    });
  }
  return results;
}
