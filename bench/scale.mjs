#!/usr/bin/env node
// Scaling benchmark (issue 15): N-document workspaces made by bench/lib/workspace-n.mjs
// (the five documents replicated as further versions, lint clean, in throw-away copies),
// then for each N:
//   cold       `npm run build` with no cache, no dist/, no docs (per step, from its lines)
//   docs size  generated/docs/ on disk after it
//   no change  `npm run build` again (median of 3)
//   one doc    `npm run build` after a one-field edit of one document's schema
//   new version `npm run build` after adding a version by the recipe (a folder copied
//              from the newest sql version, its version written in, a redocly.yaml entry)
//   lint mem   peak RSS of `npm run lint` over all N documents (/usr/bin/time -f %M)
//   baseline   (N <= --baseline-max) the CLIs as a careful user runs them: `redocly lint`
//              and `spectral lint` once over all documents, `redocly bundle` once for all,
//              then openapi-typescript and `redocly build-docs --inlineBundle` per
//              document, two at a time (two cores)
//   watch      (N = --watch) `npm run dev --no-mock`: start to its "watching" line; median
//              and range of save -> fresh types / -> fresh docs page (done) over --samples
//              one-field edits; an edit in specs/common/ read by 2/5 of the documents,
//              save -> done
//   wide       (--wide <entity sets>) one version as wide as the real services: v2.0 with
//              that many entity sets more (bench/lib/workspace-wide.mjs, 5 operations each),
//              --wide-rounds rounds of: cold build (a fresh clone's first `npm run build`:
//              it starts the build server), build after one schema's description edit and
//              after one path file's description edit (both on the build server), and one
//              schema edit built in a process of its own (`--no-server`); wall and CPU
//              (the server's included, from /proc), each step; then `npm run dev --no-mock` with --samples schema edits (save -> types, -> done)
// Usage: node bench/scale.mjs [--sizes 5,25,100,250] [--baseline-max 25] [--watch 100]
//                             [--samples 7] [--lint-only 1000] [--wide 59 [--wide-rounds 3]]
//        node bench/scale.mjs --sizes '' --wide 59      # the wide row alone
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseArgs, promisify } from 'node:util';
import { parse } from 'yaml';
import { filesUnder } from '../lib/walk.mjs';
import { QUIET_ENV } from '../lib/run.mjs';
import { mapLimit } from '../lib/pool.mjs';
import { fmtMs, fmtS, median, timed } from './lib/stats.mjs';
import { startDev, timeEdits } from './lib/dev-edits.mjs';
import { workspaceOfN } from './lib/workspace-n.mjs';
import { addVersion } from '../test/helpers/add-version.mjs';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '5,25,100,250' },
    'baseline-max': { type: 'string', default: '25' },
    watch: { type: 'string', default: '100' },
    samples: { type: 'string', default: '7' },
    'lint-only': { type: 'string' },
    wide: { type: 'string', default: '0' },
    'wide-rounds': { type: 'string', default: '3' },
  },
});
const run = promisify(execFile);
// Builds in processes of their own unless a row says otherwise (the wide row measures the
// build server, pipeline/build-server/, which `npm run build` uses by default).
const ENV = { ...process.env, ...QUIET_ENV, PROVIDER_API_BUILD_SERVER: 'off' };
const SERVER_ENV = { ...ENV, PROVIDER_API_BUILD_SERVER: 'on' };
const node = (cwd, args) => run(process.execPath, args, { cwd, env: ENV, maxBuffer: 1 << 26 });

/** `build  <step> ... <t> s` lines -> { step: seconds }. */
const stepsOf = (out) => Object.fromEntries([...out.matchAll(/^build {2}(\w+) +.*? {2}([\d.]+) s$/gm)].map((m) => [m[1], Number(m[2]) * 1000]));

/** A new sql api-version after the newest one, by the recipe (test/helpers/add-version.mjs). */
async function addSqlVersion(dir, to) {
  const base = 'specs/resource-manager/Provider.Sql';
  const from = (await readdir(join(dir, base)))
    .filter((v) => /^\d{4}-\d{2}-\d{2}$/.test(v))
    .sort()
    .at(-1);
  await addVersion(dir, { api: 'sql', from: `${base}/${from}`, to });
}

