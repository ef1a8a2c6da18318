#!/usr/bin/env node
// The warm build server of one workspace (issue 34): `npm run build` after an edit pays
// for the edit, not for loading the tools. A build in a new process spends about 4 s of
// CPU before it does anything the edit needs (Node's module loading, Redocly's config,
// Spectral's thread and ruleset, openapi-typescript with TypeScript, the docs renderer);
// this process loads them once and then runs each build a client sends it, the same
// `buildHere()` a process would run (pipeline/runner.mjs), with its output sent back line by
// line and its exit code. The idea is Gradle's daemon and TypeScript's tsserver: the work
// is the same, only the start-up is paid once.
//
// Started by `npm run build` (pipeline/build-server/client.mjs) when none runs, detached,
// and sent that first build at once: it loads the tools by building, as a new process
// would, and keeps them for the next build. It listens on a Unix socket of this user's only
// (address.mjs), serves one build at a time (others queue), and stops:
//   - after PROVIDER_API_BUILD_SERVER_IDLE_MS without a request (default 15 minutes);
//   - when a client brings another code key (a pull, `npm ci`): it says so and that client
//     builds in its own process;
//   - when its workspace is gone (a removed clone or copy), its build cache folder was
//     cleaned (a build after `rm -rf .cache` starts from nothing, tools included), or
//     another server took its socket;
//   - on `npm run build -- --stop-server`, SIGTERM or SIGINT.
// What it prints outside of builds goes to .cache/provider-api/build-server.log.
// A client that goes away mid-build (Ctrl-C) does not stop the build: it finishes, and
// every output it writes is whole (the pipeline writes by rename, lib/files.mjs).
import { existsSync, statSync, unlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { format } from 'node:util';
import { forgetWorkspaceKey } from '../cache.mjs';
import { codeKey, socketPath } from './address.mjs';

const idleSetting = Number(process.env.PROVIDER_API_BUILD_SERVER_IDLE_MS);
const IDLE_MS = Number.isFinite(idleSetting) && idleSetting > 0 ? idleSetting : 15 * 60_000;
// The workspace it serves: the checkout this server's code belongs to.
const root = resolve(import.meta.dirname, '../..');
const KEY = codeKey(root);
const SOCKET = socketPath(root);
// To the log file, even while a build's console is sent to its client.
const write = process.stdout.write.bind(process.stdout);
const log = (...values) => write(`${new Date().toISOString()} ${format(...values)}\n`);

/** True when a server answers at `path` (a socket file nobody listens on is stale). */
const answering = (path) =>
  new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });

if (existsSync(SOCKET)) {
  if (await answering(SOCKET)) process.exit(0); // another server already serves this workspace
  try {
    unlinkSync(SOCKET);
  } catch {} // another server starting at the same moment removed it first
}

const { buildHere, STEP_FLAGS } = await import('../runner.mjs');
/** The options a client may pass on (pipeline/runner.mjs): anything else is refused. */
const FLAGS = new Set(STEP_FLAGS);
let queue = Promise.resolve();
let active = 0;
let builds = 0;
let stopping = false;
let idleTimer;
const idle = () => {
  clearTimeout(idleTimer);
  if (active === 0) idleTimer = setTimeout(() => stop('idle'), IDLE_MS);
};

const server = createServer({ allowHalfOpen: false }, (socket) => {
  /** @type {string | undefined} what the client sent until its request's line ends (undefined after) */
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('error', () => {}); // a client gone mid-build: the build goes on, its lines are dropped
  // A client sends its request at once: a connection that says nothing is dropped.
  socket.setTimeout(10_000, () => buffered !== undefined && socket.destroy());
  socket.on('data', (chunk) => {
    if (buffered === undefined) return;
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end === -1) {
      if (buffered.length > 64 * 1024) socket.destroy(); // not a client of ours
      return;
    }
    const line = buffered.slice(0, end);
    buffered = undefined;
    socket.setTimeout(0);
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      return socket.destroy();
    }
    handle(socket, request);
  });
});

const send = (socket, message) => {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
};

