// A throw-away workspace as wide as the real services (issue 34): one business-data
// version (v2.0) widened by about 60 entity sets, each added by specs/README.md's "a new
// entity" recipe in the house style: list and create on `paths/<entitySet>.yaml`; get,
// update under `If-Match` and delete on `paths/<entity>.yaml`; `schemas/<Entity>.yaml`
// and `schemas/<Entity>List.yaml`, `parameters/<entity>_id.yaml` (with its example), one
// example file per success scenario (`<operationId>_<Scenario>.yaml`, request bodies
// `..._request.yaml`), the README's own `$ref` forms (company_id and NotShownError from
// specs/common/, the version's If-Match), the paths in the root's `paths:` and the tag in
// its `tags:`. Five operations per entity: 60 sets give the 300 operations of one version.
// Never committed: bench/scale.mjs (`--wide`) builds and edits it.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workspaceCopy } from './workspace-copy.mjs';

export const WIDE_VERSION = 'specs/business-central/v2.0';

// Real business-data entity sets; several extend the name of another (item / itemVariant).
const NAMES = [
  'salesInvoice', 'salesInvoiceLine', 'salesOrder', 'salesOrderLine', 'salesQuote', 'salesQuoteLine', 'salesCreditMemo',
  'salesCreditMemoLine', 'salesShipment', 'salesShipmentLine', 'purchaseInvoice', 'purchaseInvoiceLine', 'purchaseOrder',
  'purchaseOrderLine', 'purchaseReceipt', 'purchaseReceiptLine', 'purchaseCreditMemo', 'purchaseCreditMemoLine', 'item',
  'itemVariant', 'itemCategory', 'itemLedgerEntry', 'vendorPayment', 'vendorPaymentJournal', 'customer', 'customerPayment',
  'customerPaymentJournal', 'customerContact', 'employee', 'account', 'bankAccount', 'currency', 'currencyExchangeRate',
  'paymentTerm', 'paymentMethod', 'shipmentMethod', 'dimension', 'dimensionValue', 'defaultDimension', 'location',
  'unitOfMeasure', 'taxGroup', 'taxArea', 'journal', 'journalLine', 'generalLedgerEntry', 'contact', 'opportunity',
  'project', 'timeRegistrationEntry', 'fixedAsset', 'fixedAssetLocation', 'countryRegion', 'attachment', 'picture',
  'agedAccountsPayable', 'agedAccountsReceivable', 'trialBalance', 'irs1099Code', 'dispute', 'applyVendorEntry',
];

/** The entity names for `count` sets (beyond the list: numbered). */
export const wideEntityNames = (count) =>
  Array.from({ length: count }, (_, i) => (i < NAMES.length ? NAMES[i] : `${NAMES[i % NAMES.length]}${Math.floor(i / NAMES.length) + 1}`));

const upper = (name) => name[0].toUpperCase() + name.slice(1);
const words = (name) => name.replace(/([A-Z0-9]+)/g, ' $1').toLowerCase();
const ID = 'f8a5738e-44e3-ea11-bb43-000d3a2feca1';