async function bytesUnder(dir) {
  let total = 0;
  // Not readdir's `recursive`: it follows symlinked folders on every Node line (lib/walk.mjs).
  for (const file of filesUnder(dir)) total += (await stat(file)).size;
  return total;
}

async function lintPeak(dir) {
  const { stderr, stdout } = await run('/usr/bin/time', ['-f', 'PEAK_KB %M', process.execPath, 'pipeline/lint.mjs'], {
    cwd: dir,
    env: ENV,
    maxBuffer: 1 << 26,
  });
  if (!/lint {2}passed/.test(stdout)) throw new Error(`lint did not pass:\n${stdout}${stderr}`);
  return Number(/** @type {RegExpExecArray} */ (/PEAK_KB (\d+)/.exec(stderr))[1]) * 1024;
}

async function baseline(dir) {
  const config = parse(await readFile(join(dir, 'redocly.yaml'), 'utf8'));
  const apis = Object.entries(config.apis).map(([name, { root, output }]) => ({ name, root, output, slug: name.replace('@', '-') }));
  const redocly = join(dir, 'node_modules/@redocly/cli/bin/cli.js');
  const spectral = join(dir, 'node_modules/@stoplight/spectral-cli/dist/index.js');
  const ots = join(dir, 'node_modules/openapi-typescript/bin/cli.js');
  await writeFile(join(dir, 'naive.redocly.yaml'), 'extends:\n  - minimal\n');
  const [lint] = await timed(async () => {
    await node(dir, [redocly, 'lint']);
    await node(dir, [spectral, 'lint', '--fail-severity=warn', ...apis.map((a) => a.root)]);
  });
  const [bundle] = await timed(() => node(dir, [redocly, 'bundle']));
  const [types] = await timed(() =>
    mapLimit(apis, 2, (api) => node(dir, [ots, api.output, '-o', `naive-${api.slug}.ts`, '--read-write-markers', '--redocly', 'naive.redocly.yaml'])),
  );
  const [docs] = await timed(() =>
    mapLimit(apis, 2, (api) => node(dir, [redocly, 'build-docs', api.output, '--inlineBundle', '-o', `naive-docs/${api.slug}.html`])),
  );
  const docsBytes = await bytesUnder(join(dir, 'naive-docs'));
  return { lint, bundle, types, docs, total: lint + bundle + types + docs, docsBytes };
}

/** `npm run dev --no-mock` in `dir`: ready time, edit -> types / done, common edit -> done. */
async function watchBench(dir, samples) {
  const start = performance.now();
  const dev = startDev(dir, ENV);
  try {
    const ready = (await dev.waitFor(/dev {2}watch/, 0, 600_000)) - start;
    const { types, docs } = await timeEdits(dev, dir, samples, 500);
    const common = join(dir, 'specs/common/business-central/parameters/company_id.yaml');
    const from = dev.output().length;
    const t0 = performance.now();
    await writeFile(common, (await readFile(common, 'utf8')).replace('Key of the company', 'Key (id) of the company'));
    const settled = (await dev.waitFor(/dev {2}done /, from, 600_000)) - t0;
    const touched = /dev {2}bundle +(.*)  \d+ ms/.exec(dev.output().slice(from))?.[1].split(', ').length ?? 0;
    return { ready, types, docs, settled, touched, log: dev.output() };
  } finally {
    await dev.stop();
  }
}

