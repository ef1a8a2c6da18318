#!/usr/bin/env node
// `npm run size`: the bytes an application pays for the clients, measured the way a
// bundler ships them: esbuild bundle of an entry that imports both factories from
// src/index.ts (openapi-fetch included), minified, platform "browser", then gzip; and the
// same app naming the APIs it calls (createResourceManagerClientOf), at this workspace and
// at 100 documents of distinct APIs: it must not grow with APIs it does not call (+2 %).
// The same measure for @azure/arm-sql (an entry calling servers.checkNameAvailability)
// gives the comparison. Budget: 10 KiB for the two clients (all five operations); it was
// 6 KiB before the issue #14 hardening and 8.5 KiB before the long-running poller:
// bench/README.md shows what each byte buys.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBundle } from './lib/app-bundle.mjs';
import { apiConstName, clientManifestSource } from '../pipeline/manifest.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// 10 KiB since issue 31: the long-running poller (beginAndWait, ~830 B) is worth its bytes
// to every ARM app that writes (bench/README.md, "Client bundle size", has the figures).
// +64 B since issue 43: each API's path parameter facts (multi-segment, GUID key) read from
// its documents instead of two name lists in the serializer (+29 B with the APIs named).
const BUDGET = 10 * 1024 + 64;
const SRC = JSON.stringify(join(ROOT, 'src/index.ts'));
const catalogue = JSON.parse(/export const catalogue = ([\s\S]*?) as const;/.exec(readFileSync(join(ROOT, 'generated/operations.ts'), 'utf8'))?.[1] ?? '');
/** The consts of this workspace's APIs in one family, as an app names them: `sqlApi, containerinstanceApi`. */
const named = (family) => Object.keys(catalogue[family]).map(apiConstName).join(', ');

const entries = {
  clients: `
    import { createResourceManagerClient, createBusinessCentralClient } from ${SRC};
    export const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't' });
    export const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', token: 't' });
  `,
  // The same app naming the APIs it calls (this workspace's five documents: four APIs).
  'clients, APIs named': `
    import { createResourceManagerClientOf, createBusinessCentralClientOf, ${named('resource-manager')}, ${named('business-central')} } from ${SRC};
    export const arm = createResourceManagerClientOf([${named('resource-manager')}], { baseUrl: 'https://management.example.com', token: 't' });
    export const bc = createBusinessCentralClientOf([${named('business-central')}], { baseUrl: 'https://api.example.com', token: 't' });
  `,
  'openapi-fetch alone': `
    import createClient from 'openapi-fetch';
    export const client = createClient({ baseUrl: 'https://management.example.com' });
  `,
  '@azure/arm-sql': `
    import { SqlManagementClient } from '@azure/arm-sql';
    const credential = { getToken: async () => ({ token: 't', expiresOnTimestamp: Date.now() + 3600e3 }) };
    const client = new SqlManagementClient(credential, '00000000-0000-0000-0000-000000000000');
    export const check = (name) => client.servers.checkNameAvailability({ name, type: 'Microsoft.Sql/servers' });
  `,
};

/**
 * One app's bytes (esbuild, minified, gzip), bundled with `manifest` (a catalogue) as
 * generated/client-manifest.ts, written by the generator's own clientManifestSource.
 * @param {string} name
 * @param {string} source the app's entry
 * @param {string} dir where the entry is written
 * @param {object} [manifest] the catalogue to generate the client manifest from (default: this workspace's)
 */
async function measure(name, source, dir, manifest = catalogue) {
  const entry = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  writeFileSync(entry, source);
  const contents = clientManifestSource(manifest);
  /** @type {import('esbuild').Plugin} */
  const plugin = { name: 'manifest', setup: (b) => b.onLoad({ filter: /generated\/client-manifest\.ts$/ }, () => ({ contents, loader: 'ts' })) };
  return { name, ...(await appBundle({ root: ROOT, entryPoints: [entry], plugins: [plugin] })) };
}

