// House rule: a long-running operation (`x-ms-long-running-operation: true`) declares what
// its pattern needs, as ARM's contract and @azure/core-lro read it:
//   - it is a PUT, PATCH, POST or DELETE, and its first answer is a 201 or 202;
//   - each 201/202 declares the status monitor `Azure-AsyncOperation` and/or `Location`,
//     and `Retry-After` (how long to wait before polling);
//   - `x-ms-long-running-operation-options.final-state-via`, where given, is one of
//     azure-async-operation | location | original-uri | operation-location, and names a
//     header the operation declares (azure-async-operation and location);
//   - the options are only given on a marked operation.
import { armOperations, isLongRunning } from './arm.js';

const FINAL_STATE_VIA = ['azure-async-operation', 'location', 'original-uri', 'operation-location'];
const WRITES = ['put', 'patch', 'post', 'delete'];

const headerNames = (response) => Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase());

export default function armLongRunning(document) {
  const results = [];
  for (const [pathKey, method, operation] of armOperations(document)) {
    const at = ['paths', pathKey, method];
    const options = operation['x-ms-long-running-operation-options'];
    const label = `${method.toUpperCase()} ${pathKey}`;
    if (!isLongRunning(operation)) {
      if (options !== undefined) results.push({ message: `${label} gives x-ms-long-running-operation-options but is not marked \`x-ms-long-running-operation: true\`.`, path: [...at, 'x-ms-long-running-operation-options'] });
      continue;
    }
    if (!WRITES.includes(method)) {
      results.push({ message: `${label} is marked long-running: only a PUT, PATCH, POST or DELETE can be.`, path: [...at, 'x-ms-long-running-operation'] });
      continue;
    }
    const initial = ['201', '202'].filter((status) => operation.responses?.[status]);
    if (initial.length === 0) results.push({ message: `${label} is long-running but declares neither 201 nor 202: its first answer is one of them.`, path: [...at, 'responses'] });
    const monitors = new Set();
    for (const status of initial) {
      const names = headerNames(operation.responses[status]);
      const here = ['azure-asyncoperation', 'location'].filter((name) => names.includes(name));
      here.forEach((name) => monitors.add(name));
      const missing = [...(here.length ? [] : ['Azure-AsyncOperation and/or Location']), ...(names.includes('retry-after') ? [] : ['Retry-After'])];
      if (missing.length) results.push({ message: `${label} ${status} is a long-running answer without the header(s) ${missing.join(' and ')}: the client polls by them.`, path: [...at, 'responses', status] });
    }
    const via = options?.['final-state-via'];
    if (options !== undefined && via === undefined) continue;
    if (via !== undefined && !FINAL_STATE_VIA.includes(via)) {
      results.push({ message: `${label}: final-state-via "${via}" is not one of ${FINAL_STATE_VIA.join(' | ')}.`, path: [...at, 'x-ms-long-running-operation-options', 'final-state-via'] });
    } else if ((via === 'azure-async-operation' && !monitors.has('azure-asyncoperation')) || (via === 'location' && !monitors.has('location'))) {
      results.push({ message: `${label}: final-state-via "${via}" names a header its 201/202 does not declare.`, path: [...at, 'x-ms-long-running-operation-options', 'final-state-via'] });
    }
  }
  return results;
}
