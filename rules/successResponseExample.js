// House rule: every success (2xx) response body carries at least one example, so the
// docs show it and the mock can serve it by name (`Prefer: example=<scenario>`).
import { operationsOf } from '../model/operations.mjs';

export default function successResponseExample(document) {
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!/^2(\d\d|XX)$/.test(status)) continue;
      for (const [mediaType, media] of Object.entries(response?.content ?? {})) {
        const named = media?.examples && Object.keys(media.examples).length > 0;
        if (!named && media?.example === undefined) {
          results.push({
            message: `${method.toUpperCase()} ${pathKey} ${status} ${mediaType} has no example.`,
            path: ['paths', pathKey, method, 'responses', status, 'content', mediaType],
          });
        }
      }
    }
  }
  return results;
}
