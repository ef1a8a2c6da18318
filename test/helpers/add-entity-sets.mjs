// Widens a workspace copy the way specs/README.md's "a new entity" recipe does, N times:
// entity sets added to a business-data version, each with list and create on
// `paths/<entitySet>.yaml`, get, update (If-Match) and delete on `paths/<entity>.yaml`, a
// schema, an example file per success scenario, the README's own `$ref` forms (company_id
// and NotShownError from common/), the paths and the tag in the root. Five operations per
// entity: 60 entity sets are the 300 operations of one wide API version (issue 34).
// Names are real business-data entity sets, several of them an extension of another
// (item / itemVariant, vendor / vendorPayment): what a test matching by substring gets wrong.
// Plain ESM (types in add-entity-sets.d.mts): the one generator of a wide workspace, used by
// the tests and by the benchmarks (bench/lib/workspace-wide.mjs) alike.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const NAMES = [
  'item',
  'itemVariant',
  'itemCategory',
  'vendorPayment',
  'vendorPaymentJournal',
  'salesInvoice',
  'salesInvoiceLine',
  'salesOrder',
  'salesOrderLine',
  'salesQuote',
  'salesQuoteLine',
  'salesCreditMemo',
  'salesCreditMemoLine',
  'purchaseInvoice',
  'purchaseInvoiceLine',
  'purchaseOrder',
  'purchaseOrderLine',
  'purchaseReceipt',
  'employee',
  'account',
  'bankAccount',
  'currency',
  'paymentTerm',
  'paymentMethod',
  'dimension',
  'dimensionValue',
  'location',
  'unitOfMeasure',
  'taxGroup',
  'taxArea',
  'journal',
  'journalLine',
  'generalLedgerEntry',
  'contact',
  'opportunity',
  'project',
  'timeRegistrationEntry',
  'fixedAsset',
  'fixedAssetLocation',
  'countryRegion',
  'attachment',
  'defaultDimension',
  'customerPayment',
  'customerPaymentJournal',
  'salesShipment',
  'salesShipmentLine',
  'purchaseCreditMemo',
  'purchaseCreditMemoLine',
  'retainedEarningsStatement',
  'incomeStatement',
  'balanceSheet',
  'cashFlowStatement',
  'agedAccountsPayable',
  'agedAccountsReceivable',
  'trialBalance',
  'itemLedgerEntry',
  'customerSale',
  'vendorPurchase',
  'picture',
  'subscription',
];
const ID = '5d115c9c-44e3-ea11-bb43-000d3a2feca1';
const upper = (name) => name[0].toUpperCase() + name.slice(1);

/** The entity names `addEntitySets` uses for `count` sets (beyond the list: numbered). */
export const entityNames = (count) =>
  Array.from({ length: count }, (_, i) => (i < NAMES.length ? NAMES[i] : `${NAMES[i % NAMES.length]}${Math.floor(i / NAMES.length) + 1}`));

/**
 * Adds `count` entity sets to the business-data version folder `version` (relative to
 * `dir`); returns their names. A name the workspace already has (its set's path, a path or
 * schema file of that name: a contributor added it) is passed over for the next one.
 */