const spread = (xs) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))}, n=${xs.length})`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

console.log(`scale benchmark, ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores`);

if (opts['lint-only']) {
  const n = Number(opts['lint-only']);
  const copy = await workspaceOfN(n);
  try {
    const [time, peak] = await timed(() => lintPeak(copy.dir));
    console.log(`lint only, N=${n}: ${fmtS(time)}, peak RSS ${mb(peak)} (${mb(peak / n)} per document)`);
  } finally {
    await copy.remove();
  }
  process.exit(0);
}

/** CPU ms of a process and of the children it waited for (/proc/<pid>/stat), or 0 once it is gone. */
function processCpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10; // 100 ticks a second
  } catch {
    return 0;
  }
}
const serverPid = (out) => Number(/build server \(pid (\d+)/.exec(out)?.[1] ?? 0);

/**
 * `node pipeline/build.mjs` under /usr/bin/time: wall ms, CPU ms (user + system, its
 * compilers included), steps, output. With `server`, the build runs on the workspace's
 * build server (started by the first such build): its CPU is the client's plus what the
 * server spent meanwhile (/proc), compilers included.
 */
async function timedBuild(dir, { server = false } = {}) {
  const before = server && lastServer ? processCpu(lastServer) : 0;
  const start = performance.now();
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'CPU_S %U %S', process.execPath, 'pipeline/build.mjs'], {
    cwd: dir,
    env: server ? SERVER_ENV : ENV,
    maxBuffer: 1 << 26,
  });
  const wall = performance.now() - start;
  if (!/build {2}done/.test(stdout))
    throw new Error(`build failed:
${stdout}${stderr}`);
  const [, user, sys] = /** @type {RegExpExecArray} */ (/CPU_S ([\d.]+) ([\d.]+)/.exec(stderr));
  let cpu = (Number(user) + Number(sys)) * 1000;
  if (server) {
    const pid = serverPid(stdout);
    if (!pid) throw new Error(`the build did not run on a build server:\n${stdout}`);
    cpu += processCpu(pid) - (pid === lastServer ? before : 0);
    lastServer = pid;
  }
  return { wall, cpu, steps: stepsOf(stdout), out: stdout.trim() };
}
let lastServer;

/** Replaces `from` by `to` in a file of `dir` (throws when the text is not there). */
async function replaceIn(dir, file, from, to) {
  const text = await readFile(join(dir, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} holds no ${from}`);
  await writeFile(join(dir, file), text.replace(from, to));
}

/** The wide row: cold, one-schema and one-path-file builds, then dev's save -> types. */
async function wideBench(count, rounds, samples) {
  const { wideWorkspace, WIDE_VERSION } = await import('./lib/workspace-wide.mjs');
  const copy = await wideWorkspace(count);
  const { dir, names } = copy;
  const up = (name) => name[0].toUpperCase() + name.slice(1);
  const loads = [];
  /** @typedef {Awaited<ReturnType<typeof timedBuild>>} Build */
  /** @type {{ count: number, operations: number, cold: Build[], schema: Build[], path: Build[], own: Build[], [more: string]: any }} */
  const result = { count, operations: count * 5 + 1, cold: [], schema: [], path: [], own: [] };
  const stopServer = () => run(process.execPath, ['pipeline/build.mjs', '--stop-server'], { cwd: dir, env: SERVER_ENV });
  try {
    for (let r = 0; r < rounds; r++) {
      loads.push(loadavg()[0]);
      // Cold: what a fresh clone's first `npm run build` does (no server, cache, dist/ or docs;
      // it starts the build server and builds there).
      await stopServer();
      const stopped = lastServer;
      for (let i = 0; i < 100 && stopped && processCpu(stopped); i++) await new Promise((r) => setTimeout(r, 50));
      await rm(join(dir, '.cache'), { recursive: true, force: true });
      await rm(join(dir, 'dist'), { recursive: true, force: true });
      await rm(join(dir, 'generated/docs'), { recursive: true, force: true });
      result.cold.push(await timedBuild(dir, { server: true }));
      // A schema's description (changes the types' JSDoc, not their shape), another entity each round.
      const entity = up(names[(r * 7) % names.length]);
      await replaceIn(dir, `${WIDE_VERSION}/schemas/${entity}.yaml`, 'description: An amount, a decimal.', `description: An amount, a decimal (round ${r}).`);
      result.schema.push(await timedBuild(dir, { server: true }));
      // A path file: one operation's description.
      const name = names[(r * 7 + 3) % names.length];
      await replaceIn(dir, `${WIDE_VERSION}/paths/${name}.yaml`, 'description: Reads one', `description: Reads (round ${r}) one`);
      result.path.push(await timedBuild(dir, { server: true }));
      // The same kind of schema edit, built in a process of its own (--no-server; CI's way).
      const other = up(names[(r * 7 + 5) % names.length]);
      await replaceIn(dir, `${WIDE_VERSION}/schemas/${other}.yaml`, 'description: An amount, a decimal.', `description: An amount, a decimal (own ${r}).`);
      result.own.push(await timedBuild(dir));
      for (const kind of ['cold', 'schema', 'path', 'own'])
        console.log(`wide round ${r + 1}, ${kind}: ${fmtS(result[kind][r].wall)} wall, ${fmtS(result[kind][r].cpu)} CPU\n${result[kind][r].out}`);
    }
    await stopServer();
    loads.push(loadavg()[0]);
    const start = performance.now();
    const dev = startDev(dir, ENV);
    try {
      result.ready = (await dev.waitFor(/dev {2}watch/, 0, 600_000)) - start;
      const schema = `${WIDE_VERSION}/schemas/${up(names.at(-1))}.yaml`;
      const edit = (text, i) => text.replace('description: Whether', `description: (edit ${i}) Whether`);
      Object.assign(result, await timeEdits(dev, dir, samples, 500, { file: schema, edit }));
      result.devLog = dev
        .output()
        .split('\n')
        .filter((l) => /dev {2}(lint|bundle|types|done)/.test(l))
        .slice(-8)
        .join('\n');
    } finally {
      await dev.stop();
    }
    loads.push(loadavg()[0]);
    result.loads = loads;
    return result;
  } finally {
    await copy.remove();
  }
}

