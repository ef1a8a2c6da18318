#!/usr/bin/env node
// Load on the mock: 2,000 requests, 50 in flight, over loopback, then stop.
//
//   node bench/load.mjs [--requests 2000] [--concurrency 50] [--copies 50]
//
// Four runs, each against a fresh server started as a child process (as `npm run mock`
// would be), after unmeasured warm-up requests (100, or two per document):
//   1. this mock (mock/cli.mjs), the five operations in turn; vendor updates are
//      stateful: each of the 50 clients updates a vendor of its own and sends the ETag
//      of its previous answer in If-Match (a 412 would mean a lost tag);
//   2. this mock, the name check only;
//   3. bare Prism CLI on generated/bundled/sql-2025-01-01.yaml, the name check only
//      (one document per process: the CLI's limit), for comparison with run 2;
//   4. this mock serving 250 documents (the five replicated 50 times under new names and
//      paths, bench/lib/mock-scale.mjs), the same mix as run 1 spread over all of them.
// Counts errors (no answer), 5xx and 412, and reports p50/p99 latency, throughput, the
// server's CPU time per request (user + system, from /proc: the figure that stays
// comparable on a shared, busy machine) and the time from process start to ready. Results are recorded by hand in bench/README.md.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { scaledWorkspace } from './lib/mock-scale.mjs';
import { ROOT } from './lib/workspace-copy.mjs';
import { percentile } from './lib/stats.mjs';
// The tag a vendor starts with in the mock.
import { INITIAL_ETAG } from '../mock/constants.mjs';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '50' }, copies: { type: 'string', default: '50' } },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const COPIES = Number(values.copies);
const WARM_UP = 100;
const REQUEST_TIMEOUT_MS = 10_000;

const TOKEN = 'Bearer load.test.token';
const SUB = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const COMPANY = '4c5f0e3a-9b1d-4a55-8f1e-2d2a3c4b5e6f';
const JSON_BODY = { authorization: TOKEN, 'content-type': 'application/json' };

// Copy k of a document serves its paths under new names (bench/lib/mock-scale.mjs).
const n = (k) => (k === 0 ? '' : String(k));
const vendorOf = (worker) => `f8a5738e-44e3-ea11-bb43-${String(worker).padStart(12, '0')}`;

/** @typedef {{ worker: number, eTags: Record<number, string> }} Session a worker's vendor and the tags it last got */
/**
 * @typedef {{ method: string, path: string, headers: Record<string, string>, body?: string, onAnswer?: (res: http.IncomingMessage) => unknown }} Request
 */
/**
 * One valid request per operation, in the wire form real clients send, for copy k.
 * @type {Record<string, (k: number, i: number, session: Session) => Request>}
 */
const OPERATIONS = {
  RoleEligibilityScheduleRequests_Get: (k) => ({
    method: 'GET',
    path: `/providers/Provider.Subscription/subscriptions/${SUB}/providers/Provider.Authorization${n(k)}/roleEligibilityScheduleRequests/64caffb6-55c0-4deb-a585-68e948ea1ad6?api-version=2020-10-01`,
    headers: { authorization: TOKEN },
  }),
  Servers_CheckNameAvailability: (k, i) => ({
    method: 'POST',
    path: `/subscriptions/${SUB}/providers/Provider.Sql${n(k)}/checkNameAvailability?api-version=2025-01-01`,
    headers: JSON_BODY,
    body: JSON.stringify({ name: ['sales-db-west-02', 'sales-db-west-01', 'Sales_DB'][i % 3], type: 'Provider.Sql/servers' }),
  }),
  Location_ListCachedImages: (k) => ({
    method: 'GET',
    path: `/subscriptions/${SUB}/providers/Provider.ContainerInstance${n(k)}/locations/westeurope/cachedImages?api-version=2025-09-01`,
    headers: { authorization: TOKEN },
  }),
  // Stateful: the worker's own vendor, with the tag of its last answer from that copy.
  updateVendor: (k, i, session) => ({
    method: 'PATCH',
    path: `/api/v2.0/companies(${COMPANY})/vendors${n(k)}(${vendorOf(session.worker)})`,
    headers: { ...JSON_BODY, 'if-match': session.eTags[k] ?? INITIAL_ETAG },
    body: JSON.stringify({ displayName: `Fabrikam ${i}`, blocked: 'Payment' }),
    onAnswer: (res) => {
      if (res.headers.etag) session.eTags[k] = res.headers.etag;
    },
  }),
  createShipmentMethod: (k) => ({
    method: 'POST',
    path: `/api/v1.0/companies(${COMPANY})/shipmentMethods${n(k)}`,
    headers: JSON_BODY,
    body: JSON.stringify({ code: 'EXW', displayName: 'Ex Warehouse' }),
  }),
};
const ALL = Object.values(OPERATIONS);

