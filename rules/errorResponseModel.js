// House rule: error responses (4xx, 5xx, default) use the family's error model, so a
// client can type every failure: CloudError or ErrorResponse for resource management,
// BusinessCentralError for business data. The model is recognised by its schema title.
import { BUSINESS_CENTRAL, familyOf, RESOURCE_MANAGER } from '../model/family.mjs';
import { operationsOf } from '../model/operations.mjs';

const MODELS = {
  [RESOURCE_MANAGER]: ['CloudError', 'ErrorResponse'],
  [BUSINESS_CENTRAL]: ['BusinessCentralError'],
};

export default function errorResponseModel(document) {
  const allowed = MODELS[familyOf(document)];
  if (!allowed) return [];
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!/^([45](\d\d|XX)|default)$/.test(status)) continue;
      const content = Object.entries(response?.content ?? {});
      if (content.length === 0) {
        results.push({
          message: `${method.toUpperCase()} ${pathKey} ${status} has no body; expected one of ${allowed.join(', ')}.`,
          path: ['paths', pathKey, method, 'responses', status],
        });
      }
      for (const [mediaType, media] of content) {
        const title = media?.schema?.title;
        if (!allowed.includes(title)) {
          results.push({
            message: `${method.toUpperCase()} ${pathKey} ${status} uses "${title ?? 'an untitled schema'}"; expected one of ${allowed.join(', ')}.`,
            path: ['paths', pathKey, method, 'responses', status, 'content', mediaType, 'schema'],
          });
        }
      }
    }
  }
  return results;
}
