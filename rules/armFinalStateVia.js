// House rule: a long-running operation's final-state-via says where @azure/core-lro (2.7.2,
// http/operation.js: inferLroMode, findResourceLocation) reads its result, or it warns:
//   - a PUT's result is read from its original URI (a GET of the resource) whatever
//     final-state-via says: only `original-uri` (the default) says so;
//   - a PATCH with `azure-async-operation` is read from its original URI too;
//   - a DELETE has no result: no final-state-via is read;
//   - final-state-via is only read when the first answer carries a status monitor
//     (Azure-AsyncOperation or Operation-Location): with Location alone, core-lro polls
//     Location and takes its last answer, so `original-uri` or `operation-location` is not read.
// core-lro is how Azure's SDKs wait: a marking it ignores tells a reader of the document
// something no client does. Reported at the marking (a warning, which fails lint too).
import { armOperations, INITIAL_STATUSES, LONG_RUNNING_OPTIONS, longRunningOf } from '../model/arm.mjs';

/** @param {any} document the resolved document */
export default function armFinalStateVia(document) {
  const results = [];
  for (const [pathKey, method, operation] of armOperations(document)) {
    const via = longRunningOf(operation)?.finalStateVia;
    if (via === undefined) continue;
    const label = `${method.toUpperCase()} ${pathKey}`;
    const headers = INITIAL_STATUSES.flatMap((status) => Object.keys(operation.responses?.[status]?.headers ?? {}).map((name) => name.toLowerCase()));
    const monitored = headers.includes('azure-asyncoperation') || headers.includes('operation-location');
    let instead;
    if (method === 'put' && via !== 'original-uri')
      instead = "reads a PUT's result from its original URI (a GET of the resource) whatever final-state-via says: write `original-uri` or leave it out";
    else if (method === 'patch' && via === 'azure-async-operation')
      instead = "reads this PATCH's result from its original URI, not from the status monitor: write `original-uri` or leave it out";
    else if (method === 'delete') instead = 'reads no result for a DELETE (it has none): leave final-state-via out';
    else if (!monitored && (via === 'original-uri' || via === 'operation-location'))
      instead =
        'reads it only when the first answer carries a status monitor (Azure-AsyncOperation or Operation-Location); with Location alone it polls Location and takes its last answer as the result';
    if (instead)
      results.push({
        message: `${label}: final-state-via "${via}" is not read: @azure/core-lro ${instead}.`,
        path: ['paths', pathKey, method, LONG_RUNNING_OPTIONS, 'final-state-via'],
      });
  }
  return results;
}
