#!/usr/bin/env node
// `npm run docs`: one Redoc page per bundled document, plus a landing page, in
// generated/docs/. Every page opens from disk or a local server with no network: the
// pages share one copy of the Redoc runtime that @redocly/cli ships (docs/runtime.mjs),
// telemetry is off, and the one asset Redoc would load from a CDN is inlined
// (docs/offline.mjs). All pages are made in this one process (Redoc renders them in the
// browser, so a page is the document and a few lines of HTML), each written atomically,
// and a page whose bundle, runtime and renderer are unchanged is not written again
// (lib/cache.mjs).
import { readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseBundle } from '../lib/bundle-text.mjs';
import { loadApis } from '../model/apis.mjs';
import { readEntry, sha256, unchanged, writeEntry } from './cache.mjs';
import { writeFileAtomic } from '../lib/files.mjs';
import { collectGaps, forReaders } from '../site/gaps.mjs';
import { withErrorExamples } from '../site/errors.mjs';
import { inertDescriptions } from '../site/safe.mjs';
import { codeSamplesOf, exampleRequest, operationsIn } from '../site/samples.mjs';
import { withServers } from '../site/servers.mjs';
import { landingPage } from '../site/landing.mjs';
import { docsPage } from '../site/offline.mjs';
import { redocRuntime } from './docs-runtime.mjs';
import { seconds } from '../lib/run.mjs';
import { operationsOf, versionsByApi } from './manifest.mjs';
import { changesBetweenVersions } from '../changes/index.mjs';

// Redoc options. Gaps are shown once, in bold, in the descriptions (docs/gaps.mjs
// forReaders), so no extension is printed.
export const REDOC_OPTIONS = {
  hideLoading: true,
  // Open the example bodies far enough that their values are readable without clicking.
  jsonSamplesExpandLevel: 3,
  // The bundle has only local $refs: nothing for the browser to resolve.
  skipBundle: true,
  disableTelemetry: true,
  // Spec text is untrusted: Redoc passes the HTML of its Markdown through DOMPurify.
  sanitize: true,
  // Only the samples the docs build writes (x-codeSamples), not Redoc's generated ones.
  codeSamples: {
    languages: [
      { lang: 'typescript', label: 'TypeScript' },
      { lang: 'bash', label: 'curl (mock)' },
    ],
  },
};

// The client conveniences a TypeScript sample may call (docs/samples.mjs sampleShape):
// `listAll` for a nextLink-paged GET, `patchWithETag` for a PATCH with a required If-Match,
// `beginAndWait` for a long-running operation (src/conventions.ts keys them on the same
// shapes). The samples test type-checks the result.
const CONVENIENCES = new Set(['listAll', 'patchWithETag', 'beginAndWait']);

/**
 * The document as its page renders it (a copy; the bundle is not changed): gaps said
 * once (docs/gaps.mjs), an example on every error response (docs/errors.mjs),
 * working server URLs (docs/servers.mjs), code samples on every operation
 * (docs/samples.mjs), and every description's raw HTML made text (docs/safe.mjs).
 * Also returns the example request of each operation, for "Try it".
 */
export function forPage(document, family) {
  const copy = forReaders(document);
  const operations = operationsIn(copy);
  const originals = operationsIn(document);
  const requests = originals.map((entry) => exampleRequest(document, entry, family));
  // Samples from the bundle as written; operationsIn lists both in the same order.
  for (const [i, entry] of operations.entries()) entry.operation['x-codeSamples'] = codeSamplesOf(document, originals[i], family, CONVENIENCES);
  withErrorExamples(copy);
  withServers(copy, operations);
  inertDescriptions(copy);
  return { definition: copy, requests };
}

// Redoc 3 routes an operation as #/<tag>/<operationId>, both lower-cased and slugged;
// the landing page links straight there (the browser test follows these links).
const slug = (text) => text.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
const redocAnchor = (operation) => (operation.tags?.[0] && operation.operationId ? `#/${slug(operation.tags[0])}/${slug(operation.operationId)}` : '');

// What decides a page besides its bundle: this renderer and its helpers.
const RENDERER = [
  'docs.mjs',
  '../site/offline.mjs',
  '../site/gaps.mjs',
  '../site/landing.mjs',
  '../site/errors.mjs',
  '../site/safe.mjs',
  '../site/samples.mjs',
  '../site/servers.mjs',
  '../model/servers.mjs',
  '../site/page-script.js',
];
let rendererHash;
async function rendererKey() {
  rendererHash ??= sha256((await Promise.all(RENDERER.map((f) => readFile(new URL(f, import.meta.url))))).join('\0'));
  return rendererHash;
}