function handle(socket, request) {
  if (request?.type === 'stop') {
    send(socket, { stopped: process.pid, busy: active > 0 });
    socket.end();
    return stop('asked to');
  }
  if (request?.type !== 'build' || !Array.isArray(request.args)) return socket.destroy();
  if (request.key !== KEY) {
    send(socket, { stale: 'this build server runs other code than the client (a pull, npm ci, another Node): it stops', pid: process.pid, busy: active > 0 });
    socket.end();
    return stop('stale code');
  }
  const refused = request.args.filter((arg) => typeof arg !== 'string' || !FLAGS.has(arg));
  if (refused.length) {
    send(socket, { err: `build  unknown option ${refused.map(String).join(' ')} (known: ${[...FLAGS].join(', ')})\n` });
    send(socket, { exit: 2 });
    return socket.end();
  }
  if (stopping) return socket.destroy(); // the client builds in its own process
  active++;
  clearTimeout(idleTimer);
  queue = queue.then(async () => {
    if (socket.destroyed) {
      active--; // its client went away while it waited
      return idle();
    }
    send(socket, { out: `build  on this workspace's build server (pid ${process.pid}, build ${++builds})\n` });
    // Every build reads the configs afresh, as a new process does: the workspace key
    // (redocly.yaml, .spectral.yaml, spectral/ and the tools) is computed again.
    forgetWorkspaceKey(root);
    const code = await captured(socket, () => buildHere(root, request.args));
    send(socket, { exit: code });
    socket.end();
    active--;
    idle();
  });
}

/** Runs `body` with everything it prints sent to the client as `out`/`err` lines. */
async function captured(socket, body) {
  const methods = { log: 'out', info: 'out', debug: 'out', error: 'err', warn: 'err' };
  const saved = { console: Object.fromEntries(Object.keys(methods).map((m) => [m, console[m]])), out: process.stdout.write, err: process.stderr.write };
  for (const [method, stream] of Object.entries(methods)) console[method] = (...values) => send(socket, { [stream]: `${format(...values)}\n` });
  const writer = (stream) => {
    const decoder = new StringDecoder('utf8'); // a character split between two chunks stays whole
    return (chunk, ...rest) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk));
      if (text) send(socket, { [stream]: text });
      rest.find((r) => typeof r === 'function')?.();
      return true;
    };
  };
  process.stdout.write = writer('out');
  process.stderr.write = writer('err');
  try {
    return (await body()) ?? 0;
  } catch (error) {
    send(socket, { err: `${error?.stack ?? String(error)}\n` });
    return 1;
  } finally {
    Object.assign(console, saved.console);
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
}

let socketIno;
function stop(why) {
  if (stopping) return;
  stopping = true;
  log(`stopping (${why})`);
  server.close();
  // The socket goes at once; a client that was told this server runs other code waits for
  // this process to end (its queue to finish) before it starts a new one, so two builds
  // never run at once in one workspace.
  try {
    if (socketIno !== undefined && statSync(SOCKET).ino === socketIno) unlinkSync(SOCKET);
  } catch {}
  queue.then(() => process.exit(0));
}

server.on('error', (error) => {
  // Another server won the race for this socket: it serves the workspace.
  log(`not serving: ${error.message}`);
  process.exit(0);
});
server.listen(SOCKET, () => {
  socketIno = statSync(SOCKET).ino;
  log(`serving ${root} at ${SOCKET}`);
  idle();
});
// A first signal lets the running build finish; a second one ends the process at once.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (stopping ? process.exit(1) : stop(signal)));
// A bug that would end a build's own process (an uncaught error, an unhandled rejection)
// ends this one too, logged: its clients then build in their own processes, where it
// shows as it would have.
for (const event of ['uncaughtException', 'unhandledRejection']) {
  process.on(event, (error) => {
    log(`stopped by ${event}: ${error?.stack ?? error}`);
    process.exit(1);
  });
}
// Gone when the workspace is (a removed clone or test copy) or another server took the socket.
// Checked every second (three stat calls): a removed checkout frees its server's memory
// soon after, and its test waits no longer than that.
setInterval(() => {
  if (!existsSync(join(root, 'package.json'))) return stop('the workspace is gone');
  // Its log goes with the build cache folder: a clean (`rm -rf .cache`) ends it too.
  if (!existsSync(join(root, '.cache/provider-api/build-server.log'))) return stop('the build cache was cleaned');
  try {
    if (statSync(SOCKET).ino !== socketIno) stop('another server took the socket');
  } catch {
    stop('the socket is gone');
  }
}, 1_000).unref();
