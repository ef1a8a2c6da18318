#!/usr/bin/env node
// The version axis: one API (sql) held at 1, 10 and 50 versions in a workspace copy (the
// versions are generated here, not committed). For each: the build (lint, bundles,
// types, manifest, compile; docs left out: its cost per page is the docs benchmark's),
// `tsc --noEmit` of an app file that uses a client pinned to one version, and the
// min+gzip bundle of that app (esbuild, as bench/size.mjs measures).
//   node bench/versions.mjs [--counts 1,10,50]
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { workspaceCopy } from './lib/workspace-copy.mjs';
import { addVersions } from './lib/workspace-n.mjs';

const run = promisify(execFile);
const counts = (process.argv.find((a) => a.startsWith('--counts='))?.slice(9) ?? '1,10,50').split(',').map(Number);
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

async function timed(fn) {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

const rows = [];
for (const n of counts) {
  const { dir, remove } = await workspaceCopy('bench-versions-');
  try {
    await addSqlVersions(dir, n);
    const buildS = await timed(() => run(process.execPath, ['scripts/build.mjs', '--no-docs'], { cwd: dir }));
    await writeFile(join(dir, 'app.ts'), APP);
    await writeFile(join(dir, 'tsconfig.app.json'), JSON.stringify({ extends: './tsconfig.json', include: ['app.ts'] }));
    const tscS = await timed(() => run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.app.json'], { cwd: dir }));
    const bundle = await build({
      entryPoints: [join(dir, 'app.ts')], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022',
      write: false, logLevel: 'silent', nodePaths: [join(dir, 'node_modules')], absWorkingDir: dir,
    });
    const code = bundle.outputFiles[0].contents;
    rows.push({ n, buildS, tscS, gzip: gzipSync(code, { level: 9 }).length, min: code.length });
    console.log(`versions ${String(n).padStart(3)}: build ${buildS.toFixed(2)} s, tsc --noEmit ${tscS.toFixed(2)} s, app bundle ${code.length} B min, ${rows.at(-1).gzip} B min+gzip`);
  } finally {
    await remove();
  }
}
const [first] = rows;
for (const row of rows.slice(1)) {
  console.log(`${row.n} versions vs ${first.n}: app bundle +${row.gzip - first.gzip} B gzip (${(((row.gzip - first.gzip) / first.gzip) * 100).toFixed(1)} %)`);
}
