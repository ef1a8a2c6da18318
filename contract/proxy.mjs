#!/usr/bin/env node
// `npm run proxy -- --upstream <url> [--port <n>] [--fail-on-violation] [--preserve-host]`: a validating
// proxy on 127.0.0.1. Every request goes to the upstream as sent; the request and the
// upstream's answer are checked against the documents of redocly.yaml (the version the
// request names: api-version, or the /api/vX.Y prefix), one line per exchange. At exit
// (Ctrl-C, SIGTERM) it prints a summary per operation. Tokens go to the upstream only and
// are never logged. --preserve-host passes the client's Host on (for an upstream that
// builds links from it, like the mock, so its nextLinks lead back through the proxy; the
// TLS server name stays the upstream's). It answers only a loopback Host (DNS rebinding);
// --allow-host <name> (repeatable) adds one. Query values of credential-like parameters
// (token, key, sig, code, secret, password, ...) are logged as ***.
//
//   npm run proxy -- --upstream https://staging.example --port 4020
//   curl -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:4020/subscriptions/.../cachedImages?api-version=2025-09-01"
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatExchange, formatSummary, startProxy } from './proxy-server.mjs';
import { stopOnSignals } from '../lib/run.mjs';

const usage = 'usage: npm run proxy -- --upstream <url> [--port <n>] [--fail-on-violation] [--preserve-host] [--allow-host <name>]';
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      upstream: { type: 'string' },
      port: { type: 'string', default: '4020' },
      'fail-on-violation': { type: 'boolean', default: false },
      'preserve-host': { type: 'boolean', default: false },
      'allow-host': { type: 'string', multiple: true, default: [] },
    },
  }));
} catch (error) {
  console.error(`proxy  ${error.message}\n${usage}`);
  process.exit(2);
}
const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`proxy  --port ${options.port} is not a port number\n${usage}`);
  process.exit(2);
}
let upstream;
try {
  upstream = new URL(options.upstream ?? '');
  if (!/^https?:$/.test(upstream.protocol) || upstream.username || upstream.password) throw new Error();
} catch {
  console.error(`proxy  --upstream must be an http(s) URL without credentials (got ${JSON.stringify(options.upstream ?? '')})\n${usage}`);
  process.exit(2);
}

let proxy;
try {
  proxy = await startProxy({
    root: resolve(import.meta.dirname, '..'), // the documents of the checkout this command belongs to
    upstream: upstream.href,
    port,
    failOnViolation: options['fail-on-violation'],
    preserveHost: options['preserve-host'],
    allowHosts: options['allow-host'],
    report: (e) => console.log(formatExchange(e)),
  });
} catch (error) {
  console.error(`proxy  FAIL  ${error.message}`);
  process.exit(1);
}

stopOnSignals(async () => {
  await proxy.close();
  for (const line of formatSummary(proxy.summary())) console.log(line);
  console.log('proxy  stopped');
});
console.log(
  `proxy  ${proxy.url} -> ${upstream.origin}${upstream.pathname.replace(/\/$/, '')}  ${options['fail-on-violation'] ? 'violating answers become 502' : 'reporting only'}  ready`,
);
