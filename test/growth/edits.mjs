// The ordinary growth edits of specs/README.md (the issue's five, and a new entity) ("How to add …"), made to a workspace
// copy exactly as a contributor makes them: new files and small text edits, nothing else.
// Used by test/growth/growth.test.ts, and runnable alone on any copy:
//   node test/growth/edits.mjs <workspace-dir>
// Each edit is skipped where the workspace already has what it adds (a contributor made it
// already, or the edits ran before); the new entity set and the new sql api-version take
// names free in the workspace (a contributor's own `customers` set is left alone, the
// version is dated after every version the workspace holds), so the checks that follow
// always have them.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

const BC2 = 'specs/business-central/v2.0';
const BC1 = 'specs/business-central/v1.0';
const ACI = 'specs/resource-manager/Provider.ContainerInstance/2025-09-01';
const SQL = 'specs/resource-manager/Provider.Sql';

/** What the edits add, for the checks that follow them. */
export const GROWTH = {
  field: { schema: 'Vendor', name: 'remitToName' },
  getVendor: { operationId: 'getVendor', method: 'GET', path: '/companies({company_id})/vendors({vendor_id})', version: 'v2.0' },
  deleteVendor: { operationId: 'deleteVendor', method: 'DELETE', path: '/companies({company_id})/vendors({vendor_id})', version: 'v2.0' },
  createShipmentMethod: { operationId: 'createShipmentMethod', method: 'POST', path: '/companies({company_id})/shipmentMethods', from: 'v1.0', to: 'v2.0' },
  listUsage: {
    operationId: 'Location_ListUsage',
    method: 'GET',
    path: '/subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/usages',
    version: '2025-09-01',
  },
  // A resource type (specs/README.md, "a resource type"): specs/templates/resource-type/ copied into sql 2025-01-01.
  servers: {
    version: '2025-01-01',
    server: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}',
    byResourceGroup: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers',
    bySubscription: '/subscriptions/{subscriptionId}/providers/Provider.Sql/servers',
    database: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}/databases/{databaseName}',
    databases: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}/databases',
    // An action on a server (POST one segment below the instance path), long-running: 202, then its 200 result from Location.
    failover: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Sql/servers/{serverName}/failover',
    operations: [
      'Servers_Get',
      'Servers_CreateOrUpdate',
      'Servers_Update',
      'Servers_Delete',
      'Servers_ListByResourceGroup',
      'Servers_List',
      'Servers_Failover',
      'Databases_Get',
      'Databases_CreateOrUpdate',
      'Databases_Delete',
      'Databases_ListByServer',
    ],
    scenario: 'specs/scenarios/sql-servers-lifecycle.arazzo.yaml',
  },
  // `to` is the first of these dates after every sql version the workspace holds.
  sqlVersion: { api: 'sql', from: '2025-01-01', to: '2025-06-01', operationId: 'Servers_CheckNameAvailability' },
};

const yamlOf = async (dir, rel) => parse(await readFile(join(dir, rel), 'utf8'));

const edit = async (dir, rel, change) => writeFile(join(dir, rel), change(await readFile(join(dir, rel), 'utf8')));
const write = (dir, rel, text) => writeFile(join(dir, rel), text);

/** (a) An optional field on an existing schema. */
async function addField(dir) {
  if ((await yamlOf(dir, `${BC2}/schemas/Vendor.yaml`)).properties?.[GROWTH.field.name]) return false;
  await edit(dir, `${BC2}/schemas/Vendor.yaml`, (text) =>
    text.replace(/^properties:\n/m, 'properties:\n  remitToName:\n    type: string\n    description: Name payments to the vendor are made out to.\n'),
  );
  return true;
}

