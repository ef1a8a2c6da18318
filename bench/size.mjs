#!/usr/bin/env node
// `npm run size`: the bytes an application pays for the clients, measured the way a
// bundler ships them: esbuild bundle of an entry that imports both factories from
// src/index.ts (openapi-fetch included), minified, platform "browser", then gzip.
// The same measure for @azure/arm-sql (an entry calling servers.checkNameAvailability)
// gives the comparison. Budget: 10 KiB for the two clients (all five operations); it was
// 6 KiB before the issue #14 hardening and 8.5 KiB before the long-running poller:
// bench/README.md shows what each byte buys.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { appBundle } from './lib/app-bundle.mjs';
import { clientManifestOf } from '../pipeline/manifest.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// 10 KiB since issue 31: the long-running poller (beginAndWait, ~830 B) is worth its bytes
// to every ARM app that writes (bench/README.md, "Client bundle size", has the figures).
const BUDGET = 10 * 1024;

const entries = {
  clients: `
    import { createResourceManagerClient, createBusinessCentralClient } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
    export const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't' });
    export const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', token: 't' });
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

async function measure(name, source, dir, plugins = []) {
  const entry = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  writeFileSync(entry, source);
  return { name, ...(await appBundle({ root: ROOT, entryPoints: [entry], plugins })) };
}

// Width: the same app when the documents hold many more operations or versions. What an
// app ships per operation is the client manifest (src/ is the same), so the app is
// bundled with the manifest generated (clientManifestOf, as `npm run generate` does) from
// this workspace's catalogue grown by (a) 300 more operations in the business-data
// version and 300 in one resource-management version, all in the house style's paths,
// (b) 100 more versions of the APIs. Budget: within +5 % of the app at this workspace.
const WIDTH_BUDGET = 0.05;
const catalogue = JSON.parse(/export const catalogue = ([\s\S]*?) as const;/.exec(readFileSync(join(ROOT, 'generated/operations.ts'), 'utf8'))[1]);

function wider(kind) {
  const grown = structuredClone(catalogue);
  const bc = Object.values(grown['business-central'])[0];
  const [armName, arm] = Object.entries(grown['resource-manager'])[0];
  const namespace = Object.keys(arm.operations)[0].match(/providers\/([^/{}]+)\//)?.[1] ?? 'Provider.Wide';
  if (kind === 'operations') {
    for (let i = 0; i < 60; i++) {
      const set = `entitySet${i}`;
      for (const key of [`GET /companies({company_id})/${set}`, `POST /companies({company_id})/${set}`, `GET /companies({company_id})/${set}({id})`, `PATCH /companies({company_id})/${set}({id})`, `DELETE /companies({company_id})/${set}({id})`]) {
        bc.operations[key] = [bc.default];
        arm.operations[`${key.split(' ')[0]} /subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/${namespace}/type${i}${key.includes('({id})') ? '/{name}' : ''}`] = [arm.default];
      }
    }
  } else {
    for (const entry of [bc, arm]) {
      for (let i = 0; i < 50; i++) {
        const version = entry === bc ? `v${3 + i}.0` : `${2030 + i}-01-01`;
        entry.versions.push(version);
        for (const versions of Object.values(entry.operations)) versions.push(version);
      }
      entry.default = entry.versions.at(-1);
    }
  }
  void armName;
  const source = `export const apis = ${JSON.stringify(clientManifestOf(grown))} as const;`;
  return [{ name: 'manifest', setup: (b) => b.onLoad({ filter: /generated\/client-manifest\.ts$/ }, () => ({ contents: source, loader: 'ts' })) }];
}

const dir = mkdtempSync(join(tmpdir(), 'size-'));
try {
  const rows = [];
  for (const [name, source] of Object.entries(entries)) rows.push(await measure(name, source, dir));
  const kib = (n) => `${(n / 1024).toFixed(2)} KiB`;
  console.log('bundle                     minified      min+gzip');
  for (const r of rows) console.log(`${r.name.padEnd(26)} ${kib(r.min).padStart(11)}  ${kib(r.gzip).padStart(11)}  (${r.gzip} B)`);
  const width = [];
  for (const kind of ['operations', 'versions']) width.push(await measure(`clients, ${kind === 'operations' ? '+600 operations' : '+100 versions'}`, entries.clients, dir, wider(kind)));
  for (const r of width) console.log(`${r.name.padEnd(26)} ${kib(r.min).padStart(11)}  ${kib(r.gzip).padStart(11)}  (${r.gzip} B, ${(((r.gzip - rows[0].gzip) / rows[0].gzip) * 100).toFixed(1)} %)`);
  const ours = rows[0];
  for (const r of width) {
    if (r.gzip > ours.gzip * (1 + WIDTH_BUDGET)) {
      console.error(`size: ${r.name} is ${r.gzip - ours.gzip} B more than the app at this workspace (over +${WIDTH_BUDGET * 100} %)`);
      process.exitCode = 1;
    }
  }
  const sdk = rows.find((r) => r.name === '@azure/arm-sql');
  console.log(`\nclients: ${ours.gzip} B gzip of a ${BUDGET} B budget (${((ours.gzip / BUDGET) * 100).toFixed(0)} %); ` +
    `@azure/arm-sql is ${(sdk.gzip / ours.gzip).toFixed(1)}x that.`);
  if (ours.gzip > BUDGET) {
    console.error(`size: over budget by ${ours.gzip - BUDGET} B`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