if (Number(opts.wide) > 0) {
  const w = await wideBench(Number(opts.wide), Number(opts['wide-rounds']), Number(opts.samples));
  const med = (list, f) => median(list.map(f));
  const ratio = (kind, f) => `${Math.round((100 * med(w[kind], f)) / med(w.cold, f))} %`;
  const stepsOf_ = (kind) => ['lint', 'generate', 'docs', 'compile'].map((s) => fmtS(med(w[kind], (b) => b.steps[s] ?? 0))).join(' / ');
  console.log(
    `\nwide: ${w.operations} operations in one version (${w.count} entity sets added), load average ${w.loads.map((l) => l.toFixed(1)).join(' -> ')}`,
  );
  console.log(w.devLog);
  console.log(`\n| wide, median of ${w.cold.length} | wall | CPU (user + sys) | wall vs cold | CPU vs cold | lint / generate / docs / compile (wall) |`);
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  for (const [kind, label] of [
    ['cold', "`npm run build`, cold: a fresh clone's first build (no cache, dist/, docs or server; it starts the server)"],
    ['schema', "after one schema's description edit (on the build server)"],
    ['path', "after one path file's description edit (on the build server)"],
    ['own', "after one schema's description edit, in a process of its own (`--no-server`)"],
  ]) {
    console.log(
      `| ${label} | ${fmtS(med(w[kind], (b) => b.wall))} | ${fmtS(med(w[kind], (b) => b.cpu))} | ${ratio(kind, (b) => b.wall)} | ${ratio(kind, (b) => b.cpu)} | ${stepsOf_(kind)} |`,
    );
  }
  console.log(`| \`npm run dev\`: start -> watching | ${fmtS(w.ready)} | | | | |`);
  console.log(`| \`npm run dev\`: schema save -> types, median (range) | ${spread(w.types)} | | | | |`);
  console.log(`| \`npm run dev\`: schema save -> docs page (done), median (range) | ${spread(w.docs)} | | | | |`);
}

