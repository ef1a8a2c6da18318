#!/usr/bin/env node
// `npm run build`: lint -> generate (bundles, types, manifest) -> compile the clients
// (dist/) -> render the docs, in one warm process (runner.mjs: the steps and their order,
// which `npm run dev` runs too). Stops at the first failing step. Sent to this workspace's
// build server (build-server/) when one can take it.
import { resolve } from 'node:path';
import { isMain } from '../lib/findings.mjs';
import { buildHere, STEP_FLAGS } from './runner.mjs';

/** With --no-server and --stop-server, every option the build knows. */
const FLAGS = [...STEP_FLAGS, '--no-server', '--stop-server'];

/**
 * The command: the build on this workspace's build server (build-server/: started for the
 * first build, warm for the next ones), or in this process when no server can take it.
 * `--no-server` (or PROVIDER_API_BUILD_SERVER=off) builds here and starts none;
 * `--stop-server` stops it.
 */
export async function main(args = process.argv.slice(2)) {
  const root = resolve(import.meta.dirname, '..'); // the checkout this command belongs to
  const { buildOnServer, stopServer } = await import('./build-server/client.mjs');
  const { serverWanted } = await import('./build-server/address.mjs');
  const unknown = args.filter((a) => !FLAGS.includes(a));
  if (unknown.length) {
    console.error(`build  unknown option ${unknown.join(' ')} (known: ${FLAGS.join(', ')})`);
    return 2;
  }
  if (args.includes('--stop-server')) {
    console.log((await stopServer(root)) ? 'build  the build server stopped' : 'build  no build server runs for this workspace');
    return 0;
  }
  const wanted = serverWanted(args);
  const local = args.filter((a) => a !== '--no-server');
  if (wanted) {
    const code = await buildOnServer(local, root);
    if (code !== undefined) return code;
  }
  return buildHere(root, local);
}

if (isMain(import.meta.url)) process.exitCode = await main();