/**
 * Starts a server as a child process; resolves { port, readyMs, stop } once it answers.
 * @param {string[]} args
 * @param {RegExp} readyLine its line that says it is ready, the port in its first group
 * @param {string} [cwd]
 * @param {RegExp} [preparedLine]
 */
async function startServer(args, readyLine, cwd = ROOT, preparedLine) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  /** @type {number} */
  const port = await new Promise((resolve, reject) => {
    /** @param {string} why */
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}:\n${output}`));
    };
    const timer = setTimeout(() => fail('not ready after 30 s'), 30_000);
    /** @param {string} chunk */
    const onData = (chunk) => {
      output += chunk;
      const match = readyLine.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => fail(`exited with ${code}`));
  });
  child.removeAllListeners('exit');
  const readyMs = performance.now() - started;
  // The mock builds each document's Prism model in the background after it is ready:
  // measure after that, so the run does not share the CPU with it.
  if (preparedLine) {
    for (let waited = 0; !preparedLine.test(output) && waited < 60_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  }
  const stop = () => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'));
  return { port, readyMs, stop, pid: child.pid, output: () => output };
}

/** @type {() => Promise<number>} */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

/** @typedef {{ status?: number, error?: string, ms: number }} Result */
/**
 * @param {http.Agent} agent
 * @param {number} port
 * @param {Request} request
 * @returns {Promise<Result>}
 */
function request(agent, port, { method, path, headers, body, onAnswer }) {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      onAnswer?.(res);
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - start }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ error: error.message, ms: performance.now() - start }));
    req.end(body);
  });
}

/**
 * `total` requests, `concurrency` workers; request i is made by make(i, session of its worker).
 * @param {number} port
 * @param {(i: number, session: Session) => Request} make
 * @param {number} total
 * @param {number} concurrency
 * @param {Session[]} sessions one per worker (at least `concurrency`)
 */
async function drive(port, make, total, concurrency, sessions) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  /** @type {Result[]} */
  const results = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const session = sessions[worker];
      while (next < total) {
        const i = next++;
        results.push(await request(agent, port, make(i, session)));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { results, seconds };
}

// CPU time (user + system) of a process so far, in ms, from /proc (Linux; clock ticks of 10 ms).
async function cpuMs(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * @param {string} name
 * @param {{ results: Result[], seconds: number }} measured
 * @param {number} readyMs
 * @param {number} cpu
 */
function summarise(name, { results, seconds }, readyMs, cpu) {
  const latencies = results.filter((r) => !r.error).map((r) => r.ms);
  /** @type {Record<number, number>} */
  const statuses = {};
  for (const { error, status = 0 } of results) if (!error) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    server: name,
    requests: results.length,
    errors: results.filter((r) => r.error).length,
    '5xx': results.filter((r) => Number(r.status) >= 500).length,
    'lost eTag (412)': results.filter((r) => r.status === 412).length,
    statuses: Object.entries(statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' '),
    p50: latencies.length ? percentile(latencies, 50).toFixed(1) : '-',
    p99: latencies.length ? percentile(latencies, 99).toFixed(1) : '-',
    'req/s': Math.round(results.length / seconds),
    'CPU ms/req': (cpu / results.length).toFixed(2),
    ready: `${(readyMs / 1000).toFixed(2)} s`,
  };
}

/**
 * @param {string} name
 * @param {Awaited<ReturnType<typeof startServer>>} server
 * @param {(i: number, session: Session) => Request} make
 */
async function run(name, server, make, documents = 5) {
  // One per worker, kept from the warm-up to the measured run (a vendor's tag carries over).
  /** @type {Session[]} */
  const sessions = Array.from({ length: CONCURRENCY }, (_, worker) => ({ worker, eTags: {} }));
  try {
    // Every document is reached twice before measuring: Prism compiles a document's
    // validators on its first requests, a one-off cost the steady state does not pay.
    const warmUp = Math.max(WARM_UP, 2 * documents);
    await drive(server.port, make, warmUp, Math.min(CONCURRENCY, warmUp), sessions);
    const cpuBefore = await cpuMs(server.pid);
    const measured = await drive(server.port, make, REQUESTS, CONCURRENCY, sessions);
    return summarise(name, measured, server.readyMs, (await cpuMs(server.pid)) - cpuBefore);
  } finally {
    await server.stop();
  }
}

// Never hang: the whole bench is bounded.
setTimeout(() => {
  console.error('load  FAIL  still running after 300 s');
  process.exit(1);
}, 300_000).unref();

const MOCK_READY = /^mock {2}http:\/\/127\.0\.0\.1:(\d+) /m;
const MOCK_PREPARED = /^mock {2}prepared /m;
const PRISM_READY = /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/;
/** @type {(copies: number) => (i: number, session: Session) => Request} */
const fiveOperations = (copies) => (i, session) => ALL[i % ALL.length](Math.floor(i / ALL.length) % copies, i, session);
/** @type {(i: number, session: Session) => Request} */
const nameCheck = (i, session) => OPERATIONS.Servers_CheckNameAvailability(0, i, session);

const scaled = await scaledWorkspace(COPIES);
const rows = [];
try {
  rows.push(
    await run('mock, 5 documents, 5 operations', await startServer(['mock/cli.mjs', '--port', '0'], MOCK_READY, ROOT, MOCK_PREPARED), fiveOperations(1)),
  );
  rows.push(await run('mock, 5 documents, name check only', await startServer(['mock/cli.mjs', '--port', '0'], MOCK_READY, ROOT, MOCK_PREPARED), nameCheck));
  const prismArgs = [
    join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'),
    'mock',
    '-p',
    String(await freePort()),
    '-h',
    '127.0.0.1',
    'generated/bundled/sql-2025-01-01.yaml',
  ];
  rows.push(await run('bare Prism CLI, 1 document, name check only', await startServer(prismArgs, PRISM_READY), nameCheck));
  rows.push(
    await run(
      `mock, ${scaled.documents} documents, 5 operations`,
      await startServer(['mock/cli.mjs', '--port', '0'], MOCK_READY, scaled.dir, MOCK_PREPARED),
      fiveOperations(COPIES),
      scaled.documents,
    ),
  );
} finally {
  await scaled.remove();
}

const columns = Object.keys(rows[0]);
console.log(`load  ${REQUESTS} requests, ${CONCURRENCY} concurrent, node ${process.version}, latency in ms\n`);
console.log(`| ${columns.join(' | ')} |`);
console.log(`| ${columns.map(() => '---').join(' | ')} |`);
for (const row of rows) console.log(`| ${columns.map((c) => row[c]).join(' | ')} |`);
const [five, , , many] = rows;
console.log(
  `\nat ${scaled.documents} documents: throughput ${Math.round((100 * many['req/s']) / five['req/s'])} % of 5 documents; CPU per request ${Math.round((100 * Number(many['CPU ms/req'])) / Number(five['CPU ms/req']))} % of 5 documents`,
);
// The mock must pass; bare Prism is a reference, its errors are reported, not failed on.
const failed = rows.filter((r) => r.server.startsWith('mock') && (r.errors > 0 || r['5xx'] > 0 || r['lost eTag (412)'] > 0));
if (failed.length) {
  console.error(`\nload  FAIL  errors, 5xx or lost eTags in: ${failed.map((r) => r.server).join(', ')}`);
  process.exitCode = 1;
}