/** (b) GET and DELETE of a vendor in v2.0, on the key path file, each with an example. */
async function addVendorReadAndDelete(dir) {
  const has = await yamlOf(dir, `${BC2}/paths/vendor.yaml`);
  const get = `get:
  operationId: getVendor
  summary: Get a vendor
  description: Reads one vendor of a company, with all of its properties.
  tags:
    - Vendors
  parameters:
    - $ref: ../../../common/business-central/parameters/company_id.yaml
    - $ref: ../parameters/vendor_id.yaml
  responses:
    "200":
      description: The vendor, with all of its properties.
      content:
        application/json:
          schema:
            $ref: ../schemas/Vendor.yaml
          examples:
            Fabrikam:
              $ref: ../examples/getVendor_Fabrikam.yaml
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`;
  const del = `delete:
  operationId: deleteVendor
  summary: Delete a vendor
  description: Deletes one vendor of a company.
  tags:
    - Vendors
  parameters:
    - $ref: ../../../common/business-central/parameters/company_id.yaml
    - name: vendor_id
      in: path
      required: true
      description: Id of the vendor to delete, a GUID.
      schema:
        type: string
        format: uuid
      examples:
        Fabrikam:
          $ref: ../examples/deleteVendor_Fabrikam.yaml
  responses:
    "204":
      description: The vendor was deleted; no body.
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`;
  const added = { getVendor: !has.get, deleteVendor: !has.delete };
  if (!added.getVendor && !added.deleteVendor) return added;
  if (added.getVendor)
    await write(
      dir,
      `${BC2}/examples/getVendor_Fabrikam.yaml`,
      (await readFile(join(dir, `${BC2}/examples/updateVendor_BlockPayment.yaml`), 'utf8')).replace(/^summary: .*$/m, 'summary: A vendor as read'),
    );
  if (added.deleteVendor)
    await write(dir, `${BC2}/examples/deleteVendor_Fabrikam.yaml`, 'summary: The id of the vendor to delete\nvalue: f8a5738e-44e3-ea11-bb43-000d3a2feca1\n');
  await edit(dir, `${BC2}/paths/vendor.yaml`, (text) => `${added.getVendor ? get : ''}${added.deleteVendor ? del : ''}${text}`);
  return added;
}

/**
 * Copies `rel` from v1.0 to v2.0 with every file of v1.0 it reads through its $refs,
 * whatever the path file holds today (an operation added to it brings its own schemas and
 * examples). The files are the ones the build's own walk finds (pipeline/trust.mjs, checkTree,
 * the copy's module: its specs/ is the copy's). A file v2.0 already has is its own and
 * stays; files outside v1.0 (specs/common/) resolve the same from both versions, which sit
 * side by side.
 */
async function copyWithRefs(dir, rel) {
  const { checkTree } = await import(pathToFileURL(join(dir, 'pipeline/trust.mjs')).href);
  const from = join(dir, BC1);
  for (const file of checkTree(join(from, rel), dir).files.filter((path) => path.startsWith(from + sep))) {
    const target = join(dir, BC2, relative(from, file));
    if (existsSync(target)) continue;
    await mkdir(dirname(target), { recursive: true });
    await cp(file, target);
  }
}

/** (c) POST shipmentMethods in v2.0, next to the v1.0 one: the entity's files copied over. */
async function addShipmentMethodsToV2(dir) {
  if ((await yamlOf(dir, `${BC2}/openapi.yaml`)).paths?.[GROWTH.createShipmentMethod.path]) return false;
  await copyWithRefs(dir, 'paths/shipmentMethods.yaml');
  await edit(dir, `${BC2}/openapi.yaml`, (text) =>
    text
      .replace(/^paths:\n/m, 'paths:\n  /companies({company_id})/shipmentMethods:\n    $ref: ./paths/shipmentMethods.yaml\n')
      .replace(/^tags:\n/m, 'tags:\n  - name: ShipmentMethods\n    description: The ways a company ships goods.\n'),
  );
  return true;
}

