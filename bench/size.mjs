#!/usr/bin/env node
// `npm run size`: the bytes an application pays for the clients, measured the way a
// bundler ships them: esbuild bundle of an entry that imports both factories from
// src/index.ts (openapi-fetch included), minified, platform "browser", then gzip.
// The same measure for @azure/arm-sql (an entry calling servers.checkNameAvailability)
// gives the comparison. Budget: 8.5 KiB for the two clients (all five operations);
// it was 6 KiB before the issue #14 hardening: bench/README.md shows what each byte buys.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBundle } from './lib/app-bundle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET = 8.5 * 1024;

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

async function measure(name, source, dir) {
  const entry = join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
  writeFileSync(entry, source);
  return { name, ...(await appBundle({ root: ROOT, entryPoints: [entry] })) };
}

const dir = mkdtempSync(join(tmpdir(), 'size-'));
try {
  const rows = [];
  for (const [name, source] of Object.entries(entries)) rows.push(await measure(name, source, dir));
  const kib = (n) => `${(n / 1024).toFixed(2)} KiB`;
  console.log('bundle                 minified      min+gzip');
  for (const r of rows) console.log(`${r.name.padEnd(22)} ${kib(r.min).padStart(11)}  ${kib(r.gzip).padStart(11)}  (${r.gzip} B)`);
  const ours = rows[0];
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