const rows = [];
for (const n of opts.sizes.split(',').filter(Boolean).map(Number)) {
  const copy = await workspaceOfN(n);
  const { dir } = copy;
  try {
    await rm(join(dir, 'generated/docs'), { recursive: true, force: true });
    const [cold, coldOut] = await timed(() => node(dir, ['pipeline/build.mjs']));
    const steps = stepsOf(coldOut.stdout);
    const docsBytes = await bytesUnder(join(dir, 'generated/docs'));
    const again = [];
    for (let i = 0; i < 3; i++) again.push((await timed(() => node(dir, ['pipeline/build.mjs'])))[0]);
    const schema = join(dir, 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml');
    await writeFile(schema, (await readFile(schema, 'utf8')).replace('description: Short code.', 'description: Short code (bench).'));
    const [one, oneOut] = await timed(() => node(dir, ['pipeline/build.mjs']));
    await addSqlVersion(dir, '2099-01-01');
    const [added, addedOut] = await timed(() => node(dir, ['pipeline/build.mjs']));
    const peak = await lintPeak(dir);
    const row = { n, cold, steps, docsBytes, again, one, oneOut: oneOut.stdout, added, peak };
    console.log(`\nN=${n}\n${coldOut.stdout.trim()}`);
    console.log(
      `N=${n}: cold ${fmtS(cold)} (docs ${fmtS(steps.docs)}), docs on disk ${mb(docsBytes)}, no change ${again.map(fmtS).join(' / ')}, one document ${fmtS(one)}, lint peak ${mb(peak)}`,
    );
    console.log(oneOut.stdout.trim());
    console.log(`N=${n}: a new version listed -> build ${fmtS(added)}\n${addedOut.stdout.trim()}`);
    if (n <= Number(opts['baseline-max'])) {
      row.baseline = await baseline(dir);
      const b = row.baseline;
      console.log(
        `N=${n} careful CLI baseline: lint ${fmtS(b.lint)}, bundle ${fmtS(b.bundle)}, types ${fmtS(b.types)}, docs ${fmtS(b.docs)} (${mb(b.docsBytes)}), total ${fmtS(b.total)}`,
      );
    }
    if (n === Number(opts.watch)) {
      // Back to the spec as built, with a current cache: what a developer has after a build.
      await writeFile(schema, (await readFile(schema, 'utf8')).replace('description: Short code (bench).', 'description: Short code.'));
      await node(dir, ['pipeline/build.mjs']);
      row.watch = await watchBench(dir, Number(opts.samples));
      const w = row.watch;
      console.log(
        `N=${n} watch: ready ${fmtS(w.ready)}; edit -> types ${spread(w.types)}; edit -> docs page (done) ${spread(w.docs)}; specs/common/ edit (${w.touched} documents) -> done ${fmtS(w.settled)}`,
      );
      console.log(
        w.log
          .split('\n')
          .filter((l) => /dev {2}(watch|cache|done|docs)/.test(l))
          .slice(0, 6)
          .join('\n'),
      );
    }
    rows.push(row);
  } finally {
    await copy.remove();
  }
}

if (!rows.length) process.exit(0);
console.log(`\n| N documents | ${rows.map((r) => r.n).join(' | ')} |`);
console.log(`| --- | ${rows.map(() => '---:').join(' | ')} |`);
const line = (label, f) => console.log(`| ${label} | ${rows.map((r) => f(r) ?? '').join(' | ')} |`);
line('`npm run build`, cold (no cache)', (r) => fmtS(r.cold));
line('of which docs step', (r) => fmtS(r.steps.docs));
line('of which lint / generate / compile', (r) => `${fmtS(r.steps.lint)} / ${fmtS(r.steps.generate)} / ${fmtS(r.steps.compile)}`);
line('`generated/docs/` on disk', (r) => mb(r.docsBytes));
line('`npm run build`, nothing changed (median of 3)', (r) => fmtS(median(r.again)));
line('`npm run build` after a one-document edit', (r) => fmtS(r.one));
line('`npm run build` after adding a version (one new document)', (r) => fmtS(r.added));
line('lint peak RSS (all documents)', (r) => mb(r.peak));
line('careful CLI baseline: lint+bundle once, types+docs 2 at a time', (r) => r.baseline && fmtS(r.baseline.total));
line('of which docs (build-docs per page, 2 at a time)', (r) => r.baseline && `${fmtS(r.baseline.docs)}, ${mb(r.baseline.docsBytes)}`);
line('watch: start -> watching', (r) => r.watch && fmtS(r.watch.ready));
line('watch: edit -> types, median (range)', (r) => r.watch && spread(r.watch.types));
line('watch: edit -> docs page, median (range)', (r) => r.watch && spread(r.watch.docs));
line('watch: specs/common/ edit -> settled', (r) => r.watch && `${fmtS(r.watch.settled)} (${r.watch.touched} documents)`);
