// House rule: every parameter of every operation carries an example (`example` or
// `examples`). The docs' TypeScript and curl samples, "Try it", the contract tests and
// other renderers build a request from it; without one they would send an empty key.
import { operationsOf } from '../model/operations.mjs';

export default function parameterExample(document) {
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    const shared = (document.paths[pathKey].parameters ?? []).map((parameter, i) => [parameter, ['paths', pathKey, 'parameters', i]]);
    const own = (operation.parameters ?? []).map((parameter, i) => [parameter, ['paths', pathKey, method, 'parameters', i]]);
    for (const [parameter, path] of [...shared, ...own]) {
      if (!parameter || typeof parameter !== 'object' || '$ref' in parameter) continue;
      if (parameter.example !== undefined || (parameter.examples && Object.keys(parameter.examples).length > 0)) continue;
      results.push({
        message: `${method.toUpperCase()} ${pathKey}: ${parameter.in} parameter ${parameter.name} has no example; give it \`example:\` (a value its schema accepts), which the docs' samples, Try it and the contract tests send.`,
        path,
      });
    }
  }
  return results;
}
