// One copy of the Redoc runtime for every docs page, instead of 2.3 MB inlined per page.
//
// Where it comes from: the Redoc standalone bundle that @redocly/cli ships. The CLI has no
// API for it. `build-docs --inlineBundle` inlines that bundle (its lib/chunks/
// redoc.standalone.js, with `</script` escaped) into a page; the runtime is read from that
// file directly, and where a CLI version keeps it elsewhere or in another shape, cut out of
// a page the CLI renders for a minimal document (a child process that loads the whole CLI:
// 1-3 s of CPU). test/docs/runtime.test.ts checks that both give the same runtime. Either
// way this happens once per CLI version: the result is kept in the build cache.
//
// How pages load it: `<script src="redoc-<version>-<hash>.js">`, a classic script.
// Chromium refuses module scripts from file://, and the pages must open from disk; the
// bundle is an IIFE whose result is exported, so it becomes a classic script by dropping
// the `export {...}` (its `const` bindings are then globals the page's own script sees),
// adding "use strict" (module code is strict), and replacing the two `import.meta` uses
// (a Node-only and a worker-URL branch that the page never takes). The file name carries
// the content hash: a page never meets a runtime other than the one it was made with.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { readEntry, sha256, toolVersions, writeEntry } from './cache.mjs';
import { offlineRuntime } from '../site/offline.mjs';
import { runTool, withoutBanners } from '../lib/run.mjs';

const MINIMAL = {
  openapi: '3.1.0',
  info: { title: 'runtime', version: '1' },
  paths: {},
};

/** The classic-script runtime, cut out of a page written by `build-docs --inlineBundle`. */
export function runtimeFromPage(html) {
  const open = '<script type="module">';
  const start = html.indexOf(open);
  const end = html.indexOf('const __redoc_definition', start);
  if (start < 0 || end < 0)
    throw new Error('build-docs page: no inlined Redoc module followed by __redoc_definition; Redoc changed, re-check docs/runtime.mjs');
  return runtimeFromBundle(html.slice(start + open.length, end));
}

/** The classic-script runtime from the standalone bundle as a page inlines it (`</script` escaped). */
function runtimeFromBundle(bundle) {
  let code = bundle.trim();
  const version = /\*\s*Version:\s*([\w.-]+)/.exec(code)?.[1];
  if (!version) throw new Error('build-docs page: no "Version:" in the Redoc bundle header');
  const exported = /export\s*\{\s*RedocStandalone\s*,\s*hydrate\s*,\s*init\s*\}\s*;?\s*$/;
  if (!exported.test(code)) throw new Error('Redoc bundle: does not end in export {RedocStandalone,hydrate,init}; re-check docs/runtime.mjs');
  code = code.replace(exported, '');
  // Outside eval strings, import.meta is only read in two branches the page does not
  // take (Node workers, a worker script next to a module file); both need a value only.
  const uses = [
    ['import.meta.dirname+', '""+'],
    ['import.meta.url.replace(', 'location.href.replace('],
  ];
  for (const [from, to] of uses) {
    if (code.split(from).length !== 2) throw new Error(`Redoc bundle: expected one "${from}"; re-check docs/runtime.mjs`);
    code = code.replace(from, to);
  }
  code = `"use strict";\n${offlineRuntime(code)}\n`;
  // Must compile as a classic script (throws a SyntaxError otherwise).
  new Script(code, { filename: 'redoc-runtime.js' });
  return { version, code, name: `redoc-${version}-${sha256(code).slice(0, 12)}.js` };
}

/**
 * The runtime from the standalone bundle in the CLI's package, escaped as build-docs
 * inlines it; undefined where this CLI version has no such file or one of another shape.
 */
export async function runtimeFromPackage(root) {
  try {
    const bundle = await readFile(join(root, 'node_modules/@redocly/cli/lib/chunks/redoc.standalone.js'), 'utf8');
    // As build-docs inlines it (this version's bundle holds no `</script`; a later one may).
    return runtimeFromBundle(bundle.replace(/<\/(script)/gi, '<\\/$1'));
  } catch {
    return undefined;
  }
}

/** The runtime cut out of a page that a build-docs process renders (the CLI's documented output). */
export async function runtimeFromCli(root) {
  const scratch = await mkdtemp(join(tmpdir(), 'docs-runtime-'));
  try {
    const input = join(scratch, 'minimal.json');
    const output = join(scratch, 'minimal.html');
    await writeFile(input, JSON.stringify(MINIMAL));
    const cli = await runTool('@redocly/cli/bin/cli.js', ['build-docs', input, '--inlineBundle', '-o', output], root);
    if (cli.code !== 0) throw new Error(`build-docs (for the Redoc runtime) failed:\n${withoutBanners(cli.stdout + cli.stderr)}`);
    return runtimeFromPage(await readFile(output, 'utf8'));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The runtime (`{ version, code, name }`), from the cache of the workspace at `root` when
 * this CLI made it before. Memoised (per workspace): the build asks early, so a first
 * extraction (a child process) overlaps lint.
 */
const memos = new Map();
export function redocRuntime(root) {
  // A failure is not kept: a long-lived process (the build server, npm run dev) tries again.
  const memo = memos.get(root) ?? loadRuntime(root);
  memos.set(root, memo);
  memo.catch(() => memos.delete(root));
  return memo;
}

async function loadRuntime(root) {
  const source = await readFile(new URL(import.meta.url)).then(sha256);
  const offline = await readFile(new URL('../site/offline.mjs', import.meta.url)).then(sha256);
  const cli = toolVersions(root)['@redocly/cli'];
  const name = `docs-runtime-${sha256(`${cli}\0${source}\0${offline}`).slice(0, 16)}`;
  const cached = await readEntry(root, name);
  if (cached.value && sha256(cached.value.code).startsWith(cached.value.name.split('-').at(-1).replace('.js', ''))) return cached.value;
  const runtime = (await runtimeFromPackage(root)) ?? (await runtimeFromCli(root));
  await writeEntry(root, name, runtime);
  return runtime;
}
