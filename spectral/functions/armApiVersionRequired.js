// House rule: every resource-management operation takes a required `api-version`
// query parameter, because the service versions each operation through it, and that
// parameter accepts exactly the document's own version (`enum: [<info.version>]`): one
// document describes one api-version, so a value it declares valid is one the mock
// (which routes by api-version) serves with this document.
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
    } else {
      const version = String(document.info?.version ?? '');
      const values = apiVersion.schema?.enum ?? (apiVersion.schema && 'const' in apiVersion.schema ? [apiVersion.schema.const] : undefined);
      if (!Array.isArray(values) || values.length !== 1 || String(values[0]) !== version) {
        results.push({
          message: `${method.toUpperCase()} ${pathKey}: the "api-version" query parameter must accept exactly this document's version: schema enum ["${version}"].`,
          path: ['paths', pathKey, method, 'parameters'],
        });
      }
    }
  }
  return results;
}
