// Where a workspace's build server listens, and the key of the code it runs.
//
// The address is a Unix socket, never a TCP port: only this user can reach it. It lives in
// a folder of this user's own under the temp folder (mode 0700, checked before use, never
// followed through a symlink), named by a hash of the workspace's real path: one server per
// workspace checkout, so two clones (or a test's copy) never share one.
//
// The code key is what decides whether a running server may build for a client: the Node
// binary and version, the installed packages (the lockfile and npm's record of what is in
// node_modules) and the pipeline's own source (every pipeline/**/*.mjs). A server whose key
// differs from the client's is told to stop and the client builds in its own process, so
// a pulled commit or a `npm ci` never runs under old code. The configs (redocly.yaml,
// .spectral.yaml, spectral/) are not in it: every build reads them afresh, as a new
// process would.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE_ROOMS } from '../../model/workspace-paths.mjs';
import { hashInputs } from '../cache.mjs';
import { filesUnder } from '../../lib/walk.mjs';

/**
 * Off when `PROVIDER_API_BUILD_SERVER=off` (or `0`, `false`, `no`) or the command has
 * `--no-server`; off too when `CI` is set (not empty, `false` or `0`), as Nx and Gradle keep
 * their daemons off under CI: a CI job's build is a fresh machine's, and a detached server
 * would outlive its step. `PROVIDER_API_BUILD_SERVER=on` (or `1`, `true`, `yes`) turns it on
 * even there. .ci/run and the test suite turn it off: each of their builds is a process of
 * its own, as on a fresh machine.
 * @param {string[]} [args] the command's options
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {boolean}
 */
export function serverWanted(args = [], env = process.env) {
  // Windows has no Unix sockets in a folder of the user's own (named pipes are another
  // design): every build there is a process of its own.
  if (process.platform === 'win32' || args.includes('--no-server')) return false;
  const setting = env.PROVIDER_API_BUILD_SERVER ?? '';
  if (/^(on|1|true|yes)$/i.test(setting)) return true;
  return !/^(off|0|false|no)$/i.test(setting) && /^(|false|0)$/i.test(env.CI ?? '');
}

/** This user's folder for build-server sockets under `base`, made (0700) if need be; throws when it is not safe to use. */
export function socketFolder(base = tmpdir()) {
  const uid = process.getuid?.() ?? 0;
  const folder = join(base, `provider-api-build-${uid}`);
  if (!existsSync(folder)) mkdirSync(folder, { mode: 0o700 });
  const stats = lstatSync(folder);
  if (!stats.isDirectory() || stats.isSymbolicLink()) throw new Error(`${folder} is not a folder`);
  if (stats.uid !== uid) throw new Error(`${folder} belongs to another user (uid ${stats.uid})`);
  if ((stats.mode & 0o077) !== 0) throw new Error(`${folder} can be read or entered by other users (mode ${(stats.mode & 0o777).toString(8)})`);
  return folder;
}

/** The longest path a Unix socket may have: 107 bytes on Linux, 103 on macOS and the BSDs. */
const SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/**
 * The socket of this workspace's server: in the temp folder, or in /tmp when the temp
 * folder's path is too long for a socket (macOS's per-user /var/folders/… one can be).
 */
export function socketPath(root) {
  const name = `${createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 16)}.sock`;
  const fits = (base) => Buffer.byteLength(join(base, `provider-api-build-${process.getuid?.() ?? 0}`, name)) <= SOCKET_PATH_BYTES;
  const base = [tmpdir(), '/tmp'].find((candidate) => fits(candidate) && (candidate === tmpdir() || existsSync(candidate)));
  if (!base) throw new Error(`the temp folder's path (${tmpdir()}) is too long for a Unix socket`);
  return join(socketFolder(base), name);
}

/** The key of the code a build runs (see above). */
export function codeKey(root) {
  const hash = createHash('sha256');
  // NODE_OPTIONS too: the server runs with the environment of the client that started it.
  hash.update(`${process.execPath}\0${process.version}\0${realpathSync(root)}\0${process.env.NODE_OPTIONS ?? ''}\0`);
  const inputs = [
    join(root, 'package-lock.json'),
    join(root, 'node_modules/.package-lock.json'),
    ...CODE_ROOMS.flatMap((room) => filesUnder(join(root, room), (file) => /\.m?js$/.test(file))),
  ];
  hashInputs(hash, root, inputs);
  return hash.digest('hex');
}