/** The files of one entity, by path relative to the version folder. */
function entityFiles(name) {
  const Entity = upper(name);
  const set = `${name}s`;
  const Set = upper(set);
  const label = words(name);
  const common = '../../../common/business-central';
  const record = (indent, extra = '') =>
    [`id: ${ID}`, 'number: "10000"', `displayName: Contoso ${label}`, 'description: Opened by the bench.', 'amount: 1250.5', 'blocked: false', 'lastModifiedDateTime: "2020-08-21T00:24:13.68Z"']
      .map((line) => `${indent}${line}`)
      .join('\n') + extra;
  const operation = (method, operationId, summary, description) =>
    `${method}:\n  operationId: ${operationId}\n  summary: ${summary}\n  description: ${description}\n  tags:\n    - ${Set}\n  parameters:\n    - $ref: ${common}/parameters/company_id.yaml\n`;
  const answer = (status, description, schema, example, scenario) =>
    `    "${status}":\n      description: ${description}\n      content:\n        application/json:\n          schema:\n            $ref: ../schemas/${schema}.yaml\n          examples:\n            ${scenario}:\n              $ref: ../examples/${example}_${scenario}.yaml\n`;
  const body = (description, example, scenario) =>
    `  requestBody:\n    required: true\n    description: ${description}\n    content:\n      application/json:\n        schema:\n          $ref: ../schemas/${Entity}.yaml\n        examples:\n          ${scenario}:\n            $ref: ../examples/${example}_${scenario}_request.yaml\n`;
  const error = `    default:\n      $ref: ${common}/responses/NotShownError.yaml\n`;
  const property = (key, type, description, extra = '') => `  ${key}:\n    type: ${type}\n${extra}    description: ${description}\n`;
  return {
    [`schemas/${Entity}.yaml`]:
      `type: object\ntitle: ${Entity}\ndescription: A ${label} of a company. A returned ${label} carries every property below.\nproperties:\n` +
      property('id', 'string', `Id of the ${label}.`, '    format: uuid\n    readOnly: true\n') +
      property('number', 'string', `Number of the ${label}.`) +
      property('displayName', 'string', `Name shown for the ${label}.`) +
      property('description', 'string', `What the ${label} is for.`) +
      property('amount', 'number', 'An amount, a decimal.') +
      property('blocked', 'boolean', `Whether the ${label} is blocked.`) +
      property('lastModifiedDateTime', 'string', `When the ${label} was last changed.`, '    format: date-time\n    readOnly: true\n'),
    [`schemas/${Entity}List.yaml`]:
      `type: object\ntitle: ${Entity}List\ndescription: A page of the ${label} entries of a company.\nproperties:\n  value:\n    type: array\n    description: The ${label} entries of this page.\n    items:\n      $ref: ./${Entity}.yaml\n`,
    [`parameters/${name}_id.yaml`]:
      `name: ${name}_id\nin: path\nrequired: true\ndescription: Id of the ${label} (a GUID), written inside the parentheses of \`${set}(<${name}_id>)\`.\nschema:\n  type: string\n  format: uuid\nexample: '${ID}'\n`,
    [`examples/list${Set}_OnePage.yaml`]: `summary: One page of ${label} entries\nvalue:\n  value:\n    -\n${record('      ')}\n`,
    [`examples/create${Entity}_Contoso_request.yaml`]: `summary: A new ${label}\nvalue:\n  number: "10000"\n  displayName: Contoso ${label}\n`,
    [`examples/create${Entity}_Contoso.yaml`]: `summary: The created ${label}\nvalue:\n${record('  ')}\n`,
    [`examples/get${Entity}_Contoso.yaml`]: `summary: A ${label} as read\nvalue:\n${record('  ')}\n`,
    [`examples/update${Entity}_Block_request.yaml`]: `summary: Block a ${label}\nvalue:\n  blocked: true\n`,
    [`examples/update${Entity}_Block.yaml`]: `summary: The ${label}, now blocked\nvalue:\n${record('  ').replace('blocked: false', 'blocked: true')}\n`,
    [`paths/${set}.yaml`]:
      operation('get', `list${Set}`, `List ${label} entries`, `Lists the ${label} entries of a company.`) +
      `  responses:\n${answer(200, `The ${label} entries.`, `${Entity}List`, `list${Set}`, 'OnePage')}${error}` +
      operation('post', `create${Entity}`, `Create a ${label}`, `Creates a ${label} in the company.`) +
      body(`The ${label} to create.`, `create${Entity}`, 'Contoso') +
      `  responses:\n${answer(201, `The created ${label}, with all of its properties.`, Entity, `create${Entity}`, 'Contoso')}${error}`,
    [`paths/${name}.yaml`]:
      operation('get', `get${Entity}`, `Get a ${label}`, `Reads one ${label} of a company.`) +
      `    - $ref: ../parameters/${name}_id.yaml\n  responses:\n${answer(200, `The ${label}.`, Entity, `get${Entity}`, 'Contoso')}${error}` +
      operation('patch', `update${Entity}`, `Update a ${label}`, `Changes properties of an existing ${label}; \`If-Match\` carries its current eTag.`) +
      `    - $ref: ../parameters/${name}_id.yaml\n    - $ref: ../parameters/If-Match.yaml\n` +
      body(`Only the ${label} fields to change.`, `update${Entity}`, 'Block') +
      `  responses:\n${answer(200, `The updated ${label}, with all of its properties.`, Entity, `update${Entity}`, 'Block')}${error}` +
      operation('delete', `delete${Entity}`, `Delete a ${label}`, `Deletes one ${label} of a company.`) +
      `    - $ref: ../parameters/${name}_id.yaml\n  responses:\n    "204":\n      description: Deleted; no body.\n${error}`,
  };
}

/**
 * Adds `count` entity sets to the business-data version folder `version` of the workspace
 * at `dir`, by the recipe; returns their names and the files written (relative to `dir`).
 */
export async function addWideEntitySets(dir, { version = WIDE_VERSION, count = 59 } = {}) {
  const folder = join(dir, version);
  const names = wideEntityNames(count);
  const written = [];
  let root = await readFile(join(folder, 'openapi.yaml'), 'utf8');
  for (const name of names) {
    for (const [rel, text] of Object.entries(entityFiles(name))) {
      await writeFile(join(folder, rel), text);
      written.push(`${version}/${rel}`);
    }
    const set = `${name}s`;
    root = root
      .replace(/^tags:\n/m, `tags:\n  - name: ${upper(set)}\n    description: The ${words(name)} entries of a company.\n`)
      .replace(/^paths:\n/m, `paths:\n  /companies({company_id})/${set}:\n    $ref: ./paths/${set}.yaml\n  /companies({company_id})/${set}({${name}_id}):\n    $ref: ./paths/${name}.yaml\n`);
  }
  await writeFile(join(folder, 'openapi.yaml'), root);
  return { names, written };
}

/** A workspace copy with `count` entity sets added to v2.0 (59 + vendors' one = 296 operations). */
export async function wideWorkspace(count = 59, prefix = `bench-wide${count}-`) {
  const copy = await workspaceCopy(prefix);
  const { names, written } = await addWideEntitySets(copy.dir, { count });
  return { ...copy, names, written };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 59);
  const copy = await wideWorkspace(count);
  console.log(`${copy.dir}: ${copy.names.length} entity sets (${copy.names.length * 5} operations, ${copy.written.length} files) added to ${WIDE_VERSION}`);
}
