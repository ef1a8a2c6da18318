#!/usr/bin/env node
// `npm run verify -- --server <url> [--token-env NAME] [--input name=value]...`: runs the
// Arazzo scenarios of specs/scenarios/ against any server and prints one line per step,
// PASS or what differed. The token is read from the environment variable NAME (never from
// an argument or a file) and never printed or written.
//
//   npm run verify -- --server http://127.0.0.1:4010
//   STAGING_TOKEN=... npm run verify -- --server https://staging.example --token-env STAGING_TOKEN \
//     --input vendor_id=<guid> --input eTag='W/"..."' --input takenName=<a taken server name>
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { redact, runScenarios, scenarioFiles } from './scenarios.mjs';

const usage = 'usage: npm run verify -- --server <url> [--token-env NAME] [--input name=value]... [--only <file part>]';
let options;
try {
  ({ values: options } = parseArgs({
    options: {
      server: { type: 'string' },
      'token-env': { type: 'string' },
      input: { type: 'string', multiple: true, default: [] },
      only: { type: 'string', multiple: true, default: [] },
    },
  }));
} catch (error) {
  console.error(`verify  ${error.message}\n${usage}`);
  process.exit(2);
}

/** @type {(message: string) => never} */
const fail = (message) => {
  console.error(`verify  ${message}\n${usage}`);
  process.exit(2);
};
/** @type {URL} */
let server;
try {
  server = new URL(options.server ?? '');
} catch {
  fail(`--server must be an http(s) URL (got ${JSON.stringify(options.server ?? '')})`);
}
if (!/^https?:$/.test(server.protocol) || server.username || server.password) fail('--server must be an http(s) URL without credentials');

let token;
if (options['token-env']) {
  const name = options['token-env'];
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) fail(`--token-env takes the name of an environment variable, not a value`);
  token = process.env[name];
  if (!token) fail(`the environment variable ${name} is empty or not set`);
}

/** @type {Record<string, string>} */
const inputs = {};
for (const pair of options.input) {
  const at = pair.indexOf('=');
  if (at < 1) fail(`--input ${JSON.stringify(pair)} is not name=value`);
  inputs[pair.slice(0, at)] = pair.slice(at + 1);
}
// The vendor scenario needs a vendor whose eTag it knows. The mock starts every vendor
// id it has not seen at the spec's example tag, so a fresh id per run works there; a real
// service needs --input vendor_id=... --input eTag=...
const freshVendor = !('vendor_id' in inputs);
if (freshVendor) inputs.vendor_id = randomUUID();

// The scenarios of the checkout this command belongs to.
const root = resolve(import.meta.dirname, '..');
const files = scenarioFiles(root).filter((file) => !options.only.length || options.only.some((part) => file.includes(part)));
if (!files.length) fail(`no scenario matches --only ${options.only.join(', ')}`);

console.log(
  `verify  ${server.origin}${server.pathname.replace(/\/$/, '')}  ${files.length} scenario files  token: ${token ? `from $${options['token-env']}` : 'none'}`,
);
if (freshVendor)
  console.log(
    `verify  vendor_id: a fresh GUID (${inputs.vendor_id}); the mock starts it at the spec's eTag. For a real service pass --input vendor_id=... --input eTag=...`,
  );

const started = performance.now();
let results;
try {
  results = await runScenarios({ root, server: server.href, token, inputs, files });
} catch (error) {
  console.error(`verify  FAIL  ${redact(error.message, token)}`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
let notRun = 0;
for (const workflow of results) {
  console.log(`\n${workflow.passed ? 'PASS' : 'FAIL'}  ${workflow.workflowId}  (${workflow.file})`);
  for (const step of workflow.steps) {
    if (!step.ran) {
      // Steps an `end` action made unneeded (the paging walk stops at the last page) are not listed.
      if (step.reason === 'ended') continue;
      notRun++;
      console.log(`  skip  ${step.stepId}  not run: an earlier step failed`);
      continue;
    }
    const where = `${step.method} ${pathOf(step.url)} -> ${step.status || 'no answer'}`;
    if (step.passed) {
      passed++;
      console.log(`  pass  ${step.stepId}  ${where}`);
    } else {
      failed++;
      console.log(`  FAIL  ${step.stepId}  ${where}`);
      for (const problem of step.problems) console.log(`          ${problem}`);
    }
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `\nverify  ${failed || notRun ? 'FAILED' : 'passed'}: ${passed} steps passed, ${failed} failed, ${notRun} not run, ${results.length} workflows, ${seconds} s`,
);
process.exitCode = failed || notRun ? 1 : 0;

/** @param {string} url */
function pathOf(url) {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
