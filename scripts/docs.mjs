#!/usr/bin/env node
// `npm run docs`: one self-contained Redoc page per bundled document, plus a landing page,
// in generated/docs/. Every page opens from disk or a local server with no network:
// Redoc is inlined, telemetry is off (redocly.yaml `telemetry: off`), and the one asset
// the CLI still loads from a CDN is replaced (lib/docs-offline.mjs).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { GENERATED, loadApis, rel } from './lib/apis.mjs';
import { collectGaps, forReaders } from './lib/docs-gaps.mjs';
import { landingPage } from './lib/docs-landing.mjs';
import { makeOffline } from './lib/docs-offline.mjs';
import { runTool, seconds, withoutBanners } from './lib/run.mjs';
import { operationsOf, versionsByApi } from './manifest.mjs';
import { changesBetweenVersions } from './changes/index.mjs';

export const DOCS = join(GENERATED, 'docs');

// Redoc options, given on the command line so redocly.yaml stays the one list of APIs and
// no second config can drift from it. Gaps are shown once, in bold, in the descriptions
// (lib/docs-gaps.mjs forReaders), so no extension is printed.
const REDOC_OPTIONS = [
  '--openapi.hideLoading=true',
  // Open the example bodies far enough that their values are readable without clicking.
  '--openapi.jsonSamplesExpandLevel=3',
];

// Redoc 3 routes an operation as #/<tag>/<operationId>, both lower-cased and slugged;
// the landing page links straight there (the browser test follows these links).
const slug = (text) => text.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
const redocAnchor = (operation) =>
  operation.tags?.[0] && operation.operationId ? `#/${slug(operation.tags[0])}/${slug(operation.operationId)}` : '';

/** Runs `task` over `items`, at most `limit` at a time (one build-docs process per core). */
async function inBatches(items, limit, task) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Renders one API's page: build-docs into a scratch folder, made offline, then written. */
async function renderPage(api, scratch) {
  const start = performance.now();
  if (!existsSync(api.bundle)) throw new Error(`${rel(api.bundle)} is missing: run \`npm run generate\` first`);
  const raw = join(scratch, basename(api.docs));
  const input = join(scratch, `${api.slug}.json`);
  await writeFile(input, JSON.stringify(forReaders(parse(await readFile(api.bundle, 'utf8')))));
  const cli = await runTool('@redocly/cli/bin/cli.js', [
    'build-docs', input, '--inlineBundle', ...REDOC_OPTIONS, '-o', raw,
  ]);
  if (cli.code !== 0) throw new Error(`build-docs ${api.name} failed:\n${withoutBanners(cli.stdout + cli.stderr)}`);
  const html = makeOffline(await readFile(raw, 'utf8'), rel(api.docs));
  await writeFile(api.docs, html);
  return { api, bytes: Buffer.byteLength(html), time: seconds(start) };
}

/** apiName -> the changes between its consecutive versions, for APIs with several. */
function versionChanges(apis) {
  const counts = new Map();
  for (const api of apis) counts.set(api.apiName, (counts.get(api.apiName) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1).map(([apiName]) => [apiName, changesBetweenVersions(apiName)]));
}

/** What the landing page says of one document, read from its bundle. */
async function pageInfo(api, defaults) {
  const document = parse(await readFile(api.bundle, 'utf8'));
  const operations = (await operationsOf(api)).map((operation) => {
    const node = document.paths[operation.path][operation.method.toLowerCase()];
    return { ...operation, summary: node.summary ?? '', anchor: redocAnchor(node) };
  });
  return {
    api,
    isDefault: defaults.get(api.apiName) === api.version,
    title: document.info.title,
    version: String(document.info.version),
    server: document.servers?.[0]?.url ?? '',
    href: basename(api.docs),
    operations,
    gaps: collectGaps(document),
  };
}

/**
 * Renders the pages of `only` (all APIs by default; `npm run dev` passes the changed
 * ones) and the landing page for all `apis`; returns what was written.
 */
export async function buildDocs(apis = loadApis(), { only = apis } = {}) {
  await mkdir(DOCS, { recursive: true });
  // The CLI writes the raw page outside generated/docs/: only a page that passed the
  // offline checks ever lands there.
  const scratch = await mkdtemp(join(tmpdir(), 'docs-'));
  try {
    const rendered = await inBatches(only, availableParallelism(), (api) => renderPage(api, scratch));
    const defaults = new Map(
      Object.values(versionsByApi(apis)).flatMap((family) => Object.entries(family).map(([apiName, entry]) => [apiName, entry.default])),
    );
    const infos = await Promise.all(apis.map((api) => pageInfo(api, defaults)));
    const index = join(DOCS, 'index.html');
    await writeFile(index, landingPage(infos, versionChanges(apis)));
    const pages = rendered.map((r) => ({ ...infos.find((info) => info.api === r.api), ...r }));
    return { index, pages };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = performance.now();
  try {
    const { pages } = await buildDocs();
    for (const page of pages) {
      const kib = `${Math.round(page.bytes / 1024)} KiB`;
      console.log(`docs  ${rel(page.api.docs)}  ${kib}, ${page.gaps.length} gaps  ${page.time}`);
    }
    console.log(`docs  generated/docs/index.html  ${pages.length} documents  ${seconds(start)}`);
  } catch (error) {
    console.error(`docs  FAILED: ${error.message}`);
    process.exit(1);
  }
}
