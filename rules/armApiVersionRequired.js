// House rule: every resource-management operation takes a required `api-version`
// query parameter, because the service versions each operation through it, and that
// parameter accepts exactly the document's own version (`enum: [<info.version>]`): one
// document describes one api-version, so a value it declares valid is one the mock
// (which routes by api-version) serves with this document.
import { familyOf, RESOURCE_MANAGER } from '../model/family.mjs';
import { operationsOf } from '../model/operations.mjs';

export default function armApiVersionRequired(document) {
  if (familyOf(document) !== RESOURCE_MANAGER) return [];
  const results = [];
  // A wrong enum is reported once per parameter, not once per operation reading it: the
  // operations of a document share one api-version parameter file, and a wrong
  // info.version (the usual cause) would otherwise flood lint with one finding per
  // operation at the same file and line.
  const wrongEnum = new Map(); // the parameter object -> its first result and how many read it
  for (const [pathKey, method, operation, pathItem] of operationsOf(document)) {
    // The operation's own parameters first: one of the same name and place overrides the path item's.
    const parameters = [...(operation.parameters ?? []), ...(pathItem.parameters ?? [])];
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
        const seen = wrongEnum.get(apiVersion);
        if (seen) seen.readers += 1;
        else {
          const accepts = Array.isArray(values) ? `it accepts ${JSON.stringify(values.map(String))}` : 'it declares no enum';
          wrongEnum.set(apiVersion, {
            readers: 1,
            operation: `${method.toUpperCase()} ${pathKey}`,
            accepts,
            version,
            result: { message: '', path: ['paths', pathKey, method, 'parameters'] },
          });
          results.push(wrongEnum.get(apiVersion).result);
        }
      }
    }
  }
  for (const { readers, operation, accepts, version, result } of wrongEnum.values()) {
    const others = readers > 1 ? ` and ${readers - 1} other operation${readers > 2 ? 's' : ''} reading the same parameter` : '';
    result.message = `${operation}${others}: the "api-version" query parameter must accept exactly this document's version (info.version "${version}"): schema enum ["${version}"]; ${accepts}.`;
  }
  return results;
}
