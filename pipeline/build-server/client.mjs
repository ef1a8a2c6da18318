// `npm run build`'s side of the build server (server.mjs): send the build to this
// workspace's server, starting one first when none answers; when no server can take it,
// say why and let the caller build in its own process.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { processAlive } from '../../lib/process-alive.mjs';
import { codeKey, socketPath } from './address.mjs';

/** The log of the server of the workspace at `root` (what it prints outside builds). */
const logOf = (/** @type {string} */ root) => join(root, '.cache/provider-api/build-server.log');
/** How long a new server may take to listen before the client builds in its own process. */
const START_MS = 5_000;

/** Opens a connection to this workspace's server, or resolves undefined (none, or not answering in time). */
/** @param {string} root */
function connect(root) {
  let path;
  try {
    path = socketPath(root);
  } catch {
    return Promise.resolve(undefined); // an unsafe socket folder: no server is used (startServer says why)
  }
  if (!existsSync(path)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const settle = (/** @type {import('node:net').Socket | undefined} */ answer) => {
      clearTimeout(timer);
      if (!answer) socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(settle, 2_000);
    socket.once('connect', () => settle(socket));
    socket.once('error', () => settle(undefined));
  });
}

/** Sends `request`; calls `onMessage` per line of the answer; resolves when the server closes the connection. */
function exchange(socket, request, onMessage) {
  return /** @type {Promise<void>} */ (
    new Promise((resolve) => {
      let buffered = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          try {
            onMessage(JSON.parse(line));
          } catch {}
        }
      });
      socket.once('error', () => resolve());
      socket.once('close', () => resolve());
      socket.write(`${JSON.stringify(request)}\n`);
    })
  );
}

/**
 * Sends one build to a connected server: its exit code, `{ stale: pid }`, or undefined (it stopped before it answered).
 * @returns {Promise<number | { stale: number, busy: boolean } | undefined>}
 */
async function sendBuild(socket, args, /** @type {string} */ root) {
  /** @type {number | undefined} */
  let code;
  /** @type {{ stale: number, busy: boolean } | undefined} */
  let stale;
  await exchange(socket, { type: 'build', key: codeKey(root), args }, (message) => {
    if (typeof message.out === 'string') process.stdout.write(message.out);
    if (typeof message.err === 'string') process.stderr.write(message.err);
    if (typeof message.stale === 'string') stale = { stale: Number(message.pid), busy: message.busy === true };
    if (Number.isInteger(message.exit)) code = message.exit;
  });
  return stale ?? code;
}

/** Waits (at most `ms`) for a server that runs other code to finish the builds it has queued and end. */
async function ended(pid, ms = 120_000) {
  for (let waited = 0; pid > 0 && processAlive(pid) && waited < ms; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return !(pid > 0 && processAlive(pid));
}

/**
 * Runs the build on the server of the workspace at `root`, starting one when none answers (or the one
 * that answers runs other code: it stops): the build's exit code, or undefined when no
 * server could take it (none could be started, or it stopped before it finished; the
 * pipeline's outputs are whole either way), and the caller builds in its own process.
 */
export async function buildOnServer(args, root) {
  let socket = await connect(root);
  if (socket && !existsSync(logOf(root))) {
    // The build cache folder was removed (`rm -rf .cache`, `git clean -fdx`): a clean means
    // a build from nothing, as on a fresh clone, the tools' loading included. The running
    // server (whose log went with the folder) stops once its queue is done; a new one builds.
    let stopped;
    let busy = false;
    await exchange(socket, { type: 'stop' }, (message) => {
      stopped = Number(message.stopped);
      busy = message.busy === true;
    });
    console.log('build  the build cache was cleaned: the build server stops, and a new one builds from nothing');
    if (busy && !(await ended(stopped))) {
      console.error(`build  the old build server (pid ${stopped}) is still building; building in this process`);
      return undefined;
    }
    socket = undefined;
  }
  if (socket) {
    const answer = await sendBuild(socket, args, root);
    if (typeof answer === 'number') return answer;
    if (answer === undefined) {
      console.error('build  the build server stopped before it finished; building in this process');
      return undefined;
    }
    console.log('build  the build server ran other code (a pull, npm ci, another Node): starting a new one');
    // Two builds never run at once in one workspace: when the old server has builds queued,
    // it finishes them first (an idle one has given up its socket already).
    if (answer.busy && !(await ended(answer.stale))) {
      console.error(`build  the old build server (pid ${answer.stale}) is still building; building in this process`);
      return undefined;
    }
  }
  socket = await startServer(root);
  if (!socket) return undefined;
  const answer = await sendBuild(socket, args, root);
  if (typeof answer !== 'number') {
    console.error('build  the new build server did not finish the build; building in this process');
    return undefined;
  }
  return answer;
}

/** Asks the server of the workspace at `root` to stop; true when one was running. */
export async function stopServer(root) {
  const socket = await connect(root);
  if (!socket) return false;
  let stopped = false;
  await exchange(socket, { type: 'stop' }, (message) => (stopped ||= Number.isInteger(message.stopped)));
  return stopped;
}

/**
 * Starts this workspace's server, detached (it outlives this command), and resolves to a
 * connection to it once it listens (within a few seconds), or undefined, saying why.
 */
async function startServer(/** @type {string} */ root) {
  const log = logOf(root);
  try {
    socketPath(root); // the socket folder is this user's only, or no server is started
    mkdirSync(join(root, '.cache/provider-api'), { recursive: true });
    const out = openSync(log, 'a'); // two servers starting at once both keep their lines
    const child = spawn(process.execPath, [join(root, 'pipeline/build-server/server.mjs')], { cwd: root, detached: true, stdio: ['ignore', out, out] });
    child.unref();
    closeSync(out);
  } catch (error) {
    console.log(`build  no build server started (${error.message}); building in this process`);
    return undefined;
  }
  for (let waited = 0; waited < START_MS; waited += 25) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const socket = await connect(root);
    if (socket) {
      console.log(
        'build  started a build server for this workspace: later builds skip loading the tools (it stops after 15 min idle, or `npm run build -- --stop-server`; off: PROVIDER_API_BUILD_SERVER=off)',
      );
      return socket;
    }
  }
  console.log(`build  the build server did not start within ${START_MS / 1000} s (${log}); building in this process`);
  return undefined;
}