/** (d) A list operation with nextLink paging in an existing resource-management document. */
async function addListOperation(dir) {
  if ((await yamlOf(dir, `${ACI}/openapi.yaml`)).paths?.[GROWTH.listUsage.path] || existsSync(join(dir, ACI, 'paths/usages.yaml'))) return false;
  await write(
    dir,
    `${ACI}/schemas/Usage.yaml`,
    'type: object\ntitle: Usage\ndescription: The use of one resource quota in a region.\nproperties:\n  name:\n    type: string\n    description: Name of the quota.\n  currentValue:\n    type: integer\n    description: How much of it is used.\n  limit:\n    type: integer\n    description: How much may be used.\n',
  );
  await write(
    dir,
    `${ACI}/schemas/UsageListResult.yaml`,
    'type: object\ntitle: UsageListResult\ndescription: One page of quota usages.\nproperties:\n  value:\n    type: array\n    description: The usages.\n    items:\n      $ref: ./Usage.yaml\n  nextLink:\n    type: string\n    format: uri\n    description: Address of the next page of results.\n',
  );
  await write(
    dir,
    `${ACI}/examples/Location_ListUsage_Cores.yaml`,
    'summary: The core quota\nvalue:\n  value:\n    - name: Cores\n      currentValue: 4\n      limit: 100\n',
  );
  await write(
    dir,
    `${ACI}/paths/usages.yaml`,
    `get:
  operationId: Location_ListUsage
  summary: List usages
  description: Lists the quota usages of the subscription in the region. Further pages are reached through \`nextLink\`.
  x-ms-pageable:
    nextLinkName: nextLink
  tags:
    - Location
  parameters:
    - $ref: ../parameters/subscriptionId.yaml
    - $ref: ../parameters/location.yaml
    - $ref: ../parameters/api-version.yaml
  responses:
    "200":
      description: One page of usages.
      content:
        application/json:
          schema:
            $ref: ../schemas/UsageListResult.yaml
          examples:
            Cores:
              $ref: ../examples/Location_ListUsage_Cores.yaml
    default:
      description: "Any other status, with a CloudError. Not shown in the source: which statuses and error codes it answers."
      content:
        application/json:
          schema:
            $ref: ../schemas/CloudError.yaml
`,
  );
  await edit(dir, `${ACI}/openapi.yaml`, (text) =>
    text.replace(
      /^paths:\n/m,
      'paths:\n  /subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/usages:\n    $ref: ./paths/usages.yaml\n',
    ),
  );
  return true;
}

/**
 * The names of the edits' new entity set when its plural is `plural`: the set and key
 * templates, key parameter, schema, operationIds, tag and files, all derived the way the
 * recipe names them (specs/README.md).
 */
export function entityNames(plural) {
  const singular = plural.replace(/s$/, '');
  const Entity = singular[0].toUpperCase() + singular.slice(1);
  return {
    plural,
    keyParam: `${singular}_id`,
    set: `/companies({company_id})/${plural}`,
    key: `/companies({company_id})/${plural}({${singular}_id})`,
    version: 'v2.0',
    Entity,
    list: `list${Entity}s`,
    get: `get${Entity}`,
    tag: `${Entity}s`,
    files: {
      set: `paths/${plural}.yaml`,
      key: `paths/${singular}.yaml`,
      schema: `schemas/${Entity}.yaml`,
      page: `schemas/${Entity}List.yaml`,
      read: `examples/get${Entity}_Adatum.yaml`,
      listed: `examples/list${Entity}s_One.yaml`,
    },
  };
}

/**
 * The first entity set of `customers`, `growthCustomers`, `growthCustomers2`, … whose
 * every name is free in the copy's v2.0 (paths, files, operationIds, tag): a contributor's
 * own `customers` is left alone and the edits' set is still the one the checks expect.
 */
