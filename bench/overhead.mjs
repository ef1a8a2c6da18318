#!/usr/bin/env node
// Per-call cost on loopback, all contenders in one run, interleaved.
//
// A node:http server on 127.0.0.1 answers the check-name POST with a fixed JSON body.
// Each contender makes that call one at a time (await each). Every round runs a short
// batch of each contender in a shuffled order, so drift (CPU frequency, GC, JIT, other
// processes on a shared 2-core machine) hits all of them alike. A batch's figure is the
// median of its calls (a garbage collection or a preemption by another process lands on a
// few calls, and would move a mean by tens of µs). Reported: the median over rounds of
// each batch's figure, and ratios taken per round (paired: both sides of a ratio ran
// seconds apart) and then their median.
//
//   node bench/overhead.mjs            # defaults: warm-up + up to 150 rounds x 40 calls, < 60 s
//   ROUNDS=300 BATCH=40 node bench/overhead.mjs
//   CLIENTS_ROOT=/path/to/older/checkout node bench/overhead.mjs   # measure that checkout's src/
//
// The clients are bundled from src/ with esbuild first (no build step needed).
//
// Verdict, and exit code 1 when it fails: the layer over plain openapi-fetch on the same
// transport is within +10 % on both transports, and the client with its defaults on
// Node (the package's "node" entry, no options) costs no more than the official SDK.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import { SqlManagementClient } from '@azure/arm-sql';
import { bearerTokenAuthenticationPolicyName } from '@azure/core-rest-pipeline';
import { median } from './lib/stats.mjs';

const ROOT = process.env.CLIENTS_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.ROUNDS ?? 150);
const BATCH = Number(process.env.BATCH ?? 40);
const BUDGET_MS = 55_000; // stop measuring early rather than run past a minute

const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const PATH = '/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability';
const TOKEN = 'bench-token-not-secret';
const ANSWER = JSON.stringify({ name: 'bench-server', available: true });
const BODY = { name: 'bench-server', type: 'Provider.Sql/servers' };

// --- the clients under test, bundled from src/ ---------------------------------------
const out = mkdtempSync(join(tmpdir(), 'overhead-'));
await build({
  entryPoints: { clients: join(ROOT, 'src/index.ts'), node: join(ROOT, 'src/index.node.ts'), transport: join(ROOT, 'src/transport-node-http.ts') },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: out,
  outExtension: { '.js': '.mjs' },
  logLevel: 'silent',
});
const { createResourceManagerClient } = await import(pathToFileURL(join(out, 'clients.mjs')).href);
const { createNodeHttpFetch } = await import(pathToFileURL(join(out, 'transport.mjs')).href);
// What `import { createResourceManagerClient } from 'provider-api-clients'` loads on Node.
const { createResourceManagerClient: createDefaultClient } = await import(pathToFileURL(join(out, 'node.mjs')).href);
rmSync(out, { recursive: true, force: true });

// --- the loopback service -------------------------------------------------------------
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  });
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
const url = `${base}/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01`;

// --- contenders -----------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true });
const nodeFetch = createNodeHttpFetch();
// (Untyped paths: the POST is the same call either way.)
/** @type {import('openapi-fetch').Client<any>} */
const plain = createClient({ baseUrl: base });
// Plain openapi-fetch gets the same transport, light Request class included, so the
// two 'createNodeHttpFetch' rows differ only by this project's layer.
/** @type {import('openapi-fetch').Client<any>} */
const plainNode = createClient({ baseUrl: base, fetch: nodeFetch, Request: nodeFetch.Request });
const ours = createResourceManagerClient({ baseUrl: base, token: TOKEN });
const oursNode = createResourceManagerClient({ baseUrl: base, token: TOKEN, fetch: nodeFetch });
const oursDefault = createDefaultClient({ baseUrl: base, token: TOKEN });

// The official SDK: trivial credential, endpoint on loopback, no retries. Its bearer
// policy refuses non-https URLs, so it is swapped for a policy that sets the same header
// (and allowInsecureConnection lets its node:http client talk plain http).
const credential = { getToken: async () => ({ token: TOKEN, expiresOnTimestamp: Date.now() + 3_600_000 }) };
const sdk = new SqlManagementClient(credential, SUBSCRIPTION, { endpoint: base, $host: base, retryOptions: { maxRetries: 0 }, allowInsecureConnection: true });
sdk.pipeline.removePolicy({ name: bearerTokenAuthenticationPolicyName });
sdk.pipeline.addPolicy({
  name: 'benchStaticBearer',
  sendRequest: (request, next) => {
    request.headers.set('Authorization', `Bearer ${TOKEN}`);
    return next(request);
  },
});

