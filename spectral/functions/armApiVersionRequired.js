// House rule: every resource-management operation takes a required `api-version`
// query parameter, because the service versions each operation through it.
import { familyOf, operationsOf, RESOURCE_MANAGER } from './family.js';

export default function armApiVersionRequired(document) {
  if (familyOf(document) !== RESOURCE_MANAGER) return [];
  const results = [];
  for (const [pathKey, method, operation, pathItem] of operationsOf(document)) {
    const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])];
    const apiVersion = parameters.find((p) => p?.name === 'api-version' && p?.in === 'query');
    if (!apiVersion) {
      results.push({
        message: `${method.toUpperCase()} ${pathKey} has no "api-version" query parameter.`,
        path: ['paths', pathKey, method],
      });
    } else if (apiVersion.required !== true) {
      results.push({
        message: `${method.toUpperCase()} ${pathKey}: the "api-version" query parameter must be required.`,
        path: ['paths', pathKey, method, 'parameters'],
      });
    }
  }
  return results;
}
