#!/usr/bin/env node
// `npm run docs:serve [-- --port N]`: serves generated/docs/ on 127.0.0.1 and prints the
// URL. Default port 8080; `--port 0` picks a free one. Ctrl-C (SIGINT) or SIGTERM stops it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DOCS } from './docs.mjs';
import { serveDocs } from './lib/docs-server.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', short: 'p', default: process.env.PORT ?? '8080' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`docs:serve  --port must be a number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}
if (!existsSync(join(DOCS, 'index.html'))) {
  console.error('docs:serve  generated/docs/ has no pages yet: run `npm run docs` (or `npm run build`) first');
  process.exit(1);
}

let served;
try {
  served = await serveDocs(DOCS, port);
} catch (error) {
  console.error(`docs:serve  cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`);
  process.exit(1);
}
console.log(`docs:serve  ${served.url}  (Ctrl-C to stop)`);

const stop = (signal) => {
  console.log(`docs:serve  ${signal}, stopping`);
  served.server.close(() => process.exit(0));
  // Open keep-alive connections would hold close() back; a browser tab keeps one open.
  served.server.closeAllConnections();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