const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
const body = JSON.stringify(BODY);
const typedInit = { params: { path: { subscriptionId: SUBSCRIPTION } }, body: BODY };
const plainInit = {
  params: { path: { subscriptionId: SUBSCRIPTION }, query: { 'api-version': '2025-01-01' } },
  body: BODY,
  headers: { Authorization: `Bearer ${TOKEN}` },
};

/** @param {any} value */
const check = (value) => {
  if (value?.available !== true) throw new Error(`unexpected answer: ${JSON.stringify(value)}`);
};

/** @type {Record<string, () => Promise<void>>} */
const contenders = {
  'node:http keep-alive (floor)': () =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(check(JSON.parse(text))));
      });
      req.on('error', reject);
      req.end(body);
    }),
  'bare fetch': async () => check(await (await fetch(url, { method: 'POST', headers, body })).json()),
  'openapi-fetch (global fetch)': async () => check((await plain.POST(PATH, plainInit)).data),
  'this client (global fetch)': async () => check((await ours.POST(PATH, typedInit)).data),
  'openapi-fetch (createNodeHttpFetch)': async () => check((await plainNode.POST(PATH, plainInit)).data),
  'this client (createNodeHttpFetch)': async () => check((await oursNode.POST(PATH, typedInit)).data),
  'this client, default options on Node': async () => check((await oursDefault.POST(PATH, typedInit)).data),
  '@azure/arm-sql checkNameAvailability': async () => check(await sdk.servers.checkNameAvailability({ name: BODY.name, type: 'Microsoft.Sql/servers' })),
};

// --- measure --------------------------------------------------------------------------
const names = Object.keys(contenders);
/** @type {Record<string, number[]>} */
const samples = Object.fromEntries(names.map((n) => [n, []]));
/** @type {(a: string[]) => string[]} */
const shuffle = (a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
/** @param {string} name */
async function batch(name) {
  const call = contenders[name];
  const times = [];
  for (let i = 0; i < BATCH; i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1000); // µs
  }
  return median(times);
}

const started = Date.now();
for (const name of names) for (let i = 0; i < 6; i++) await batch(name); // warm-up: JIT, sockets, SDK pipeline
let rounds = 0;
for (; rounds < ROUNDS && Date.now() - started < BUDGET_MS; rounds++) {
  for (const name of shuffle([...names])) samples[name].push(await batch(name));
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);

const med = Object.fromEntries(names.map((n) => [n, median(samples[n])]));
/** Median over rounds of a / b, each ratio from the same round. */
/** @type {(a: string, b: string) => number} */
const ratio = (a, b) => median(samples[a].map((x, i) => x / samples[b][i]));
const PLAIN = 'openapi-fetch (global fetch)';
const SDK = '@azure/arm-sql checkNameAvailability';

console.log(`Node ${process.versions.node}, ${rounds} rounds x ${BATCH} calls per contender (after warm-up), ${seconds} s\n`);
console.log(`| Contender | median µs/call | vs ${PLAIN} | vs ${SDK} |`);
console.log('| --- | ---: | ---: | ---: |');
for (const n of names) console.log(`| ${n} | ${med[n].toFixed(0)} | ${ratio(n, PLAIN).toFixed(2)} | ${ratio(n, SDK).toFixed(2)} |`);

const layer = ratio('this client (global fetch)', PLAIN) - 1;
const layerNode = ratio('this client (createNodeHttpFetch)', 'openapi-fetch (createNodeHttpFetch)') - 1;
/** @type {(x: number) => string} */
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
console.log(`\nthin layer over plain openapi-fetch on the same transport: ${pct(layer)} (global fetch), ${pct(layerNode)} (createNodeHttpFetch); limit +10 %`);
const DEFAULT = 'this client, default options on Node';
const vsSdk = ratio(DEFAULT, SDK);
console.log(`this client with createNodeHttpFetch vs @azure/arm-sql: ${ratio('this client (createNodeHttpFetch)', SDK).toFixed(2)}x`);
console.log(`this client with default options on Node vs @azure/arm-sql: ${vsSdk.toFixed(2)}x; limit 1.00x`);

nodeFetch.destroy();
agent.destroy();
server.closeAllConnections();
server.close();
// A figure from one run on a shared machine moves by several points (see
// bench/README.md); the exit code reports this run's verdict, for people and scripts.
const failures = [
  ...(layer > 0.1 ? [`layer over openapi-fetch (global fetch) ${pct(layer)}`] : []),
  ...(layerNode > 0.1 ? [`layer over openapi-fetch (createNodeHttpFetch) ${pct(layerNode)}`] : []),
  ...(vsSdk > 1 ? [`default options on Node ${vsSdk.toFixed(2)}x the SDK`] : []),
];
if (failures.length) {
  console.log(`verdict: OVER the limits in this run: ${failures.join('; ')}`);
  process.exitCode = 1;
} else {
  console.log('verdict: within the limits in this run (layer +10 %, default on Node <= SDK)');
}
