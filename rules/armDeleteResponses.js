// House rule: a resource-management DELETE answers 200 and/or 204 (deleted; 204 also
// when it was already gone), and 202 only, and always, when it is long-running
// (`x-ms-long-running-operation: true`): ARM's resource-provider contract.
import { armOperations, isLongRunning } from '../model/arm.mjs';

export default function armDeleteResponses(document) {
  const results = [];
  for (const [pathKey, method, operation] of armOperations(document)) {
    if (method !== 'delete') continue;
    const success = Object.keys(operation.responses ?? {}).filter((status) => /^2/.test(status));
    const at = ['paths', pathKey, method, 'responses'];
    const longRunning = isLongRunning(operation);
    const allowed = longRunning ? ['200', '202', '204'] : ['200', '204'];
    const odd = success.filter((status) => !allowed.includes(status));
    if (odd.length)
      results.push({
        message: `DELETE ${pathKey} answers ${odd.join(', ')}: a DELETE answers 200 and/or 204${longRunning ? ', and 202 (long-running)' : ' (202 only when marked x-ms-long-running-operation)'}.`,
        path: [...at, odd[0]],
      });
    if (!success.some((status) => status === '200' || status === '204'))
      results.push({
        message: `DELETE ${pathKey} declares neither 200 nor 204: a DELETE answers 200 and/or 204 (204 when the resource was already gone).`,
        path: at,
      });
    if (longRunning && !success.includes('202'))
      results.push({ message: `DELETE ${pathKey} is long-running but declares no 202: the first answer of a long-running DELETE is 202 Accepted.`, path: at });
  }
  return results;
}
