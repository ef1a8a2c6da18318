#!/usr/bin/env node
// `npm run docs:serve [-- --port N] [--allow-host NAME]... [--no-mock]`: serves
// generated/docs/ on 127.0.0.1 and prints the URL; the mock (pipeline/mock, started on a
// free loopback port) answers the API paths on the same origin, for the pages' "Try it".
// Default port 8080; `--port 0` picks a free one. Only requests whose Host is a loopback
// name or address are answered, or a name given with --allow-host. Ctrl-C (SIGINT) or
// SIGTERM stops both.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveDocs } from '../site/server.mjs';
import { startMock } from '../mock/index.mjs';

/** @type {(message: string, code?: number) => never} */
const fail = (message, code = 2) => {
  console.error(`docs:serve  ${message}`);
  process.exit(code);
};

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p', default: process.env.PORT ?? '8080' },
      'allow-host': { type: 'string', multiple: true, default: [] },
      'no-mock': { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail(error.message);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not "${values.port}"`);
const allowHosts = values['allow-host'];
const badHost = allowHosts.find((name) => !/^(?:[A-Za-z0-9-]{1,63}\.?)+$|^\[[0-9A-Fa-f:.]+\]$/.test(name));
if (badHost !== undefined) fail(`--allow-host takes a host name without port, not "${badHost}"`);
// The workspace is the checkout this command belongs to.
const root = resolve(import.meta.dirname, '..');
const docs = join(root, 'generated', 'docs');
if (!existsSync(join(docs, 'index.html'))) fail('generated/docs/ has no pages yet: run `npm run docs` (or `npm run build`) first', 1);

// The mock starts beside the pages (Prism takes a few seconds to load): the pages are
// served at once, API requests wait for it. The pages reach it through this server, under
// the Host names this server answers.
const mock = values['no-mock']
  ? undefined
  : startMock({ root, port: 0, allowHosts }).then(
      (started) => {
        console.log(`docs:serve  the mock answers API paths on the same origin ("Try it")`);
        return started;
      },
      (error) => {
        console.error(`docs:serve  the mock did not start, so "Try it" cannot send: ${error.message.split('\n')[0]}`);
        return undefined;
      },
    );

let served;
try {
  served = await serveDocs(docs, port, { mock, allowHosts });
} catch (error) {
  console.error(`docs:serve  cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`);
  await (await mock)?.close();
  process.exit(1);
}
console.log(`docs:serve  ${served.url}  (Ctrl-C to stop)`);

const stop = (signal) => {
  console.log(`docs:serve  ${signal}, stopping`);
  const closed = new Promise((resolve) => served.server.close(resolve));
  // Open keep-alive connections would hold close() back; a browser tab keeps one open.
  served.server.closeAllConnections();
  Promise.all([closed, Promise.resolve(mock).then((started) => started?.close())]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