async function freeEntityNames(dir) {
  const root = await yamlOf(dir, `${BC2}/openapi.yaml`);
  const texts = [];
  const walk = async (folder) => {
    for (const entry of await readdir(join(dir, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.isSymbolicLink()) await walk(`${folder}/${entry.name}`);
      else if (entry.name.endsWith('.yaml')) texts.push(await readFile(join(dir, folder, entry.name), 'utf8'));
    }
  };
  await walk(BC2);
  const operationIds = new Set(texts.flatMap((text) => [...text.matchAll(/operationId:\s*['"]?([\w.-]+)/g)].map((m) => m[1])));
  for (let n = 0; ; n++) {
    const names = entityNames(n === 0 ? 'customers' : `growthCustomers${n === 1 ? '' : n}`);
    const taken =
      root.paths?.[names.set] ||
      root.paths?.[names.key] ||
      Object.values(names.files).some((file) => existsSync(join(dir, BC2, file))) ||
      (root.tags ?? []).some((tag) => tag?.name === names.tag) ||
      operationIds.has(names.list) ||
      operationIds.has(names.get);
    if (!taken) return names;
  }
}

/** (f) A new entity in v2.0, listed on its set (with the OData query options) and read by key, under names free in the copy. */
async function addEntitySet(dir) {
  const names = await freeEntityNames(dir);
  const { plural, keyParam, Entity, files } = names;
  const noun = plural.replace(/([A-Z])/g, ' $1').toLowerCase();
  const one = noun.replace(/s$/, '');
  const customer = 'id: 5d115c9c-44e3-ea11-bb43-000d3a2feca1\n  displayName: Adatum Corporation';
  await write(
    dir,
    `${BC2}/${files.schema}`,
    `type: object\ntitle: ${Entity}\ndescription: A ${one} of a company.\nproperties:\n  id:\n    type: string\n    format: uuid\n    readOnly: true\n    description: Id of the ${one}.\n  displayName:\n    type: string\n    description: Name of the ${one}.\n`,
  );
  await write(
    dir,
    `${BC2}/${files.page}`,
    `type: object\ntitle: ${Entity}List\ndescription: One page of the ${noun} of a company.\nproperties:\n  '@odata.count':\n    type: integer\n    description: How many ${noun} match $filter (with $count=true).\n  value:\n    type: array\n    description: The ${noun}.\n    items:\n      $ref: ./${Entity}.yaml\n  '@odata.nextLink':\n    type: string\n    format: uri\n    description: Address of the next page, when there is one.\n`,
  );
  await write(dir, `${BC2}/${files.read}`, `summary: A ${one} as read\nvalue:\n  ${customer}\n`);
  await write(dir, `${BC2}/${files.listed}`, `summary: One ${one}\nvalue:\n  value:\n    - ${customer.replace('\n  ', '\n      ')}\n`);
  const common = `  tags:
    - ${names.tag}
  parameters:
    - $ref: ../../../common/business-central/parameters/company_id.yaml
`;
  await write(
    dir,
    `${BC2}/${files.set}`,
    `get:
  operationId: ${names.list}
  summary: List ${noun}
  description: Lists the ${noun} of a company, a page at a time.
${common}${['filter', 'orderby', 'top', 'skip', 'select', 'count'].map((name) => `    - $ref: ../../../common/business-central/parameters/${name}.yaml\n`).join('')}  responses:
    "200":
      description: The ${noun}.
      content:
        application/json:
          schema:
            $ref: ../${files.page}
          examples:
            One:
              $ref: ../${files.listed}
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`,
  );
  await write(
    dir,
    `${BC2}/${files.key}`,
    `get:
  operationId: ${names.get}
  summary: Get a ${one}
  description: Reads one ${one} of a company.
${common}    - name: ${keyParam}
      in: path
      required: true
      description: Id of the ${one}, a GUID.
      schema:
        type: string
        format: uuid
      example: 5d115c9c-44e3-ea11-bb43-000d3a2feca1
  responses:
    "200":
      description: The ${one}.
      content:
        application/json:
          schema:
            $ref: ../${files.schema}
          examples:
            Adatum:
              $ref: ../${files.read}
    default:
      $ref: ../../../common/business-central/responses/NotShownError.yaml
`,
  );
  await edit(dir, `${BC2}/openapi.yaml`, (text) =>
    text
      .replace(/^paths:\n/m, `paths:\n  ${names.set}:\n    $ref: ./${files.set}\n  ${names.key}:\n    $ref: ./${files.key}\n`)
      .replace(/^tags:\n/m, `tags:\n  - name: ${names.tag}\n    description: The ${noun} a company sells to.\n`),
  );
  return names;
}

/**
 * (g) A resource type in sql 2025-01-01, by the recipe: the template's files copied into
 * the version folder, the paths (the server's action, failover, among them), the tag and
 * the OAuth scheme its operations name added to the root, and the lifecycle scenario
 * copied into specs/scenarios/.
 */
async function addResourceType(dir) {
  const root = `${SQL}/${GROWTH.servers.version}`;
  if ((await yamlOf(dir, `${root}/openapi.yaml`)).paths?.[GROWTH.servers.server] || existsSync(join(dir, root, 'paths/server.yaml'))) return false;
  await cp(join(dir, 'specs/templates/resource-type'), join(dir, root), { recursive: true });
  await cp(join(dir, 'specs/templates/sql-servers-lifecycle.arazzo.yaml'), join(dir, GROWTH.servers.scenario));
  const { server, byResourceGroup, bySubscription, failover, database, databases } = GROWTH.servers;
  await edit(dir, `${root}/openapi.yaml`, (text) => {
    const added = text
      .replace(
        /^paths:\n/m,
        `paths:\n  ${server}:\n    $ref: ./paths/server.yaml\n  ${byResourceGroup}:\n    $ref: ./paths/serversByResourceGroup.yaml\n  ${bySubscription}:\n    $ref: ./paths/servers.yaml\n  ${failover}:\n    $ref: ./paths/serverFailover.yaml\n  ${database}:\n    $ref: ./paths/database.yaml\n  ${databases}:\n    $ref: ./paths/databases.yaml\n`,
      )
      .replace(/^tags:\n/m, 'tags:\n  - name: Databases\n    description: The databases of a server.\n');
    return /^components:/m.test(added) ? added : `${added}${AZURE_AUTH}`;
  });
  return true;
}

// The OAuth scheme the other resource-management documents declare, inline in the root
// (specs/README.md says why), for a document that had none.
const AZURE_AUTH = `components:
  securitySchemes:
    azure_auth:
      type: oauth2
      description: >-
        OAuth 2.0 implicit flow. Not shown in the source: the authorization address,
        given there only as the placeholder \`{auth_url}\`. The address below is a
        stand-in under the reserved \`.invalid\` domain (RFC 2606), which never
        resolves: replace it with your identity provider's address.
      x-source-gap: The authorization address is only given as the placeholder {auth_url}.
      flows:
        implicit:
          authorizationUrl: https://auth-url.invalid/
          scopes:
            user_impersonation: Act on behalf of the signed-in user account.
`;

/** (e) A new api-version of sql: the version folder copied, the version written where the old one is named, one redocly.yaml entry. */
async function addSqlVersion(dir) {
  const { from } = GROWTH.sqlVersion;
  const held = Object.keys((await yamlOf(dir, 'redocly.yaml')).apis ?? {})
    .filter((name) => name.startsWith('sql@'))
    .map((name) => name.slice(4));
  const to = [GROWTH.sqlVersion.to, ...Array.from({ length: 100 }, (_, i) => `${2026 + i}-06-01`)].find(
    (v) => held.every((h) => h < v) && !existsSync(join(dir, SQL, v)),
  );
  if (!to) throw new Error(`no free sql api-version after ${held.join(', ')}`);
  await cp(join(dir, SQL, from), join(dir, SQL, to), { recursive: true });
  for (const rel of ['openapi.yaml', 'parameters/api-version.yaml']) await edit(dir, `${SQL}/${to}/${rel}`, (text) => text.replaceAll(from, to));
  await edit(dir, 'redocly.yaml', (text) =>
    text.replace('apis:\n', `apis:\n  sql@${to}:\n    root: ${SQL}/${to}/openapi.yaml\n    output: generated/bundled/sql-${to}.yaml\n`),
  );
  return to;
}

/**
 * Makes the edits; returns which of them it made (an edit whose result the workspace
 * already has is skipped), the sql api-version it added and the names of its new entity
 * set (always added, under names free in the workspace).
 */
export async function applyGrowthEdits(workspace) {
  // Absolute: the files the build's $ref walk gives (copyWithRefs) are, and a relative
  // folder from the command line would otherwise match none of them.
  const dir = resolve(workspace);
  const field = await addField(dir);
  const vendor = await addVendorReadAndDelete(dir);
  const shipmentMethods = await addShipmentMethodsToV2(dir);
  const listUsage = await addListOperation(dir);
  const entitySet = await addEntitySet(dir);
  const resourceType = await addResourceType(dir);
  const sqlVersion = await addSqlVersion(dir);
  return { applied: { field, ...vendor, shipmentMethods, listUsage, resourceType }, sqlVersion, entitySet };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.argv[2]) {
    console.error('usage: node test/growth/edits.mjs <workspace-dir>');
    process.exit(2);
  }
  const { applied, sqlVersion, entitySet } = await applyGrowthEdits(process.argv[2]);
  const skipped = Object.entries(applied)
    .filter(([, made]) => !made)
    .map(([name]) => name);
  console.log(
    `growth edits applied to ${process.argv[2]} (sql api-version ${sqlVersion}, entity set ${entitySet.plural}${skipped.length ? `; already there, skipped: ${skipped.join(', ')}` : ''})`,
  );
}
