#!/usr/bin/env node
// Two axes, each in throw-away workspace copies (the versions are generated here, never
// committed); every build is `pipeline/build.mjs --no-docs` (lint, bundles, types,
// manifest, compile; the docs cost per page is the docs benchmark's).
//   versions:  one API (sql) held at 1, 10 and 50 versions. For each: the build,
//              `tsc --noEmit` of an app file that uses a client pinned to one version, and
//              the min+gzip bundle of that app (esbuild, as bench/size.mjs measures).
//   documents: workspaceOfN(5) and workspaceOfN(250) (the five documents replicated as
//              further versions, bench/lib/workspace-n.mjs). For each: the build, and
//              `tsc --noEmit` and the min+gzip bundle of an app that calls all five
//              operations through both clients at their default versions. Goal (issue
//              15): the bundle at N = 250 within 2 % of N = 5.
//   node bench/versions.mjs [--counts=1,10,50] [--documents=5,250] [--axis=versions|documents|both]
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { appBundle } from './lib/app-bundle.mjs';
import { timed } from './lib/stats.mjs';
import { workspaceCopy } from './lib/workspace-copy.mjs';
import { addVersions, workspaceOfN } from './lib/workspace-n.mjs';

const run = promisify(execFile);
const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const counts = option('counts', '1,10,50').split(',').map(Number);
const documents = option('documents', '5,250').split(',').map(Number);
const axis = option('axis', 'both');
if (!['versions', 'documents', 'both'].includes(axis)) throw new Error(`--axis=${axis}: versions, documents or both`);
const FROM = 'specs/resource-manager/Provider.Sql/2025-01-01';

/** Versions 2025-01-02, 2025-01-03, ... of sql, added as specs/README.md says. */
const addSqlVersions = (dir, n) =>
  addVersions(
    dir,
    Array.from({ length: n - 1 }, (_, i) => ({ apiName: 'sql', from: FROM, to: new Date(Date.UTC(2025, 0, 2 + i)).toISOString().slice(0, 10) })),
  );

const APP = `
import { createResourceManagerClient } from './src/index.js';
const arm = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't', apiVersions: { sql: '2025-01-01' } });
export async function check(name: string) {
  const result = await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
    params: { path: { subscriptionId: 's' } },
    body: { name, type: 'Provider.Sql/servers' },
  });
  return result.ok ? result.data.available : false;
}
`;

/** An app that calls the five operations, each API at its default version. */
const APP_FIVE = `
import { createBusinessCentralClient, createResourceManagerClient } from './src/index.js';
const arm = createResourceManagerClient({ baseUrl: 'https://m.example', token: 't' });
const bc = createBusinessCentralClient({ baseUrl: 'https://b.example', token: 't' });
export async function five(id: string) {
  const role = await arm.GET('/{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}', {
    params: { path: { scope: 'providers/Provider.Subscription/subscriptions/s', roleEligibilityScheduleRequestName: id } },
  });
  const name = await arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', {
    params: { path: { subscriptionId: 's' } },
    body: { name: id, type: 'Provider.Sql/servers' },
  });
  const images = [];
  for await (const image of arm.listCachedImages({ subscriptionId: 's', location: 'westeurope' })) images.push(image.image);
  const vendor = await bc.updateVendor({ companyId: 'c', vendorId: id, eTag: 'W/"1"', vendor: { displayName: 'A' } });
  const method = await bc.POST('/companies({company_id})/shipmentMethods', { params: { path: { company_id: 'c' } }, body: { code: 'EXW', displayName: 'Ex Warehouse' } });
  return [role.ok && role.data.properties?.status, name.ok && name.data.available, images, vendor.ok && vendor.data.displayName, method.ok && method.data.id];
}
`;

/** Builds the workspace at `dir`, then type-checks and bundles `app` in it. */
async function measure(dir, app) {
  const [buildMs] = await timed(() => run(process.execPath, ['pipeline/build.mjs', '--no-docs', '--no-server'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }));
  await writeFile(join(dir, 'app.ts'), app);
  await writeFile(join(dir, 'tsconfig.app.json'), JSON.stringify({ extends: './tsconfig.json', include: ['app.ts'] }));
  const [tscMs] = await timed(() => run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.app.json'], { cwd: dir }));
  const { gzip, min } = await appBundle({ root: dir, entryPoints: [join(dir, 'app.ts')] });
  return { buildS: buildMs / 1000, tscS: tscMs / 1000, gzip, min };
}

const percent = (row, first) =>
  `${row.gzip - first.gzip >= 0 ? '+' : ''}${row.gzip - first.gzip} B gzip (${(((row.gzip - first.gzip) / first.gzip) * 100).toFixed(2)} %)`;
console.log(
  `node ${process.version}, ${new Date().toISOString()}, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

if (axis !== 'documents') {
  const rows = [];
  for (const n of counts) {
    const { dir, remove } = await workspaceCopy('bench-versions-');
    try {
      await addSqlVersions(dir, n);
      const row = { n, ...(await measure(dir, APP)) };
      rows.push(row);
      console.log(
        `versions ${String(n).padStart(3)}: build ${row.buildS.toFixed(2)} s, tsc --noEmit ${row.tscS.toFixed(2)} s, app bundle ${row.min} B min, ${row.gzip} B min+gzip`,
      );
    } finally {
      await remove();
    }
  }
  for (const row of rows.slice(1)) console.log(`${row.n} versions vs ${rows[0].n}: app bundle ${percent(row, rows[0])}`);
}

if (axis !== 'versions') {
  const rows = [];
  for (const n of documents) {
    const { dir, remove } = await workspaceOfN(n, `bench-versions-n${n}-`);
    try {
      const row = { n, ...(await measure(dir, APP_FIVE)) };
      rows.push(row);
      console.log(
        `documents ${String(n).padStart(3)}: build ${row.buildS.toFixed(2)} s, tsc --noEmit ${row.tscS.toFixed(2)} s, five-operation app bundle ${row.min} B min, ${row.gzip} B min+gzip`,
      );
    } finally {
      await remove();
    }
  }
  for (const row of rows.slice(1)) {
    const within = Math.abs(row.gzip - rows[0].gzip) / rows[0].gzip <= 0.02;
    console.log(`N=${row.n} vs N=${rows[0].n}: five-operation app bundle ${percent(row, rows[0])}; goal within 2 %: ${within ? 'met' : 'NOT met'}`);
  }
  console.log(
    `load average at the end ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
