// Grows a business-data version of a workspace copy the way specs/README.md's "a new
// entity" recipe says, with everything the recipe declares for OData's control information
// and bulk work: an entity set with lines (a navigation property, deep insert), its schema
// declaring `@odata.etag` and `@odata.context` (read-only), its list `@odata.context`,
// `/$count`, a 204 for `Prefer: return=minimal` on create and update, and the version's
// `/$batch`. Names the workspace already has (a contributor's own set) are passed over.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const ID = '5d115c9c-44e3-ea11-bb43-000d3a2feca1';
const TAG = 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="';
const COMMON = '../../../common/business-central';
const ERROR = `    default:\n      $ref: ${COMMON}/responses/NotShownError.yaml\n`;
const upper = (name) => name[0].toUpperCase() + name.slice(1);

/**
 * Adds the set to `version` (a folder of `dir`); returns { entity, set, keyParam, batch }
 * (`batch`: whether this call declared `/$batch`; false when the version had one).
 * @param {string} dir
 * @param {{ version?: string }} [options]
 */
export async function addOrderSet(dir, { version = 'specs/business-central/v2.0' } = {}) {
  const folder = join(dir, version);
  let root = await readFile(join(folder, 'openapi.yaml'), 'utf8');
  const taken = (name) =>
    root.includes(`/${name}s:`) ||
    root.includes(`/${name}s(`) ||
    [`paths/${name}s.yaml`, `paths/${name}.yaml`, `schemas/${upper(name)}.yaml`].some((rel) => existsSync(join(folder, rel)));
  const entity = ['salesOrder', 'salesDocument', 'orderDocument', 'growthOrder'].find((name) => !taken(name)) ?? 'growthOrder7';
  const Entity = upper(entity);
  const set = `${entity}s`;
  const Plural = upper(set);
  const keyParam = `${entity}_id`;
  const write = (rel, text) => writeFile(join(folder, rel), text);
  const property = (name, lines) => `  "${name}":\n${lines.map((line) => `    ${line}\n`).join('')}`;
  const annotations = (what) =>
    property('@odata.context', [
      'type: string',
      'readOnly: true',
      `description: The context URL of the answer (\`<service root>/$metadata#companies(<id>)/${set}${what}\`).`,
    ]) + property('@odata.etag', ['type: string', 'readOnly: true', 'description: The current eTag (the `ETag` header of a read); send it as `If-Match`.']);
  await write(
    `schemas/${Entity}Line.yaml`,
    `type: object\ndescription: A line of a ${entity}.\nproperties:\n` +
      property('@odata.etag', ['type: string', 'readOnly: true', "description: The line's current eTag."]) +
      property('id', ['type: string', 'format: uuid', 'readOnly: true', 'description: The id, assigned by the service.']) +
      property('itemName', ['type: string', 'description: What is sold.']) +
      property('quantity', ['type: number', 'description: How many.']),
  );
  await write(
    `schemas/${Entity}.yaml`,
    `type: object\ndescription: A ${entity} of a company.\nproperties:\n` +
      annotations('/$entity') +
      property('id', ['type: string', 'format: uuid', 'readOnly: true', 'description: The id.']) +
      property('number', ['type: string', `description: Number of the ${entity}.`]) +
      property('displayName', ['type: string', 'description: The name.']) +
      property('amount', ['type: number', 'description: An amount, a decimal.']) +
      property('lastModifiedDateTime', ['type: string', 'format: date-time', 'readOnly: true', 'description: When it was last changed.']) +
      property('lines', [
        'type: array',
        'description: The lines (a navigation property; `$expand=lines`; sent inline with a create, each gets its own id).',
        'items:',
        `  $ref: ./${Entity}Line.yaml`,
      ]),
  );
  await write(
    `schemas/${Entity}List.yaml`,
    `type: object\ndescription: A page of ${set}.\nproperties:\n` +
      property('@odata.context', [
        'type: string',
        'readOnly: true',
        `description: The context URL of the list (\`<service root>/$metadata#companies(<id>)/${set}\`).`,
      ]) +
      property('value', ['type: array', 'description: The entities of this page.', 'items:', `  $ref: ./${Entity}.yaml`]) +
      property('@odata.nextLink', ['type: string', 'format: uri', 'description: The next page, when there is one.']) +
      property('@odata.count', ['type: integer', 'description: How many match ($count=true).']),
  );
  const value = `value:\n  "@odata.etag": '${TAG}'\n  id: ${ID}\n  number: SO-1001\n  displayName: First order\n  amount: 120.5\n`;
  for (const id of [`get${Entity}`, `create${Entity}`, `update${Entity}`]) await write(`examples/${id}_Basic.yaml`, `summary: A ${entity}\n${value}`);
  await write(
    `examples/create${Entity}_Basic_request.yaml`,
    `summary: A ${entity} with a line\nvalue:\n  number: SO-1001\n  displayName: First order\n  lines:\n    - itemName: Bolt\n      quantity: 4\n`,
  );
  await write(`examples/update${Entity}_Basic_request.yaml`, `summary: A new amount\nvalue:\n  amount: 99\n`);
  await write(
    `examples/list${Plural}_Basic.yaml`,
    `summary: The ${set}\nvalue:\n  value:\n    - "@odata.etag": '${TAG}'\n      id: ${ID}\n      number: SO-1001\n      displayName: First order\n`,
  );
  const tag = `  tags:\n    - ${Plural}\n`;
  const company = `    - $ref: ${COMMON}/parameters/company_id.yaml\n`;
  const key = (example = `      example: ${ID}\n`) =>
    `    - name: ${keyParam}\n      in: path\n      required: true\n      description: The ${entity}'s id.\n      schema:\n        type: string\n        format: uuid\n${example}`;
  const ifMatch = `    - name: If-Match\n      in: header\n      required: false\n      description: The ${entity}'s current eTag (its \`@odata.etag\`); another tag is refused.\n      schema:\n        type: string\n      example: '${TAG}'\n`;
  const etagHeader = `      headers:\n        ETag:\n          description: The new eTag.\n          schema:\n            type: string\n`;
  const minimal = `    "204":\n      description: Done, with Prefer return=minimal (Preference-Applied says so; ETag is the new tag).\n${etagHeader}`;
  const operation = (method, id, summary, params) =>
    `${method}:\n  operationId: ${id}\n  summary: ${summary}\n  description: ${summary}.\n${tag}  parameters:\n${company}${params}`;
  const success = (status, example, schema = `$ref: ../schemas/${Entity}.yaml`, headers = '') =>
    `    "${status}":\n      description: The ${entity}.\n${headers}      content:\n        application/json:\n          schema:\n            ${schema}\n          examples:\n            Basic:\n              $ref: ../examples/${example}_Basic.yaml\n`;
  const body = (example) =>
    `  requestBody:\n    required: true\n    content:\n      application/json:\n        schema:\n          $ref: ../schemas/${Entity}.yaml\n        examples:\n          Basic:\n            $ref: ../examples/${example}_Basic_request.yaml\n`;
  const option = (name) => `    - $ref: ${COMMON}/parameters/${name}.yaml\n`;
  await write(
    `paths/${set}.yaml`,
    `${operation('get', `list${Plural}`, `List ${set}`, option('filter') + option('top') + option('count') + option('expand'))}  responses:\n${success(200, `list${Plural}`, `$ref: ../schemas/${Entity}List.yaml`)}${ERROR}` +
      `${operation('post', `create${Entity}`, `Create a ${entity}`, '')}${body(`create${Entity}`)}  responses:\n${success(201, `create${Entity}`, undefined, etagHeader.replace('The new eTag', 'Its eTag'))}${minimal}${ERROR}`,
  );
  await write(
    `paths/${set}Count.yaml`,
    `${operation('get', `count${Plural}`, `Count ${set}`, option('filter'))}  responses:\n    "200":\n      description: How many ${set} match, a number in plain text.\n      content:\n        text/plain:\n          schema:\n            type: integer\n            minimum: 0\n          examples:\n            Basic:\n              value: 1\n${ERROR}`,
  );
  await write(
    `paths/${entity}.yaml`,
    `${operation('get', `get${Entity}`, `Get a ${entity}`, key() + option('expand'))}  responses:\n${success(200, `get${Entity}`, undefined, etagHeader.replace('The new eTag', 'Its eTag'))}${ERROR}` +
      `${operation('patch', `update${Entity}`, `Update a ${entity}`, key() + ifMatch)}${body(`update${Entity}`)}  responses:\n${success(200, `update${Entity}`, undefined, etagHeader)}${minimal}${ERROR}` +
      `${operation('delete', `delete${Entity}`, `Delete a ${entity}`, key(`      examples:\n        Basic:\n          value: ${ID}\n`) + ifMatch)}  responses:\n    "204":\n      description: Deleted.\n${ERROR}`,
  );
  const batch = !/^ {2}\/\$batch:/m.test(root);
  if (batch) {
    await write('schemas/BatchRequest.yaml', BATCH_REQUEST);
    await write('schemas/BatchResponse.yaml', BATCH_RESPONSE);
    await write(
      'examples/batch_Basic_request.yaml',
      `summary: Create an order, then change it\nvalue:\n  requests:\n    - id: "1"\n      method: POST\n      url: companies(${ID})/${set}\n      headers:\n        content-type: application/json\n      body:\n        number: SO-1002\n    - id: "2"\n      dependsOn: ["1"]\n      method: PATCH\n      url: $1\n      body:\n        amount: 10\n`,
    );
    await write(
      'examples/batch_Basic.yaml',
      `summary: Both done\nvalue:\n  responses:\n    - id: "1"\n      status: 201\n      headers:\n        etag: '${TAG}'\n      body:\n        id: ${ID}\n        number: SO-1002\n    - id: "2"\n      status: 200\n      body:\n        id: ${ID}\n        amount: 10\n`,
    );
    await write(
      'paths/batch.yaml',
      `post:\n  operationId: sendBatch\n  summary: Send several requests at once\n  description: OData 4.01 JSON batch. Each request is answered as if sent alone.\n  tags:\n    - Batch\n  requestBody:\n    required: true\n    content:\n      application/json:\n        schema:\n          $ref: ../schemas/BatchRequest.yaml\n        examples:\n          Basic:\n            $ref: ../examples/batch_Basic_request.yaml\n  responses:\n    "200":\n      description: The answer of each request.\n      content:\n        application/json:\n          schema:\n            $ref: ../schemas/BatchResponse.yaml\n          examples:\n            Basic:\n              $ref: ../examples/batch_Basic.yaml\n${ERROR}`,
    );
  }
  root = root
    .replace(
      /^tags:\n/m,
      `tags:\n  - name: ${Plural}\n    description: The ${set} of a company.\n${batch && !/^ {2}- name: Batch$/m.test(root) ? '  - name: Batch\n    description: Several requests in one.\n' : ''}`,
    )
    .replace(
      /^paths:\n/m,
      `paths:\n  /companies({company_id})/${set}:\n    $ref: ./paths/${set}.yaml\n  /companies({company_id})/${set}/$count:\n    $ref: ./paths/${set}Count.yaml\n  /companies({company_id})/${set}({${keyParam}}):\n    $ref: ./paths/${entity}.yaml\n${batch ? '  /$batch:\n    $ref: ./paths/batch.yaml\n' : ''}`,
    );
  await writeFile(join(folder, 'openapi.yaml'), root);
  return { entity, set, keyParam, batch };
}

