// `npm run changes` on a throw-away copy of the workspace made into a git repository: the
// real documents, edited the way a user would, against commits of the copy.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { RULES } from '../../changes/rules.mjs';
// @ts-expect-error: plain ESM module without types
import { loadDocument, worktreeSource } from '../../changes/load.mjs';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';
import type { Change } from './support.js';

let dir = '';
let remove = async () => {};

// Git must act on the copy only, whatever the environment of the test run says.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
const git = (...args: string[]) => {
  const r = spawnSync('git', args, { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
// The command runs in this process (test/helpers/in-process.ts); the exit codes the
// shell sees are checked once each with a process of its own (changesProcess).
const changes = (...args: string[]) => runInProcess(dir, 'changes/cli.mjs', ...args);
const changesProcess = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['changes/cli.mjs', ...args], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const json = async (...args: string[]) => {
  const r = await changes('--json', ...args);
  return { ...r, list: JSON.parse(r.stdout) as Change[] };
};
const VENDORS = 'specs/business-central/v2.0';
const SQL = 'specs/resource-manager/Provider.Sql/2025-01-01';
const ACI = 'specs/resource-manager/Provider.ContainerInstance/2025-09-01';
const AUTH = 'specs/resource-manager/Provider.Authorization/2020-10-01';
const SHIP = 'specs/business-central/v1.0';

function edit(rel: string, change: (doc: any) => void) {
  const path = join(dir, rel);
  const doc = parse(readFileSync(path, 'utf8'));
  change(doc);
  writeFileSync(path, stringify(doc));
}
const write = (rel: string, text: string) => writeFileSync(join(dir, rel), text);
const reset = () => {
  git('reset', '-q', '--hard');
  git('clean', '-qfd', '--', 'specs');
};

/** The operations of a document of the copy as it is now (operationId, else METHOD /path), sorted. */
const operationsOf = (root: string) => {
  const doc = loadDocument(worktreeSource(dir), root).document;
  return Object.entries(doc.paths)
    .flatMap(([path, item]: [string, any]) =>
      ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
        .filter((m) => item[m])
        .map((m) => item[m].operationId ?? `${m.toUpperCase()} ${path}`),
    )
    .sort();
};

beforeAll(async () => {
  // The in-process runs call git with this process's environment: it must act on the copy.
  for (const name of Object.keys(process.env)) if (name.startsWith('GIT_')) delete process.env[name];
  ({ dir, remove } = await workspaceCopy('changes-cli-'));
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  git('init', '-q');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'user.name', 'test');
  git('add', '-A');
  git('commit', '-qm', 'published');
  // What some rules need to exist before they can change: an optional query parameter
  // with a default, a second operation on a path, a second request media type, an
  // optional request body.
  edit(`${ACI}/paths/cachedImages.yaml`, (d) =>
    d.get.parameters.push(
      { name: '$filter', in: 'query', description: 'Filter.', schema: { type: 'string', default: 'all' } },
      { name: '$skip', in: 'query', description: 'Skip.', schema: { type: 'integer' } },
    ),
  );
  edit(`${VENDORS}/paths/vendor.yaml`, (d) => {
    d.get = {
      operationId: 'getVendor',
      summary: 'Get a vendor',
      parameters: d.patch.parameters.slice(0, 2),
      responses: { '200': { description: 'The vendor.', content: { 'application/json': { schema: { $ref: '../schemas/Vendor.yaml' } } } } },
    };
    d.patch.requestBody.content['application/merge-patch+json'] = { schema: { $ref: '../schemas/Vendor.yaml' } };
  });
  edit(`${SHIP}/paths/shipmentMethods.yaml`, (d) => {
    d.post.requestBody.required = false;
    d.post['x-ms-long-running-operation'] = true; // to be turned back
  });
  edit(`${SQL}/paths/checkNameAvailability.yaml`, (d) => {
    d.post['x-ms-long-running-operation'] = true;
    d.post['x-ms-long-running-operation-options'] = { 'final-state-via': 'azure-async-operation' }; // to be changed
  });
  git('commit', '-qam', 'setup');
});

afterAll(() => remove());

describe('npm run changes', () => {
  it('reports nothing and exits 0 on an unchanged workspace', async () => {
    const { code, stdout, stderr } = await changes();
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^businesscentral@v2\.0 against HEAD: no changes$/m);
    expect(stdout).toMatch(/^changes: 0 breaking in published versions, 0 accepted, 0 breaking between versions, 0 warning, 0 info$/m);
    expect(code).toBe(0);
    expect((await json()).list).toEqual([]);
  });

  it('reports every rule on the real documents edited to apply it, and exits 1 (published versions)', async () => {
    reset();
    edit(`${AUTH}/openapi.yaml`, (d) => (d.paths = {})); // path-removed
    edit(`${VENDORS}/paths/vendor.yaml`, (d) => {
      delete d.get; // operation-removed
      // operation-added: under a method the path does not have yet (whatever the workspace has grown)
      const method = ['put', 'post', 'delete', 'head', 'options', 'trace'].find((m) => !(m in d) && m !== 'get')!;
      d[method] = { operationId: 'addedByTheChangesTest', responses: { '204': { description: 'Done.' } } };
      delete d.patch.requestBody.content['application/merge-patch+json']; // request-media-type-removed
      d.patch.summary = 'Change a vendor'; // summary-changed
      d.patch.description = 'Changes a vendor.'; // description-changed
      d.patch['x-ms-long-running-operation'] = true; // operation-became-long-running
    });
    edit(`${VENDORS}/examples/updateVendor_BlockPayment.yaml`, (d) => (d.value.city = 'Savannah')); // example-changed
    edit(`${VENDORS}/schemas/Vendor.yaml`, (d) => {
      delete d.properties.city; // response-property-removed
      d.properties.balance.type = 'string'; // response-property-type-changed
      d.properties.state.type = ['string', 'null']; // response-property-became-nullable
      d.properties.taxLiable.type = 'string'; // request-type-changed
    });
    edit(`${SHIP}/paths/shipmentMethods.yaml`, (d) => {
      d.post.responses['200'] = d.post.responses['201']; // success-status-removed
      delete d.post.responses['201'];
      d.post.requestBody.required = true; // request-body-became-required
      delete d.post['x-ms-long-running-operation']; // operation-no-longer-long-running
    });
    edit(`${SHIP}/schemas/ShipmentMethod.yaml`, (d) => {
      d.properties.carrier = { type: 'string' };
      d.properties.trackingUrl = { type: 'string' }; // optional-request-property-added
      delete d.properties.displayName; // request-property-removed
      d.required = ['carrier', 'code']; // new-required-request-property, request-property-became-required
    });
    edit(`${ACI}/paths/cachedImages.yaml`, (d) => {
      const filter = d.get.parameters.find((p: any) => p.name === '$filter');
      filter.required = true; // parameter-became-required
      filter.schema.default = 'none'; // parameter-default-changed
      d.get.parameters = d.get.parameters.filter((p: any) => p.name !== '$skip'); // parameter-removed
      d.get.parameters.push({ name: 'x-ms-client-request-id', in: 'header', required: true, schema: { type: 'string' } }); // new-required-parameter
      d.get.parameters.push({ name: '$top', in: 'query', schema: { type: 'integer' } }); // optional-parameter-added
      const ok = d.get.responses['200'].content;
      ok['application/x-ndjson'] = ok['application/json']; // response-media-type-removed
      delete ok['application/json'];
    });
    edit(`${ACI}/openapi.yaml`, (d) => d.security[0].azure_auth.push('admin')); // security-scope-added
    edit(`${SQL}/paths/checkNameAvailability.yaml`, (d) => {
      d.post.security = [{ azure_auth: ['user_impersonation'] }]; // security-requirement-added
      d.post['x-ms-long-running-operation-options']['final-state-via'] = 'location'; // final-state-via-changed
    });
    edit(`${SQL}/schemas/CheckNameAvailabilityResourceType.yaml`, (d) => (d.enum = ['Provider.Sql/servers/databases'])); // request-enum-value-removed
    edit(`${SQL}/schemas/CheckNameAvailabilityRequest.yaml`, (d) => (d.properties.name.maxLength = 63)); // request-constraint-tightened
    edit(`${SQL}/schemas/CheckNameAvailabilityReason.yaml`, (d) => d.enum.push('Reserved')); // response-enum-value-added
    edit(`${SQL}/schemas/CheckNameAvailabilityResponse.yaml`, (d) => {
      d.required = ['name']; // response-property-became-optional
      d.properties.suggestedName = { type: 'string' }; // response-property-added
    });

    const { code, list, stdout, stderr } = await json();
    expect(code).toBe(1);
    expect(stderr).toMatch(/breaking changes inside published versions/);
    const rules = new Set(list.map((c) => c.rule));
    for (const rule of RULES.map((r: { name: string }) => r.name)) expect.soft(rules, rule).toContain(rule);

    // Stable: the same keys in the same order, a place in the new document, the same bytes twice.
    for (const c of list) {
      expect(Object.keys(c)).toEqual(['api', 'version', 'operation', 'rule', 'level', 'message', 'location']);
      expect(['breaking', 'warning', 'info']).toContain(c.level);
      const [file = '', line] = c.location.split(':');
      expect(Number(line)).toBeGreaterThan(0);
      expect(readFileSync(join(dir, file), 'utf8').split('\n').length).toBeGreaterThanOrEqual(Number(line));
    }
    expect((await json()).stdout).toBe(stdout);

    // The resource-management policy: an enum value added to a published api-version breaks it.
    expect(list.find((c) => c.rule === 'response-enum-value-added')).toMatchObject({ api: 'sql', version: '2025-01-01', level: 'breaking' });
    expect(list.find((c) => c.rule === 'response-property-added' && c.api === 'sql')).toMatchObject({ level: 'warning' });

    // As the shell sees it: a process of its own.
    const human = changesProcess();
    expect(human.code).toBe(1);
    const city = list.find((c) => c.rule === 'response-property-removed' && c.message.includes('`city`'))!;
    expect(city.location).toMatch(/^specs\/business-central\/v2\.0\/schemas\/Vendor\.yaml:\d+$/);
    expect(human.stdout).toContain(
      `  breaking  response-property-removed  updateVendor  ${city.location}  response property \`city\` of \`updateVendor\` 200 was removed`,
    );
    expect(human.stdout).toContain('  breaking  new-required-parameter  Location_ListCachedImages  ');
  });

  it('does not fail for a change recorded in specs/accepted-changes.yaml, and names stale entries', async () => {
    reset();
    edit(`${VENDORS}/schemas/Vendor.yaml`, (d) => delete d.properties.city);
    expect((await changes()).code).toBe(1);
    // `city` is read by two operations (updateVendor, and getVendor from the setup): an
    // entry for one operation leaves the other failing; an entry by file covers both.
    const entry = (where: string, match: string) =>
      `  - api: businesscentral\n    version: v2.0\n    rule: response-property-removed\n    ${where}\n    match: "\`${match}\`"\n    reason: the service never returned it\n`;
    write('specs/accepted-changes.yaml', `accepted:\n${entry('operation: updateVendor', 'city')}`);
    expect((await changes()).code).toBe(1);
    write('specs/accepted-changes.yaml', `accepted:\n${entry(`location: ${VENDORS}/schemas/Vendor.yaml`, 'city')}${entry('operation: updateVendor', 'state')}`);
    const r = await changes();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(accepted: the service never returned it)');
    expect(r.stdout).toMatch(/^changes: 0 breaking in published versions, 2 accepted,/m);
    expect(r.stderr).toMatch(/^specs\/accepted-changes\.yaml:8: stale accepted change \(businesscentral@v2\.0 response-property-removed updateVendor\)/m);
    // Already there at the base: it recorded an earlier change, so it is not stale now.
    git('add', 'specs/accepted-changes.yaml');
    git('commit', '-qm', 'accept');
    git('checkout', '-q', 'HEAD~1', '--', VENDORS);
    expect((await changes()).stderr).toBe('');
    git('reset', '-q', '--hard', 'HEAD~1');

    write(
      'specs/accepted-changes.yaml',
      'accepted:\n  - api: businesscentral\n    version: v2.0\n    rule: response-property-removed\n    operation: updateVendor\n',
    );
    const noReason = await changes();
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/^changes: specs\/accepted-changes\.yaml:2: an entry needs reason/);
  });

  it('compares a version that is new since the base with the previous version, without failing', async () => {
    reset();
    cpSync(join(dir, VENDORS), join(dir, 'specs/business-central/v2.1'), { recursive: true });
    edit('specs/business-central/v2.1/openapi.yaml', (d) => (d.info.version = 'v2.1'));
    edit('specs/business-central/v2.1/schemas/Vendor.yaml', (d) => delete d.properties.city);
    const config = readFileSync(join(dir, 'redocly.yaml'), 'utf8');
    write(
      'redocly.yaml',
      config.replace(
        '  businesscentral@v1.0:',
        '  businesscentral@v2.1:\n    root: specs/business-central/v2.1/openapi.yaml\n    output: generated/bundled/businesscentral-v2.1.yaml\n  businesscentral@v1.0:',
      ),
    );

    const { code, list } = await json();
    expect(code).toBe(0);
    expect(list).toContainEqual(expect.objectContaining({ api: 'businesscentral', version: 'v2.1', rule: 'response-property-removed', level: 'breaking' }));
    expect(list.filter((c) => c.version === 'v2.0')).toEqual([]);
    // The new version is named with its operations (info), beside what it changes.
    const versionAdded = list.filter((c) => c.rule === 'version-added');
    expect(versionAdded.map((c) => c.operation).sort()).toEqual(operationsOf('specs/business-central/v2.1/openapi.yaml'));
    expect(
      versionAdded.every(
        (c) => c.version === 'v2.1' && c.level === 'info' && c.message.startsWith('version v2.1 of `businesscentral` was added with operation `'),
      ),
    ).toBe(true);
    expect((await changes()).stdout).toMatch(/^businesscentral@v2\.1 between versions \(v2\.0 -> v2\.1\), new since HEAD: \d+ changes?$/m);

    // The same through the functions watch mode and the docs call.
    const exported = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import('./changes/index.mjs');
         const { loadApis } = await import('./model/apis.mjs');
         const summary = m.changeSummary({ root: process.cwd(), apis: loadApis(process.cwd()).filter((a) => a.name === 'businesscentral@v2.1') });
         console.log(JSON.stringify({ between: m.changesBetweenVersions(process.cwd(), 'businesscentral'), summary, lines: m.summaryLines(summary, 1), published: summary.map((c) => c.context.published) }));`,
      ],
      { cwd: dir, env, encoding: 'utf8' },
    );
    expect(exported.stderr).toBe('');
    const out = JSON.parse(exported.stdout);
    const removed = {
      api: 'businesscentral',
      version: 'v2.1',
      operation: 'updateVendor',
      rule: 'response-property-removed',
      level: 'breaking',
      message: 'response property `city` of `updateVendor` 200 was removed',
    };
    expect(out.between).toContainEqual(expect.objectContaining(removed));
    expect(out.summary).toEqual(list.filter((c) => c.version === 'v2.1'));
    expect(out.published.every((p: boolean) => p === false)).toBe(true);
    expect(out.lines.at(-1)).toMatch(/^changes: \d+ breaking changes? \(0 inside published versions\), /);
    expect(out.lines).toHaveLength(out.summary.length > 1 ? 3 : 2);

    // Once committed, v2.1 is published: a further break inside it fails, unless compared
    // with a base from before it existed.
    git('add', '-A');
    git('commit', '-qm', 'v2.1');
    edit('specs/business-central/v2.1/schemas/Vendor.yaml', (d) => delete d.properties.state);
    expect((await changes()).code).toBe(1);
    const older = await json('--base', 'HEAD~1');
    expect(older.code).toBe(0);
    expect(older.list.filter((c) => c.version === 'v2.1').map((c) => c.message)).toEqual(
      expect.arrayContaining(['response property `city` of `updateVendor` 200 was removed', 'response property `state` of `updateVendor` 200 was removed']),
    );
    git('reset', '-q', '--hard', 'HEAD~1');
  });

  it('fails when a published version is removed from redocly.yaml', async () => {
    reset();
    const config = readFileSync(join(dir, 'redocly.yaml'), 'utf8');
    const expected = operationsOf(`${SHIP}/openapi.yaml`); // before it is removed
    write('redocly.yaml', config.replace(/  businesscentral@v1\.0:\n(    .*\n){2}/, ''));
    const { code, list } = await json();
    expect(code).toBe(1);
    expect(list).toContainEqual(expect.objectContaining({ api: 'businesscentral', version: 'v1.0', rule: 'version-removed', level: 'breaking' }));
    // Named with the operations its clients lose (the API's other versions remain: not api-removed).
    expect(
      list
        .filter((c) => c.rule === 'version-removed')
        .map((c) => c.operation)
        .sort(),
    ).toEqual(expected);
    expect(list.filter((c) => c.rule === 'api-removed')).toEqual([]);
  });

  it('names a new API with its operations (info), in text and JSON, without failing', async () => {
    reset();
    const config = readFileSync(join(dir, 'redocly.yaml'), 'utf8');
    // A name and folder the workspace leaves free (a contributor's own storage provider stays as it is).
    const held = Object.keys(parse(config).apis ?? {}).map((key) => key.split('@')[0]);
    const name = ['storage', ...Array.from({ length: 20 }, (_, i) => `storage${i + 2}`)].find(
      (candidate) => !held.includes(candidate) && !existsSync(join(dir, `specs/resource-manager/Provider.${candidate[0]!.toUpperCase()}${candidate.slice(1)}`)),
    )!;
    const storage = `specs/resource-manager/Provider.${name[0]!.toUpperCase()}${name.slice(1)}/2025-06-01`;
    cpSync(join(dir, SQL), join(dir, storage), { recursive: true });
    write(
      'redocly.yaml',
      config.replace('apis:\n', `apis:\n  ${name}@2025-06-01:\n    root: ${storage}/openapi.yaml\n    output: generated/bundled/${name}-2025-06-01.yaml\n`),
    );
    const expected = operationsOf(`${storage}/openapi.yaml`);
    expect(expected.length).toBeGreaterThan(0);

    const { code, list } = await json();
    expect(code).toBe(0);
    const added = list.filter((c) => c.api === name);
    expect(added.map((c) => c.operation).sort()).toEqual(expected);
    for (const c of added) {
      expect(c).toMatchObject({ version: '2025-06-01', rule: 'api-added', level: 'info' });
      expect(c.message).toMatch(
        new RegExp(
          `^the API \`${name}\` \\(${name}@2025-06-01\\) was added with operation \`${c.operation}\` \\((GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE) /`,
        ),
      );
      expect(c.location).toMatch(new RegExp(`^${storage}/`));
    }
    const { stdout } = await changes();
    expect(stdout).toMatch(
      new RegExp(`^${name}@2025-06-01 new since HEAD, a new API \\(no earlier version to compare with\\): ${expected.length} changes?$`, 'm'),
    );
    expect(stdout).toMatch(new RegExp(`^  info {6}api-added  \\S+  ${storage.replaceAll('.', '\\.')}/\\S+:\\d+  the API \`${name}\``, 'm'));
  });

  it('names a removed API with the operations its clients lose, breaking (a published version)', async () => {
    reset();
    const expected = operationsOf(`${ACI}/openapi.yaml`); // before it is removed
    const config = readFileSync(join(dir, 'redocly.yaml'), 'utf8');
    const entry = /^ {2}containerinstance@[^:]+:\n(?: {4}.*\n)+/m;
    expect(config).toMatch(entry);
    write('redocly.yaml', config.replace(entry, ''));
    const { code, list } = await json();
    expect(code).toBe(1);
    const gone = list.filter((c) => c.api === 'containerinstance');
    expect(gone.map((c) => c.operation).sort()).toEqual(expected);
    for (const c of gone) {
      expect(c).toMatchObject({ rule: 'api-removed', level: 'breaking', location: expect.stringMatching(/^redocly\.yaml:\d+$/) });
      expect(c.message).toMatch(/^the API `containerinstance` \(containerinstance@[^)]+\) was removed from redocly\.yaml, and with it operation `/);
    }
    const { stdout } = await changes();
    expect(stdout).toMatch(/^containerinstance@\S+ removed since HEAD: \d+ changes?$/m);
    expect(stdout).toMatch(/^  breaking  api-removed  /m);
  });

  it('reports on a document that fails lint (an edit in progress)', async () => {
    reset();
    edit(`${VENDORS}/paths/vendor.yaml`, (d) => {
      delete d.patch.responses['200'].content['application/json'].examples; // house-success-response-example would fail
      delete d.patch.operationId; // and so would operationId rules
    });
    const { code, list } = await json();
    expect(code).toBe(0);
    expect(list).toContainEqual(expect.objectContaining({ operation: 'PATCH /companies({company_id})/vendors({vendor_id})', rule: 'example-changed' }));
  });

  it('exits 2 with one line naming the file for a document that cannot be parsed or resolved', async () => {
    reset();
    write(`${VENDORS}/schemas/Vendor.yaml`, readFileSync(join(dir, `${VENDORS}/schemas/Vendor.yaml`), 'utf8').replace('properties:\n', 'properties: [\n'));
    const broken = await changes();
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^changes: specs\/business-central\/v2\.0\/schemas\/Vendor\.yaml:\d+:\d+: cannot parse: .+\n$/);
    expect(broken.stdout).toBe('');

    reset();
    edit(`${VENDORS}/paths/vendor.yaml`, (d) => (d.patch.requestBody.content['application/json'].schema.$ref = '../schemas/Vendr.yaml'));
    const unresolved = await changes('--json');
    expect(unresolved.code).toBe(2);
    expect(unresolved.stderr).toMatch(
      /^changes: specs\/business-central\/v2\.0\/paths\/vendor\.yaml:\d+: \$ref "\.\.\/schemas\/Vendr\.yaml" cannot be resolved: specs\/business-central\/v2\.0\/schemas\/Vendr\.yaml cannot be read\n$/,
    );
    expect(unresolved.stdout).toBe('');
  });

  it('exits 2 on a usage error or an unknown base', async () => {
    reset();
    expect(changesProcess('--bogus')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^changes: unknown argument "--bogus" \(usage: /) });
    expect(await changes('--base')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^changes: --base needs a git ref/) });
    expect(await changes('--base', 'no-such-ref')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^changes: unknown git ref "no-such-ref"/) });
  });
});
