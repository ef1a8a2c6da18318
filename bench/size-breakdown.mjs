#!/usr/bin/env node
// What each part of the issue #14 hardening costs in the client bundle (min+gzip),
// measured by taking it out: the same esbuild bundle as bench/size.mjs, once whole and
// once per row with one source file swapped for its version before the hardening
// (commit a6a499e, read with `git show`) or for a no-op stub. A row's figure is what
// the whole bundle loses without it; rows overlap a little (gzip shares strings), so
// they do not add up exactly to the total.
//
//   node bench/size-breakdown.mjs
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBundle } from './lib/app-bundle.mjs';
import { readFileSync } from 'node:fs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BEFORE = 'a6a499e';
const before = (file) => execFileSync('git', ['show', `${BEFORE}:${file}`], { cwd: ROOT, encoding: 'utf8' });
const now = (file) => readFileSync(join(ROOT, file), 'utf8');

const ENTRY = `
  import { createResourceManagerClient, createBusinessCentralClient } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
  export const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't' });
  export const bc = createBusinessCentralClient({ baseUrl: 'https://api.example.com', token: 't' });
`;

/** Bundles with some files replaced: { 'src/x.ts': source }. */
async function gzipSize(swaps = {}) {
  const { gzip } = await appBundle({
    root: ROOT,
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts' },
    plugins: [
      {
        name: 'swap',
        setup(b) {
          b.onLoad({ filter: /\/src\/[^/]+\.ts$/ }, (args) => {
            const file = args.path.slice(ROOT.length + 1);
            return file in swaps ? { contents: swaps[file], loader: 'ts' } : undefined;
          });
        },
      },
    ],
  });
  return gzip;
}

const results = now('src/results.ts');
const cut = (source, from, to, replacement) => {
  const i = source.indexOf(from);
  const j = source.indexOf(to, i);
  if (i < 0 || j < 0) throw new Error(`size-breakdown: cannot find ${from}`);
  return source.slice(0, i) + replacement + source.slice(j);
};

const rows = [
  [
    'body read under maxBodyBytes (src/body.ts)',
    {
      'src/body.ts':
        'export const DEFAULT_MAX_BODY_BYTES = 1; export const BODY_LIMIT = Symbol(); export const tooLarge = () => {}; export const limitBody = (r: Response) => r;',
    },
  ],
  ['deep token scrub of causes (src/errors.ts)', { 'src/errors.ts': before('src/errors.ts') }],
  ['paging: every URL, page shape, maxPages, headers (src/paging.ts)', { 'src/paging.ts': before('src/paging.ts') }],
  [
    'naming a local fault (diagnose() in src/results.ts)',
    {
      'src/results.ts': cut(
        results,
        'export function diagnose(',
        '\n}\n',
        "export function diagnose(_i: any, _h: any): [string, string] { return ['request', ''];",
      ),
    },
  ],
  [
    'long-running operations: beginAndWait, ARM polling rules (src/long-running.ts)',
    { 'src/long-running.ts': 'export const pollUntilDone = (..._a: unknown[]) => undefined;' },
  ],
  ['lone surrogate in a path value (src/path-serializer.ts)', { 'src/path-serializer.ts': before('src/path-serializer.ts') }],
  [
    'all of the core (src/core.ts and the files split from it: redirects, getToken race, timers, local faults, pathSerializer, body hook)',
    { 'src/core.ts': `${before('src/core.ts')}\nexport const SENT_URL = Symbol();`, 'src/body.ts': 'export {}' },
  ],
];

const whole = await gzipSize();
const all = await gzipSize(
  Object.fromEntries(
    ['src/core.ts', 'src/errors.ts', 'src/paging.ts', 'src/path-serializer.ts', 'src/resource-manager.ts', 'src/index.ts'].map((f) => [f, before(f)]),
  ),
);
console.log(`clients now: ${whole} B; before issue #14 (${BEFORE}): ${all} B; hardening: +${whole - all} B\n`);
console.log('| Without | B gzip | saves |');
console.log('| --- | ---: | ---: |');
for (const [name, swaps] of rows) {
  const size = await gzipSize(swaps);
  console.log(`| ${name} | ${size} | ${whole - size} |`);
}