/** The page script (Redoc's start and "Try it"), named by its content hash. */
async function pageScript() {
  const code = await readFile(new URL('../site/page-script.js', import.meta.url), 'utf8');
  return { code, name: `docs-page-${sha256(code).slice(0, 12)}.js` };
}

/** True when `file` exists and hashes to `sha`. */
const intact = (file, sha) =>
  readFile(file).then(
    (bytes) => sha256(bytes) === sha,
    () => false,
  );

/** Writes `content` to `file` unless it is already there, byte for byte. */
async function writeIfDifferent(file, content) {
  if (await intact(file, sha256(content))) return false;
  await writeFileAtomic(file, content);
  return true;
}

/** Renders one API's page unless the cache (of the workspace at `root`) says the page on disk is current. */
async function renderPage(root, api, source, runtime, script) {
  const start = performance.now();
  const key = sha256(`${await rendererKey()}\0${runtime.name}\0${script.name}\0${source.sha}`);
  const entry = await readEntry(root, `docs-page-${api.slug}`);
  if (entry.value?.key === key && (await intact(api.docs, entry.value.sha))) return undefined;
  const document = source.document();
  const { definition, requests } = forPage(document, api.family);
  // The cast: site/offline.mjs's docsPage declares no type for `requests`, so its default `[]` reads as never[].
  const html = docsPage({
    title: document.info.title,
    definition,
    requests: /** @type {never[]} */ (requests),
    options: REDOC_OPTIONS,
    runtime: runtime.name,
    script: script.name,
  });
  await writeFileAtomic(api.docs, html);
  await writeEntry(root, `docs-page-${api.slug}`, { key, sha: sha256(html) });
  return { api, bytes: Buffer.byteLength(html), time: seconds(start) };
}

