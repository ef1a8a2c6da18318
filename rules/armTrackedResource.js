// House rules for ARM tracked resources (a PUT on `…/providers/{Namespace}/{type}/{name}`
// whose body has `location`; model/arm.mjs): what ARM's resource-provider contract asks of them.
//   put:       the PUT answers the resource itself for 200 (replaced) and 201 (created)
//   shape:     `location` is required on the PUT body, and the resource has `tags`
//   read-only: `id`, `name`, `type`, `systemData` and `provisioningState` (top level or in
//              `properties`) are set by the service: readOnly, so clients never send them
// One function, three checks (`functionOptions.check`), so each has its own rule name.
import { trackedResources } from '../model/arm.mjs';
import { propertiesOf, requiredOf, responseSchemaOf } from '../model/schemas.mjs';
import { sameSchema } from './walk.js';

const READ_ONLY = ['id', 'name', 'type', 'systemData'];

function put(pathKey, operation) {
  const body = Object.values(operation.requestBody.content)[0].schema;
  const results = [];
  for (const status of ['200', '201']) {
    const answer = responseSchemaOf(operation, status);
    if (answer && sameSchema(answer, body)) continue;
    results.push({
      message: answer
        ? `PUT ${pathKey} ${status} answers another schema than the resource it puts: a tracked resource's PUT answers the resource (200 replaced, 201 created).`
        : `PUT ${pathKey} declares no ${status} with the resource: a tracked resource's PUT answers 200 (replaced) and 201 (created) with the resource.`,
      path: ['paths', pathKey, 'put', 'responses', ...(operation.responses?.[status] ? [status] : [])],
    });
  }
  return results;
}

function shape(pathKey, _operation, schema) {
  const results = [];
  const at = ['paths', pathKey, 'put', 'requestBody'];
  if (!requiredOf(schema).includes('location')) {
    results.push({ message: `PUT ${pathKey}: a tracked resource's \`location\` is required on PUT (list it in the schema's \`required\`).`, path: at });
  }
  if (!('tags' in propertiesOf(schema))) {
    results.push({ message: `PUT ${pathKey}: a tracked resource has \`tags\` (an object of strings); add the property.`, path: at });
  }
  return results;
}

function readOnly(pathKey, _operation, schema) {
  const own = propertiesOf(schema);
  const nested = propertiesOf(own.properties);
  const fields = [
    ...READ_ONLY.filter((name) => name in own).map((name) => [name, own[name]]),
    ...('provisioningState' in nested ? [['properties.provisioningState', nested.provisioningState]] : []),
    ...('provisioningState' in own ? [['provisioningState', own.provisioningState]] : []),
  ];
  return fields
    .filter(([, property]) => property?.readOnly !== true)
    .map(([name]) => ({
      message: `PUT ${pathKey}: the resource's \`${name}\` is set by the service: mark it \`readOnly: true\` (clients never send it).`,
      path: ['paths', pathKey, 'put', 'requestBody'],
    }));
}

const CHECKS = { put, shape, 'read-only': readOnly };

export default function armTrackedResource(document, options) {
  const check = CHECKS[options?.check];
  if (!check) throw new Error(`armTrackedResource: unknown check ${options?.check}; one of ${Object.keys(CHECKS).join(', ')}`);
  return [...trackedResources(document)].flatMap(([pathKey, operation, schema]) => check(pathKey, operation, schema));
}
