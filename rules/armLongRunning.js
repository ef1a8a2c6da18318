// House rule: a long-running operation (`x-ms-long-running-operation: true`) declares what
// its pattern needs, as ARM's contract and @azure/core-lro read it:
//   - it is a PUT, PATCH, POST or DELETE, and its first answer is a 201 or 202;
//   - each 201/202 declares the status monitor `Azure-AsyncOperation` and/or `Location`,
//     and `Retry-After` (how long to wait before polling);
//   - `x-ms-long-running-operation-options.final-state-via`, where given, is one of
//     azure-async-operation | location | original-uri | operation-location, and names a
//     header the operation declares (azure-async-operation and location);
//   - the options are only given on a marked operation.
import {
  armOperations,
  FINAL_STATE_VIA,
  INITIAL_STATUSES,
  isLongRunning,
  LONG_RUNNING_METHODS,
  LONG_RUNNING_OPTIONS,
  pollingHeadersOf,
} from '../model/arm.mjs';

export default function armLongRunning(document) {
  const results = [];
  for (const [pathKey, method, operation] of armOperations(document)) {
    const at = ['paths', pathKey, method];
    const options = operation[LONG_RUNNING_OPTIONS];
    const label = `${method.toUpperCase()} ${pathKey}`;
    if (!isLongRunning(operation)) {
      if (options !== undefined)
        results.push({
          message: `${label} gives x-ms-long-running-operation-options but is not marked \`x-ms-long-running-operation: true\`.`,
          path: [...at, 'x-ms-long-running-operation-options'],
        });
      continue;
    }
    if (!LONG_RUNNING_METHODS.includes(method)) {
      results.push({ message: `${label} is marked long-running: only a PUT, PATCH, POST or DELETE can be.`, path: [...at, 'x-ms-long-running-operation'] });
      continue;
    }
    const initial = INITIAL_STATUSES.filter((status) => operation.responses?.[status]);
    if (initial.length === 0)
      results.push({ message: `${label} is long-running but declares neither 201 nor 202: its first answer is one of them.`, path: [...at, 'responses'] });
    const monitors = new Set();
    for (const status of initial) {
      const declared = pollingHeadersOf(operation.responses[status]);
      if (declared.asyncOperation) monitors.add('azure-asyncoperation');
      if (declared.location) monitors.add('location');
      const missing = [
        ...(declared.asyncOperation || declared.location ? [] : ['Azure-AsyncOperation and/or Location']),
        ...(declared.retryAfter ? [] : ['Retry-After']),
      ];
      if (missing.length)
        results.push({
          message: `${label} ${status} is a long-running answer without the header(s) ${missing.join(' and ')}: the client polls by them.`,
          path: [...at, 'responses', status],
        });
    }
    const via = options?.['final-state-via'];
    if (options !== undefined && via === undefined) continue;
    if (via !== undefined && !FINAL_STATE_VIA.includes(via)) {
      results.push({
        message: `${label}: final-state-via "${via}" is not one of ${FINAL_STATE_VIA.join(' | ')}.`,
        path: [...at, 'x-ms-long-running-operation-options', 'final-state-via'],
      });
    } else if ((via === 'azure-async-operation' && !monitors.has('azure-asyncoperation')) || (via === 'location' && !monitors.has('location'))) {
      results.push({
        message: `${label}: final-state-via "${via}" names a header its 201/202 does not declare.`,
        path: [...at, 'x-ms-long-running-operation-options', 'final-state-via'],
      });
    }
  }
  return results;
}