const BATCH_REQUEST = `type: object
description: An OData 4.01 JSON batch.
required:
  - requests
properties:
  requests:
    type: array
    description: The requests, answered in this order.
    items:
      type: object
      required:
        - id
        - method
        - url
      properties:
        id:
          type: string
          description: The request's id, unique in the batch; \`$<id>\` at the start of a later url is its result.
        method:
          type: string
          description: GET, POST, PATCH, PUT or DELETE.
        url:
          type: string
          description: Relative to the service root (\`companies(<id>)/<set>\`).
        headers:
          type: object
          description: The request's headers.
          additionalProperties:
            type: string
        body:
          description: The request's body.
        dependsOn:
          type: array
          description: Ids of earlier requests or groups that must succeed first (else 424).
          items:
            type: string
        atomicityGroup:
          type: string
          description: Requests of one group succeed or fail together.
`;

const BATCH_RESPONSE = `type: object
description: The answers of an OData 4.01 JSON batch.
properties:
  responses:
    type: array
    description: One answer per request, in order.
    items:
      type: object
      required:
        - id
        - status
      properties:
        id:
          type: string
          description: The request's id.
        status:
          type: integer
          description: Its HTTP status.
        headers:
          type: object
          description: Its headers.
          additionalProperties:
            type: string
        body:
          description: Its body.
        atomicityGroup:
          type: string
          description: Its group.
`;
