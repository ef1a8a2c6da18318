// House rule: every error response (4xx, 5xx, default) shows a body or says it is not
// shown: a named example (the docs print it, the mock serves it), or a description with
// "Not shown in the source: …". Otherwise the docs would print a generated placeholder
// (`"code": "string"`) as if the service answered that.
import { operationsOf } from '../model/operations.mjs';
import { mediaOf } from './walk.js';

const ERROR = /^([45](\d\d|XX)|default)$/;
const hasExample = (media) => media.example !== undefined || (media.examples && Object.keys(media.examples).length > 0);

export default function errorResponseShown(document) {
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!ERROR.test(status) || !response || typeof response !== 'object') continue;
      const media = mediaOf(response, []);
      if (media.length === 0 || media.some(([m]) => hasExample(m))) continue;
      if (/Not shown in the source:\s*\S/.test(String(response.description ?? ''))) continue;
      results.push({
        message: `${method.toUpperCase()} ${pathKey} ${status}: an error body with no example and no "Not shown in the source: …" in its description; give it a named example, or say that the source does not show it.`,
        path: ['paths', pathKey, method, 'responses', status],
      });
    }
  }
  return results;
}
