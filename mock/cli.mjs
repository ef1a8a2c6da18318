#!/usr/bin/env node
// `npm run mock` (installed as the `provider-api-mock` command): one mock for every API
// and version of redocly.yaml, on http://127.0.0.1:4010. The mock itself: mock/.
//
//   npm run mock                       serve generated/bundled/*.yaml (every API in redocly.yaml)
//   npm run mock -- --port 0           any free port (the first line of output names it)
//   npm run mock -- --taken a,b        names the name check answers AlreadyExists for
//   npm run mock -- --watch            reload when `npm run generate` rewrites a bundle
//   npm run mock -- --verbose          Prism's request log and violations on stderr
//   npm run mock -- --allow-host NAME  also answer requests whose Host is NAME (loopback names
//                                      always are; others get 403: DNS rebinding). Repeatable.
//   npm run mock -- --allow-origin O   let pages on origin O (or '*') change state; reads are
//                                      open to any origin, writes to loopback origins. Repeatable.
//
// Resource-management paths are served from the root, chosen by `api-version`; business
// data under each document's servers[0] prefix (/api/v2.0, /api/v1.0). Requests are
// validated (parameters, body, security); without `Prefer`, the answers follow the
// family's conventions (OData entity sets with eTags, nextLink paging) and the source's
// rules (name check), with state per process; an operation no convention covers answers
// its documented example (the start-up listing says which). `Prefer: example=<name>`,
// `code=<status>` and `dynamic=true` choose an answer instead. A test harness seeds,
// overrides and reads the record under /__mock (docs/contract-testing.md).
// Copy-paste curl lines: README.md, section "The mock".
//
//   S=providers/Provider.Subscription/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11
//   curl -H 'Authorization: Bearer x' "http://127.0.0.1:4010/$S/providers/Provider.Authorization/roleEligibilityScheduleRequests/64caffb6-55c0-4deb-a585-68e948ea1ad6?api-version=2020-10-01"
//   curl -X POST -H 'Content-Type: application/json' -H 'Prefer: example=AlreadyExists' \
//     -d '{"name":"sales-db-west-01","type":"Provider.Sql/servers"}' \
//     "http://127.0.0.1:4010/subscriptions/6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01"
import { watch } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadApis } from '../model/apis.mjs';
import { startMock } from './index.mjs';
import { seconds, stopOnSignals } from '../lib/run.mjs';

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      port: { type: 'string', short: 'p', default: process.env.PORT ?? '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      watch: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      taken: { type: 'string', default: '' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      'allow-origin': { type: 'string', multiple: true, default: [] },
    },
  }));
} catch (error) {
  console.error(`mock  FAIL  ${error.message}`);
  process.exit(2);
}

const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock  FAIL  --port ${options.port} is not a port number`);
  process.exit(2);
}

let mock;
let apis;
try {
  const root = resolve(import.meta.dirname, '..'); // the package this command belongs to
  apis = loadApis(root); // a broken redocly.yaml is one file:line:col line, not a stack trace
  const takenNames = options.taken
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  mock = await startMock({
    root,
    port,
    host: options.host,
    apis,
    takenNames,
    logLevel: options.verbose ? 'info' : 'silent',
    allowHosts: options['allow-host'],
    allowOrigins: options['allow-origin'],
  });
} catch (error) {
  console.error(`mock  FAIL  ${error.message}`);
  process.exit(1);
}

stopOnSignals(async () => {
  await mock.close();
  console.log('mock  stopped');
});

// performance.now() counts from process start: this is the start-to-ready time.
console.log(`mock  ${mock.url}  ${mock.routes.length} operations  ready in ${seconds(0)}`);
printRoutes(mock.routes);
const warmStart = performance.now();
mock.warmed?.then(() => console.log(`mock  prepared ${new Set(mock.routes.map((r) => r.api)).size} documents  ${seconds(warmStart)}`));

if (options.watch) watchBundles();

/** Every operation with what answers it (docs/mock.md); then, once, those no convention covers. */
function printRoutes(routes) {
  const width = Math.max(...routes.map((r) => r.path.length));
  const idWidth = Math.max(...routes.map((r) => String(r.operationId).length));
  for (const { method, path, operationId, convention } of routes)
    console.log(`  ${method.padEnd(6)} ${path.padEnd(width)}  ${String(operationId).padEnd(idWidth)}  ${convention}`);
  const uncovered = [...new Set(routes.filter((r) => r.convention === 'example').map((r) => r.operationId))];
  if (uncovered.length) console.log(`mock  no convention covers ${uncovered.join(', ')}: answered with the documented example (docs/mock.md)`);
}

/** Reloads the documents when a bundle changes; a broken bundle keeps the previous ones. */
function watchBundles() {
  const dirs = [...new Set(apis.map((api) => dirname(api.bundle)))];
  let timer;
  const reload = async () => {
    const start = performance.now();
    try {
      const before = new Set(mock.routes.map((r) => `${r.method} ${r.path} ${r.version}`));
      const routes = await mock.reload();
      console.log(`mock  reloaded  ${routes.length} operations  ${seconds(start)}`);
      const added = routes.filter((r) => !before.has(`${r.method} ${r.path} ${r.version}`));
      if (added.length) printRoutes(added);
    } catch (error) {
      console.error(`mock  reload FAIL  ${error.message} (still serving the previous documents)`);
    }
  };
  // `generate` writes several files in a burst: reload once it has settled.
  for (const dir of dirs) {
    watch(dir, () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 300);
    });
  }
  console.log(`mock  watching  ${dirs.map((d) => d.replace(`${process.cwd()}/`, '')).join(', ')}`);
}