export async function addEntitySets(dir, { version = 'specs/business-central/v2.0', count = 60 } = {}) {
  const folder = join(dir, version);
  let root = await readFile(join(folder, 'openapi.yaml'), 'utf8');
  const taken = (name) =>
    root.includes(`/${name}s:`) ||
    root.includes(`/${name}s(`) ||
    [`paths/${name}s.yaml`, `paths/${name}.yaml`, `schemas/${upper(name)}.yaml`].some((rel) => existsSync(join(folder, rel)));
  const names = [];
  for (let i = 0; names.length < count; i++) {
    const [candidate] = entityNames(i + 1).slice(i);
    if (!taken(candidate)) names.push(candidate);
  }
  const write = (rel, text) => writeFile(join(folder, rel), text);
  // The update's If-Match, a parameter of the version's own (v2.0 has one; a version
  // without it, v1.0, gets one as a contributor would add it).
  if (!existsSync(join(folder, 'parameters/If-Match.yaml'))) {
    await mkdir(join(folder, 'parameters'), { recursive: true });
    await write(
      'parameters/If-Match.yaml',
      "name: If-Match\nin: header\nrequired: true\ndescription: The entity's current eTag. When it differs from the current tag, the entity is not updated.\nschema:\n  type: string\n  minLength: 1\nexample: 'W/\"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc=\"'\n",
    );
  }
  for (const name of names) {
    const Entity = upper(name);
    const set = `${name}s`;
    const Plural = upper(set);
    const tag = `  tags:\n    - ${Plural}\n`;
    const company = `    - $ref: ../../../common/business-central/parameters/company_id.yaml\n`;
    const key = (example) =>
      `    - name: ${name}_id\n      in: path\n      required: true\n      description: The ${name}'s id.\n      schema:\n        type: string\n        format: uuid\n${example}`;
    const error = `    default:\n      $ref: ../../../common/business-central/responses/NotShownError.yaml\n`;
    const success = (status, example, schema = `$ref: ../schemas/${Entity}.yaml`) =>
      `    "${status}":\n      description: The ${name}.\n      content:\n        application/json:\n          schema:\n            ${schema}\n          examples:\n            Basic:\n              $ref: ../examples/${example}_Basic.yaml\n`;
    const body = `  requestBody:\n    required: true\n    content:\n      application/json:\n        schema:\n          $ref: ../schemas/${Entity}.yaml\n        examples:\n          Basic:\n            $ref: ../examples/create${Entity}_Basic_request.yaml\n`;
    const operation = (method, id, summary, description = `${summary}.`) =>
      `${method}:\n  operationId: ${id}\n  summary: ${summary}\n  description: ${description}\n${tag}  parameters:\n${company}`;
    const list = `type: object\n            properties:\n              value:\n                type: array\n                items:\n                  $ref: ../schemas/${Entity}.yaml`;

    const property = (key, type, description, extra = '') => `  ${key}:\n    type: ${type}\n${extra}    description: ${description}\n`;
    await write(
      `schemas/${Entity}.yaml`,
      `type: object\ndescription: A ${name} of a company.\nproperties:\n` +
        // The control information the recipe declares for a new set (specs/README.md).
        property("'@odata.context'", 'string', 'Where the entity is described (OData control information).', '    readOnly: true\n') +
        property("'@odata.etag'", 'string', "The entity's current tag, as its ETag header.", '    readOnly: true\n') +
        property('id', 'string', 'The id.', '    format: uuid\n    readOnly: true\n') +
        property('number', 'string', `Number of the ${name}.`) +
        property('displayName', 'string', 'The name.') +
        property('amount', 'number', 'An amount, a decimal.') +
        property('blocked', 'boolean', `Whether the ${name} is blocked.`) +
        property('lastModifiedDateTime', 'string', `When the ${name} was last changed.`, '    format: date-time\n    readOnly: true\n'),
    );
    const value = `value:\n  id: ${ID}\n  displayName: Basic ${name}\n`;
    for (const id of [`get${Entity}`, `create${Entity}`, `update${Entity}`]) await write(`examples/${id}_Basic.yaml`, `summary: A ${name}\n${value}`);
    await write(`examples/create${Entity}_Basic_request.yaml`, `summary: A ${name}\nvalue:\n  displayName: Basic ${name}\n`);
    await write(`examples/list${Plural}_Basic.yaml`, `summary: The ${set}\nvalue:\n  value:\n    - id: ${ID}\n      displayName: Basic ${name}\n`);
    await write(
      `paths/${set}.yaml`,
      `${operation('get', `list${Plural}`, `List ${set}`)}  responses:\n${success(200, `list${Plural}`, list)}${error}` +
        `${operation('post', `create${Entity}`, `Create a ${name}`)}${body}  responses:\n${success(201, `create${Entity}`)}${error}`,
    );
    await write(
      `paths/${name}.yaml`,
      `${operation('get', `get${Entity}`, `Get a ${name}`, `Reads one ${name} of a company.`)}${key(`      example: ${ID}\n`)}  responses:\n${success(200, `get${Entity}`)}${error}` +
        `${operation('patch', `update${Entity}`, `Update a ${name}`)}${key(`      example: ${ID}\n`)}    - $ref: ../parameters/If-Match.yaml\n${body}  responses:\n${success(200, `update${Entity}`)}${error}` +
        `${operation('delete', `delete${Entity}`, `Delete a ${name}`)}${key(`      examples:\n        Basic:\n          value: ${ID}\n`)}  responses:\n    "204":\n      description: Deleted.\n${error}`,
    );
    root = root
      .replace(/^tags:\n/m, `tags:\n  - name: ${Plural}\n    description: The ${set} of a company.\n`)
      .replace(
        /^paths:\n/m,
        `paths:\n  /companies({company_id})/${set}:\n    $ref: ./paths/${set}.yaml\n  /companies({company_id})/${set}({${name}_id}):\n    $ref: ./paths/${name}.yaml\n`,
      );
  }
  await writeFile(join(folder, 'openapi.yaml'), root);
  return names;
}