/** What the landing page says of one document, read from its bundle. */
async function pageInfo(api, defaults, document) {
  const operations = (await operationsOf(api, document)).map((operation) => {
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
 * pageInfo from the build cache when the bundle is unchanged (so the landing page of a
 * large workspace never re-parses the bundles an edit did not touch), else computed and
 * stored.
 */
async function cachedPageInfo(root, api, defaults, source) {
  const name = `docs-info-${api.slug}`;
  const key = sha256(`${await rendererKey()}\0${source.sha}`);
  const entry = await readEntry(root, name);
  if (entry.value?.key === key) return { ...entry.value.info, api, isDefault: defaults.get(api.apiName) === api.version };
  const { api: _api, ...info } = await pageInfo(api, defaults, source.document());
  await writeEntry(root, name, { key, info });
  return { ...info, api };
}

let changesCodeHash;
/** The change report's own code: a new rule or message makes every cached report stale. */
async function changesCodeKey() {
  if (changesCodeHash) return changesCodeHash;
  const dir = new URL('../changes/', import.meta.url);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.mjs')).sort();
  changesCodeHash = sha256((await Promise.all(files.map((f) => readFile(new URL(f, dir))))).join('\0'));
  return changesCodeHash;
}

/**
 * apiName -> the changes between its consecutive versions, for APIs with several. Each
 * API's report is cached on the files its comparison read (their hashes), the versions
 * and the report's code: comparing 50 versions is most of a docs step with nothing to do.
 */
async function versionChanges(root, apis) {
  const byName = new Map();
  for (const api of apis) byName.set(api.apiName, [...(byName.get(api.apiName) ?? []), api]);
  const result = new Map();
  for (const [apiName, versions] of byName) {
    if (versions.length < 2) continue;
    const name = `docs-changes-${apiName}`;
    const key = sha256([await changesCodeKey(), ...versions.map((a) => `${a.name}\0${a.rootRelative}`).sort()].join('\n'));
    const entry = await readEntry(root, name);
    if (entry.value?.key === key && (await unchanged(root, entry.value.inputs))) {
      result.set(apiName, entry.value.changes);
      continue;
    }
    // Hashes of the text the comparison read, not of the files read again afterwards.
    const read = new Map();
    // Plain data, the same whether computed now or read back from the entry: a change's
    // `context` is not enumerable (not in JSON), so the version it was compared against is
    // copied out as `from`, else a landing page rendered from the entry loses its steps.
    const changes = changesBetweenVersions(root, apiName, { onRead: (file, text) => read.set(file, text === undefined ? null : sha256(text)) }).map(
      (change) => ({ ...change, from: change.context?.from?.version ?? null }),
    );
    await writeEntry(root, name, { key, inputs: Object.fromEntries([...read].sort(([a], [b]) => a.localeCompare(b))), changes });
    result.set(apiName, changes);
  }
  return result;
}

/** A bundle read once: its hash, and its parsed document when someone asks for it. */
async function readBundle(root, api) {
  if (!existsSync(api.bundle)) throw new Error(`${relative(root, api.bundle)} is missing: run \`npm run generate\` first`);
  const text = await readFile(api.bundle, 'utf8');
  let document;
  return { sha: sha256(text), document: () => (document ??= parseBundle(text)) };
}

/**
 * Renders the pages of `only` (all APIs by default; `npm run dev` passes the changed
 * ones) and the landing page for all `apis` of the workspace at `root`, skipping what is
 * current; returns what was written (`pages`: the pages rendered now).
 */
export async function buildDocs(root, apis, { only = apis } = {}) {
  const docs = join(root, 'generated', 'docs');
  const runtime = await redocRuntime(root);
  // The runtime first: a page is never on disk before the script it loads.
  await writeIfDifferent(join(docs, runtime.name), runtime.code);
  const script = await pageScript();
  await writeIfDifferent(join(docs, script.name), script.code);
  const sources = new Map(await Promise.all(apis.map(async (api) => /** @type {[any, any]} */ ([api, await readBundle(root, api)]))));
  const rendered = [];
  for (const api of only) {
    const page = await renderPage(root, api, sources.get(api), runtime, script);
    if (page) rendered.push(page);
  }

  const defaults = new Map(Object.values(versionsByApi(apis)).flatMap((family) => Object.entries(family).map(([apiName, entry]) => [apiName, entry.default])));
  const index = join(docs, 'index.html');
  // What changed between consecutive versions (APIs with several): part of the key, so
  // a change of the report itself redoes the landing page too.
  const changes = await versionChanges(root, apis);
  const landingKey = sha256(
    [await rendererKey(), JSON.stringify([...changes]), ...apis.map((api) => `${api.name}\0${defaults.get(api.apiName)}\0${sources.get(api).sha}`)].join('\n'),
  );
  const landing = await readEntry(root, 'docs-landing');
  let infos;
  const infosOf = async () =>
    (infos ??= await Promise.all(
      // In `npm run dev` the landing page is redone on every save: an unchanged bundle is
      // not parsed again, its page info comes from the cache entry. (Not from a memo of this
      // process: the entry on disk is what the next build trusts, so it is kept current.)
      apis.map((api) => cachedPageInfo(root, api, defaults, sources.get(api))),
    ));
  if (landing.value?.key !== landingKey || !(await intact(index, landing.value.sha))) {
    const html = landingPage(await infosOf(), changes);
    await writeFileAtomic(index, html);
    await writeEntry(root, 'docs-landing', { key: landingKey, sha: sha256(html) });
  }

  // A full build drops what no current document owns: pages of removed documents and
  // runtimes no page loads any more (after every page has moved to the current one).
  if (only === apis) {
    const keep = new Set(['index.html', runtime.name, script.name, ...apis.map((api) => basename(api.docs))]);
    for (const file of await readdir(docs)) {
      if (!keep.has(file) && (/^(redoc|docs-page)-.*\.js$/.test(file) || file.endsWith('.html'))) await rm(join(docs, file), { force: true });
    }
  }
  const pages = rendered.length ? rendered.map((r) => ({ ...r, gaps: collectGaps(sources.get(r.api).document()) })) : [];
  return { index, pages, runtime };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = performance.now();
  const root = resolve(import.meta.dirname, '..');
  try {
    const apis = loadApis(root);
    const { pages, runtime } = await buildDocs(root, apis);
    for (const page of pages) {
      const kib = `${Math.round(page.bytes / 1024)} KiB`;
      console.log(`docs  ${relative(root, page.api.docs)}  ${kib}, ${page.gaps.length} gaps  ${page.time}`);
    }
    console.log(`docs  generated/docs/  ${pages.length} of ${apis.length} pages rendered (the rest current), ${runtime.name}  ${seconds(start)}`);
  } catch (error) {
    console.error(`docs  FAILED: ${error.message}`);
    process.exit(1);
  }
}