// Width: the same app when the documents hold many more operations, versions or APIs. What
// an app ships per operation, version or API is the client manifest (src/ is the same), so
// the app is bundled with the manifest generated (as `npm run generate` does) from this
// workspace's catalogue grown by (a) 300 more operations in the business-data version and
// 300 in one resource-management version, all in the house style's paths, (b) 100 more
// versions of the APIs (both: the app of every API, within +5 %), (c) further APIs, one
// document each with five operations, up to 100 documents of distinct APIs, as an estate of
// providers has (the app naming its APIs, within +2 %; the app of every API is shown).
/** @param {'operations' | 'versions' | 'apis'} kind */
function wider(kind) {
  const grown = structuredClone(catalogue);
  const bc = Object.values(grown['business-central'])[0];
  const arm = Object.values(grown['resource-manager'])[0];
  const namespace = Object.keys(arm.operations)[0].match(/providers\/([^/{}]+)\//)?.[1] ?? 'Provider.Wide';
  if (kind === 'operations') {
    for (let i = 0; i < 60; i++) {
      const set = `entitySet${i}`;
      for (const key of [
        `GET /companies({company_id})/${set}`,
        `POST /companies({company_id})/${set}`,
        `GET /companies({company_id})/${set}({id})`,
        `PATCH /companies({company_id})/${set}({id})`,
        `DELETE /companies({company_id})/${set}({id})`,
      ]) {
        bc.operations[key] = [bc.default];
        arm.operations[
          `${key.split(' ')[0]} /subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/${namespace}/type${i}${key.includes('({id})') ? '/{name}' : ''}`
        ] = [arm.default];
      }
    }
  } else if (kind === 'versions') {
    for (const entry of [bc, arm]) {
      for (let i = 0; i < 50; i++) {
        const version = entry === bc ? `v${3 + i}.0` : `${2030 + i}-01-01`;
        entry.versions.push(version);
        for (const versions of Object.values(entry.operations)) versions.push(version);
      }
      entry.default = entry.versions.at(-1);
    }
  } else {
    const documents = Object.values(catalogue).flatMap((family) => Object.values(family).flatMap((api) => api.versions)).length;
    for (let i = documents; i < 100; i++) {
      const type = `/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Provider.Estate${i}/things`;
      const keys = [`GET ${type}`, `GET ${type}/{name}`, `PUT ${type}/{name}`, `PATCH ${type}/{name}`, `DELETE ${type}/{name}`];
      grown['resource-manager'][`estate${i}`] = {
        versions: ['2025-01-01'],
        default: '2025-01-01',
        operations: Object.fromEntries(keys.map((key) => [key, ['2025-01-01']])),
      };
    }
  }
  return grown;
}

const dir = mkdtempSync(join(tmpdir(), 'size-'));
try {
  const rows = [];
  for (const [name, source] of Object.entries(entries)) rows.push(await measure(name, source, dir));
  const kib = (n) => `${(n / 1024).toFixed(2)} KiB`;
  console.log('bundle                          minified      min+gzip');
  for (const r of rows) console.log(`${r.name.padEnd(31)} ${kib(r.min).padStart(11)}  ${kib(r.gzip).padStart(11)}  (${r.gzip} B)`);
  const [all, apisNamed] = rows;
  /** @type {Array<[string, 'operations' | 'versions' | 'apis', string, number]>} name, width, app, growth allowed */
  const widths = [
    ['clients, +600 operations', 'operations', 'clients', 0.05],
    ['clients, +100 versions', 'versions', 'clients', 0.05],
    // The app of every API ships every API by design: shown, held to no growth budget.
    ['clients, 100 documents of APIs', 'apis', 'clients', Infinity],
    ['APIs named, 100 documents', 'apis', 'clients, APIs named', 0.02],
  ];
  for (const [name, kind, app, allowed] of widths) {
    const r = await measure(name, entries[app], dir, wider(kind));
    const at5 = rows.find((row) => row.name === app)?.gzip ?? 0;
    const growth = (r.gzip - at5) / at5;
    console.log(`${r.name.padEnd(31)} ${kib(r.min).padStart(11)}  ${kib(r.gzip).padStart(11)}  (${r.gzip} B, ${(growth * 100).toFixed(1)} %)`);
    if (growth > allowed) {
      console.error(`size: ${r.name} is ${r.gzip - at5} B more than the app at this workspace (over +${allowed * 100} %)`);
      process.exitCode = 1;
    }
  }
  const sdk = rows.find((r) => r.name === '@azure/arm-sql');
  console.log(
    `\nclients: ${all.gzip} B gzip of a ${BUDGET} B budget (${((all.gzip / BUDGET) * 100).toFixed(0)} %), ${apisNamed.gzip} B with the APIs named; ` +
      `@azure/arm-sql is ${((sdk?.gzip ?? 0) / all.gzip).toFixed(1)}x that.`,
  );
  for (const r of [all, apisNamed]) {
    if (r.gzip > BUDGET) {
      console.error(`size: ${r.name} over budget by ${r.gzip - BUDGET} B`);
      process.exitCode = 1;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
