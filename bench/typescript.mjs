#!/usr/bin/env node
// `npm run bench:typescript`: TypeScript 5.9 (`typescript`, pinned: the compiler whose API
// openapi-typescript and the tests use) against TypeScript 7 (`typescript-7`, the native
// compiler, which compiles dist/ and runs `npm run typecheck` and the type tests),
// side by side in one run, on a throw-away copy of the workspace (never the real tree):
//   compile     src/ + generated/ -> ESM and CommonJS with declarations, what
//               `npm run build:package` (pipeline/compile.mjs) produces: `tsc -p
//               tsconfig.build.json` and `tsc -p tsconfig.cjs.json`, each into its own folder
//               (each compiler with the resolution it accepts for the CommonJS build, below);
//               pipeline/compile.mjs itself (TS 7's `tsc`, both outputs at once in two
//               processes), with no dist/ and after a one-file edit (a whole compile both
//               times: it keeps no incremental state)
//   typecheck   `npm run typecheck` (`tsc -p tsconfig.json`)
//   type tests  test/types/*.test-d.ts under tsconfig.json (`tsc --noEmit` over them)
//   watch       `tsc -p tsconfig.json --watch`: start, then saves of src/core.ts, each to
//               the watcher's report of it; and the `--incremental` rebuild of
//               tsconfig.build.json after a one-file edit
// Rounds alternate which compiler goes first; figures are medians over the rounds. Then it
// checks that TS 7 behaves the same: identical diagnostics on the type tests with their
// expected errors unmarked and on a deliberately broken file, identical ESM and CommonJS
// output (declarations and JavaScript), the watcher reporting every save with the same
// error, the incremental rebuild emitting the edit, a watched project directly in /tmp.
// It reports; it exits 1 only when a step cannot run.
// Usage: node bench/typescript.mjs [--rounds N] [--saves N]   (defaults 3 and 3)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { filesUnder } from '../lib/walk.mjs';
import { CODE_ROOMS } from '../model/workspace-paths.mjs';
import { median } from './lib/stats.mjs';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, saves: { type: 'string', default: '3' } } });
const ROUNDS = Math.max(1, Number(values.rounds)); // the figures in bench/README.md are medians of 3 or more
const SAVES = Math.max(1, Number(values.saves));
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

const version = async (pkg) => JSON.parse(await readFile(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
/** @type {Array<{ name: string, pkg: string, tsc: string, cjsArgs: string[], version?: string }>} */
const COMPILERS = [
  { name: '5.9', pkg: 'typescript', tsc: join(ROOT, 'node_modules/typescript/bin/tsc'), cjsArgs: [] },
  { name: '7', pkg: 'typescript-7', tsc: join(ROOT, 'node_modules/typescript-7/bin/tsc'), cjsArgs: [] },
];
for (const c of COMPILERS) c.version = await version(c.pkg);

// The copy sits one level below its temporary folder: TypeScript 7.0's watcher does not
// watch a project directory two levels below the root (/tmp/x) and never sees its edits.
const TMP = await mkdtemp(join(tmpdir(), 'bench-typescript-'));
process.once('exit', () => rmSync(TMP, { recursive: true, force: true }));
const DIR = join(TMP, 'workspace');
const ENTRIES = [
  'src',
  'generated',
  'test',
  'bench',
  ...CODE_ROOMS,
  'specs',
  'redocly.yaml',
  'vitest.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.cjs.json',
  'package.json',
  'package-lock.json',
];
await mkdir(DIR);
for (const entry of ENTRIES) {
  await cp(join(ROOT, entry), join(DIR, entry), { recursive: true, filter: (src) => !src.startsWith(join(ROOT, 'generated/docs')) });
}
await symlink(join(ROOT, 'node_modules'), join(DIR, 'node_modules'));
await writeFile(join(DIR, 'tsconfig.types.json'), JSON.stringify({ extends: './tsconfig.json', include: ['test/types/**/*.test-d.ts'] }, null, 2));

const CORE = join(DIR, 'src/core.ts');
const CORE_TEXT = await readFile(CORE, 'utf8');
const edited = (line) => `${CORE_TEXT}\n${line}\n`;

/** @typedef {{ code: number | null, stdout: string, stderr: string, ms: number, cpu: number }} Run */
/**
 * Runs a command in the copy: wall time, and CPU time (user + system of the command and
 * everything it waited for, from bash's `times`: TS 7 runs its checkers on several threads).
 * @param {string[]} args
 * @returns {Promise<Run>}
 */
function exec(args) {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn('bash', ['-c', '"$@"; rc=$?; times >&2; exit $rc', 'bash', ...args], { cwd: DIR, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const lines = stderr.trimEnd().split('\n');
      const children = /** @type {string} */ (lines.pop());
      lines.pop(); // the shell's own times
      const cpu = children
        .trim()
        .split(/\s+/)
        .reduce((sum, t) => {
          const m = /^(\d+)m([\d.]+)s$/.exec(t);
          return sum + (m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : NaN);
        }, 0);
      resolve({ code, stdout, stderr: lines.join('\n'), ms, cpu });
    });
  });
}
/** @type {(c: { tsc: string }, ...args: string[]) => Promise<Run>} */
const tsc = (c, ...args) => exec([process.execPath, c.tsc, ...args, '--pretty', 'false']);

/** @param {string} dir */
async function tree(dir) {
  /** @type {Map<string, string>} */
  const files = new Map();
  // Not readdir's `recursive`: it follows symlinked folders on every Node line (lib/walk.mjs).
  for (const file of filesUnder(dir)) files.set(relative(dir, file), await readFile(file, 'utf8'));
  return files;
}

/**
 * Two output trees compared: which files only one has, which differ, per extension.
 * @param {string} a
 * @param {string} b
 */
async function compareTrees(a, b) {
  const [left, right] = [await tree(a), await tree(b)];
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  /** @type {{ files: number, dts: number, js: number, identical: number, differ: string[], only: string[] }} */
  const result = { files: names.length, dts: 0, js: 0, identical: 0, differ: [], only: [] };
  for (const name of names) {
    if (!left.has(name) || !right.has(name)) result.only.push(name);
    else if (left.get(name) !== right.get(name)) result.differ.push(name);
    else result.identical++;
    if (name.endsWith('.d.ts')) result.dts++;
    else if (name.endsWith('.js')) result.js++;
  }
  return result;
}

/**
 * `file(line,col): error TSn: message` plus its indented continuation lines, sorted.
 * @param {string} text
 */
function diagnostics(text) {
  /** @type {string[]} */
  const list = [];
  for (const line of text.replace(/\r/g, '').split('\n')) {
    if (/^(\S.*\(\d+,\d+\): )?error TS\d+:/.test(line)) list.push(line.trimEnd());
    else if (/^\s+\S/.test(line) && list.length && !/Watching for file changes|Starting (incremental )?compilation/.test(line))
      list[list.length - 1] += `\n${line.trimEnd()}`;
  }
  return list.sort();
}

/**
 * Two lists of diagnostics compared one by one, matched by place (file, line, column):
 * identical text, same code with other wording, another code, or a place only one reports.
 * @param {string} label
 * @param {string[]} a
 * @param {string[]} b
 */
function sameDiagnostics(label, a, b) {
  /** @type {(d: string) => string} */
  const place = (d) => /^(.*?)error TS\d+:/.exec(d)?.[1] ?? d;
  /** @type {(d: string) => string | undefined} */
  const code = (d) => /error (TS\d+):/.exec(d)?.[1];
  /** @type {(list: string[]) => Map<string, string[]>} */
  const byPlace = (list) => {
    const map = new Map();
    for (const d of list) map.set(place(d), [...(map.get(place(d)) ?? []), d]);
    return map;
  };
  const [left, right] = [byPlace(a), byPlace(b)];
  /** @type {{ label: string, count: number[], identical: number, wording: string[][], code: string[][], onlyA: string[], onlyB: string[], same?: boolean }} */
  const result = { label, count: [a.length, b.length], identical: 0, wording: [], code: [], onlyA: [], onlyB: [] };
  for (const key of new Set([...left.keys(), ...right.keys()])) {
    const [x, y] = [left.get(key) ?? [], right.get(key) ?? []];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (x[i] === undefined) result.onlyB.push(y[i]);
      else if (y[i] === undefined) result.onlyA.push(x[i]);
      else if (x[i] === y[i]) result.identical++;
      else if (code(x[i]) === code(y[i])) result.wording.push([x[i], y[i]]);
      else result.code.push([x[i], y[i]]);
    }
  }
  result.same = result.identical === a.length && a.length === b.length;
  return result;
}

// ---- what each compiler makes of the configurations as they are ----------------------

// tsconfig.cjs.json (module CommonJS) has `moduleResolution: Bundler`, which TS 7 compiles
// and 5.9 refuses (TS5095: Bundler needs an ES module format). A compiler that refuses it
// gets the resolution it does accept for CommonJS on its command line: 5.9 `node10` (what
// test/pipeline/compile.test.ts's 5.9 reference uses), 7 `bundler` (it removed node10).
// The outputs are compared below.
/** @type {Record<string, string[]>} */
const CJS_FALLBACK = { 5.9: ['--moduleResolution', 'node10'], 7: ['--moduleResolution', 'bundler'] };
/**
 * What the run found of the compilers' behaviour, reported after the timings.
 * @type {{ config: string[], diagnostics: Array<ReturnType<typeof sameDiagnostics> & { exit: Array<number | null> }>,
 *   outputs: Array<{ kind: string } & Awaited<ReturnType<typeof compareTrees>>>, incremental: Array<Awaited<ReturnType<typeof compareTrees>> & { emitted: boolean[] }>,
 *   watch: Array<{ compiler: string, saves: number, seen: number, extraCycles: number, diagnostics: Array<string | null>, missed?: string }>,
 *   shallow: Array<{ compiler: string, seen: boolean }> }}
 */
const checks = { config: [], diagnostics: [], outputs: [], watch: [], incremental: [], shallow: [] };
for (const c of COMPILERS) {
  const probe = join(TMP, `probe-cjs-${c.name}`);
  const asIs = await tsc(c, '-p', 'tsconfig.cjs.json', '--outDir', probe);
  if (asIs.code !== 0) {
    const error = diagnostics(asIs.stdout).join(' ') || asIs.stdout.trim() || asIs.stderr.trim();
    checks.config.push(
      `TS ${c.version} refuses tsconfig.cjs.json as it is (exit ${asIs.code}): ${error}; timed and compared with \`${CJS_FALLBACK[c.name].join(' ')}\``,
    );
    c.cjsArgs = CJS_FALLBACK[c.name];
  } else checks.config.push(`TS ${c.version} compiles tsconfig.cjs.json as it is`);
  await rm(probe, { recursive: true, force: true });
}

// ---- timings ------------------------------------------------------------------------

/** @typedef {{ ms: number } & Partial<Run>} Timing a command's run, or a time measured otherwise */
/** @type {Map<string, Timing[]>} */
const times = new Map(); // `${step}\0${compiler}` -> [{ ms, cpu }]
/** @type {(step: string, c: string, run: Timing) => void} */
const record = (step, c, run) => {
  const key = `${step}\0${c}`;
  times.set(key, [...(times.get(key) ?? []), run]);
  if (run.code !== undefined && run.code !== 0) process.exitCode = 1;
  if (run.code !== undefined && run.code !== 0)
    console.error(`  ${step} (TS ${c}) exited ${run.code}:\n${`${run.stdout}${run.stderr}`.trim().split('\n').slice(0, 10).join('\n')}`);
};

async function compile(c) {
  const out = join(DIR, 'out', c.name);
  await rm(out, { recursive: true, force: true });
  record('compile: ESM (tsconfig.build.json)', c.name, await tsc(c, '-p', 'tsconfig.build.json', '--outDir', join(out, 'esm')));
  record('compile: CommonJS (tsconfig.cjs.json)', c.name, await tsc(c, '-p', 'tsconfig.cjs.json', '--outDir', join(out, 'cjs'), ...c.cjsArgs));
}

async function incremental(c, round) {
  const out = join(DIR, 'inc', c.name);
  await rm(out, { recursive: true, force: true });
  const args = ['-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', join(out, 'build.tsbuildinfo'), '--outDir', join(out, 'esm')];
  record('incremental: first build', c.name, await tsc(c, ...args));
  await writeFile(CORE, edited(`export const benchIncremental = ${round};`));
  record('incremental: rebuild after a one-file edit', c.name, await tsc(c, ...args));
  await writeFile(CORE, CORE_TEXT);
}

/**
 * The compile the build runs (pipeline/compile.mjs: TS 7's `tsc`, both projects at once in
 * two processes, into a scratch folder swapped in for dist/). It keeps no incremental
 * state, so both rows are whole compiles: one with no dist/, one after a one-file edit.
 */
async function compileScript(round) {
  const c7 = COMPILERS[1];
  await rm(join(DIR, 'dist'), { recursive: true, force: true });
  record('pipeline/compile.mjs, no dist/ (TS 7, both outputs, two processes)', c7.name, await exec([process.execPath, 'pipeline/compile.mjs']));
  await writeFile(CORE, edited(`export const benchEdit = ${round};`));
  record('pipeline/compile.mjs, after a one-file edit (a whole compile)', c7.name, await exec([process.execPath, 'pipeline/compile.mjs']));
  await writeFile(CORE, CORE_TEXT);
}

/**
 * A cycle the watcher printed: its text since the previous summary and its error count.
 * @typedef {{ errors: number, text: string }} Cycle
 */
/**
 * `tsc --watch` in `cwd`: what it printed, its next summary after an offset, stop().
 * @param {{ name: string, tsc: string }} c
 * @param {string} cwd
 */
function startWatch(c, cwd, project = 'tsconfig.json') {
  const child = spawn(process.execPath, [c.tsc, '-p', project, '--watch', '--preserveWatchOutput', '--pretty', 'false'], {
    cwd,
    env: ENV,
    detached: true, // its own process group: TS 7's launcher starts the native compiler as a child
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { out: '', summary, stop };
  /** @type {Set<() => void>} */
  const waiters = new Set();
  /** @param {string} chunk */
  const onData = (chunk) => {
    state.out += chunk;
    for (const w of waiters) w();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const closed = new Promise((resolve) => child.on('close', resolve));
  /**
   * Resolves with the first cycle printed after offset `from` that `wanted` accepts (its
   * text: what the watcher printed since the previous summary, and its error count), with
   * how many cycles it printed before that one; or null at the time-out.
   * @param {number} from
   * @param {(cycle: Cycle) => boolean} [wanted]
   * @returns {Promise<(Cycle & { at: number, skipped: number }) | null>}
   */
  function summary(from, wanted = () => true, timeoutMs = 60_000) {
    return new Promise((resolve) => {
      const check = () => {
        const re = /Found (\d+) errors?\. Watching for file changes\./g;
        const text = state.out.slice(from);
        let last = 0;
        let skipped = 0;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          const cycle = { errors: Number(m[1]), text: text.slice(last, m.index) };
          last = m.index + m[0].length;
          if (!wanted(cycle)) {
            skipped++;
            continue;
          }
          waiters.delete(check);
          clearTimeout(timer);
          resolve({ at: performance.now(), ...cycle, skipped });
          return;
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(null);
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }
  async function stop() {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGTERM');
    } catch {}
    await closed;
  }
  return state;
}
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `tsc --watch` over tsconfig.json: start, then `SAVES` pairs of saves of src/core.ts: one
 * that adds an error naming the save (so its report cannot be mistaken for another
 * cycle's), and the fix, to the next "Found 0 errors". Each save is timed to its report.
 */
async function watch(c, round) {
  const start = performance.now();
  const w = startWatch(c, DIR);
  /**
   * A save timed to its report, or what the watcher printed when it never reported it.
   * @type {(text: string, wanted: (cycle: Cycle) => boolean) => Promise<{ ms: number, text: string, skipped: number, missed?: undefined } | { ms?: undefined, text?: undefined, missed: string }>}
   */
  const save = async (text, wanted) => {
    await pause(500);
    const from = w.out.length;
    const at = performance.now();
    await writeFile(CORE, text);
    const seen = await w.summary(from, wanted);
    return seen ? { ...seen, ms: seen.at - at } : { missed: w.out.slice(from).slice(-2000) };
  };
  try {
    const ready = await w.summary(0, undefined, 180_000);
    if (!ready) throw new Error(`TS ${c.name} --watch did not report within 3 min:\n${w.out}`);
    record('watch: start -> watching', c.name, { ms: ready.at - start });
    const saves = [];
    for (let i = 1; i <= SAVES; i++) {
      const marker = `save ${round}.${i}`;
      const broken = await save(edited(`export const benchSave: '${marker}' = 'x';`), (cycle) => cycle.text.includes(`"${marker}"`));
      const fixed = await save(CORE_TEXT, (cycle) => cycle.errors === 0);
      for (const result of [broken, fixed]) if (result.ms !== undefined) record('watch: save -> its report', c.name, { ms: result.ms });
      saves.push({ broken, fixed, diagnostic: broken.text ? diagnostics(broken.text).find((d) => d.includes(marker)) : undefined });
    }
    return saves;
  } finally {
    await writeFile(CORE, CORE_TEXT);
    await w.stop();
  }
}

/** A one-file project directly in the temporary folder (two levels below the root): is its edit seen? */
async function shallowWatch(c) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-typescript-shallow-'));
  try {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { noEmit: true, strict: true, types: [] }, include: ['*.ts'] }));
    await writeFile(join(dir, 'a.ts'), 'export const a = 1;\n');
    const w = startWatch(c, dir);
    try {
      if (!(await w.summary(0, undefined, 60_000))) return { compiler: c.name, seen: false };
      await pause(500);
      const from = w.out.length;
      await writeFile(join(dir, 'a.ts'), "export const a: number = 'x';\n");
      const seen = await w.summary(from, (cycle) => cycle.errors === 1, 15_000);
      return { compiler: c.name, seen: Boolean(seen) };
    } finally {
      await w.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const load = [loadavg()[0]];
const started = new Date();
/** @type {Record<string, Array<Awaited<ReturnType<typeof watch>>>>} */
const watchRuns = Object.fromEntries(COMPILERS.map((c) => [c.name, []]));
console.log(`TypeScript ${COMPILERS.map((c) => c.version).join(' vs ')}, ${ROUNDS} rounds, ${SAVES} saves per watch; copy in ${DIR}`);
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? COMPILERS : [...COMPILERS].reverse();
  for (const c of order) {
    const t0 = performance.now();
    await compile(c);
    record('typecheck (tsc -p tsconfig.json)', c.name, await tsc(c, '-p', 'tsconfig.json'));
    record('type tests (tsc --noEmit over test/types/*.test-d.ts)', c.name, await tsc(c, '-p', 'tsconfig.types.json'));
    await incremental(c, round);
    watchRuns[c.name].push(await watch(c, round));
    if (c.name === '7') await compileScript(round);
    load.push(loadavg()[0]);
    console.log(`round ${round}: TS ${c.version} done in ${((performance.now() - t0) / 1000).toFixed(1)} s (load average ${loadavg()[0].toFixed(1)})`);
  }
}

// ---- behaviour ----------------------------------------------------------------------

const [c5, c7] = COMPILERS;
// Outputs of the last round's compile, and of its incremental rebuild (both after the same edit).
for (const kind of ['esm', 'cjs']) {
  checks.outputs.push({ kind, ...(await compareTrees(join(DIR, 'out/5.9', kind), join(DIR, 'out/7', kind))) });
}
{
  const cmp = await compareTrees(join(DIR, 'inc/5.9/esm'), join(DIR, 'inc/7/esm'));
  const emitted = await Promise.all(
    COMPILERS.map((c) => readFile(join(DIR, 'inc', c.name, 'esm/src/core.d.ts'), 'utf8').then((t) => /benchIncremental/.test(t))),
  );
  checks.incremental.push({ ...cmp, emitted });
}

// Diagnostics: the project as it is, the type tests with every expected error unmarked, a
// deliberately broken type-test file.
const clean = await Promise.all(COMPILERS.map((c) => tsc(c, '-p', 'tsconfig.json')));
checks.diagnostics.push({
  ...sameDiagnostics('the workspace as it is (tsc -p tsconfig.json)', diagnostics(clean[0].stdout), diagnostics(clean[1].stdout)),
  exit: clean.map((r) => r.code),
});

const CLIENTS = join(DIR, 'test/types/clients.test-d.ts');
const clientsText = await readFile(CLIENTS, 'utf8');
const markers = clientsText.match(/@ts-expect-error/g)?.length ?? 0;
await writeFile(CLIENTS, clientsText.replaceAll('@ts-expect-error', '(expected error, unmarked)'));
const unmarked = [];
for (const c of COMPILERS) unmarked.push(await tsc(c, '-p', 'tsconfig.json'));
await writeFile(CLIENTS, clientsText);
checks.diagnostics.push({
  ...sameDiagnostics(
    `test/types/clients.test-d.ts with its ${markers} @ts-expect-error unmarked (tsc -p tsconfig.json)`,
    diagnostics(unmarked[0].stdout),
    diagnostics(unmarked[1].stdout),
  ),
  exit: unmarked.map((r) => r.code),
});

const BROKEN = join(DIR, 'test/types/broken.test-d.ts');
await writeFile(
  BROKEN,
  `import { expectTypeOf } from 'vitest';
import { createResourceManagerClient } from '../../src/index.js';

const arm = createResourceManagerClient({ baseUrl: 'https://management.example.com', token: 't' });
// @ts-expect-error: nothing is wrong on the next line, so this directive is unused
const fine: number = 1;
expectTypeOf(fine).toEqualTypeOf<string>();
void arm.GET('/no/such/path', {});
void arm.POST('/subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability', { params: { path: { subscriptionId: 's' } }, body: { name: 1 } });
`,
);
const broken = [];
for (const c of COMPILERS) broken.push(await tsc(c, '-p', 'tsconfig.types.json'));
await rm(BROKEN);
checks.diagnostics.push({
  ...sameDiagnostics(
    'a deliberately broken test/types/broken.test-d.ts (tsc -p tsconfig.types.json)',
    diagnostics(broken[0].stdout),
    diagnostics(broken[1].stdout),
  ),
  exit: broken.map((r) => r.code),
});

for (const c of COMPILERS) {
  const saves = watchRuns[c.name].flat();
  const seen = saves.flatMap((s) => [s.broken, s.fixed]).filter((r) => r.ms !== undefined);
  checks.watch.push({
    compiler: c.name,
    saves: saves.length * 2,
    seen: seen.length,
    extraCycles: seen.reduce((n, r) => n + r.skipped, 0),
    diagnostics: saves.map((s) => s.diagnostic?.replace(/save \d+\.\d+/, 'save N') ?? null),
    missed: saves.flatMap((s) => [s.broken, s.fixed]).find((r) => r.missed)?.missed,
  });
}
for (const c of COMPILERS) checks.shallow.push(await shallowWatch(c));
await rm(TMP, { recursive: true, force: true });

// ---- report -------------------------------------------------------------------------

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const figure = (runs, key = 'ms') => {
  const xs = runs.map((r) => r[key]).filter((x) => Number.isFinite(x));
  if (!xs.length) return '';
  const range = xs.length > 1 ? ` (${s(Math.min(...xs))}–${s(Math.max(...xs))})` : '';
  return `${s(median(xs))}${range}`;
};
const steps = [...new Set([...times.keys()].map((k) => k.split('\0')[0]))];
const stepOrder = (step) =>
  [
    'compile: ESM',
    'compile: CommonJS',
    'pipeline/compile.mjs, no dist/',
    'typecheck',
    'type tests',
    'incremental: first',
    'incremental: rebuild',
    'pipeline/compile.mjs, after a one-file edit',
    'watch: start',
    'watch: save',
  ].findIndex((p) => step.startsWith(p));
steps.sort((a, b) => stepOrder(a) - stepOrder(b));

console.log(
  `\n${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores, load average (1 min) ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the run`,
);
console.log(`median of ${ROUNDS} rounds (watch: ${ROUNDS * SAVES * 2} saves), range in brackets; CPU = user + system of the process and its children\n`);
console.log(`| Step | TS ${c5.version} wall | TS ${c5.version} CPU | TS ${c7.version} wall | TS ${c7.version} CPU | 5.9 / 7 (wall) |`);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const step of steps) {
  const a = times.get(`${step}\0${c5.name}`) ?? [];
  const b = times.get(`${step}\0${c7.name}`) ?? [];
  const ratio = a.length && b.length ? `${(median(a.map((r) => r.ms)) / median(b.map((r) => r.ms))).toFixed(1)}x` : '';
  const flags = COMPILERS.filter((c) => c.cjsArgs.length).map((c) => `TS ${c.name}: \`${c.cjsArgs.join(' ')}\``);
  const label = step.startsWith('compile: CommonJS') && flags.length ? `${step} (${flags.join(', ')})` : step;
  console.log(`| ${label} | ${figure(a)} | ${figure(a, 'cpu')} | ${figure(b)} | ${figure(b, 'cpu')} | ${ratio} |`);
}

console.log('\nBehaviour:');
for (const line of checks.config) console.log(`- ${line}`);
const bin = await readlink(join(ROOT, 'node_modules/.bin/tsc')).catch(() => 'missing');
console.log(`- node_modules/.bin/tsc (what vitest's type tests spawn) -> ${bin}${bin.includes('typescript-7') ? ' (TS 7: run npm ci to restore 5.9)' : ''}`);
for (const d of checks.diagnostics) {
  console.log(
    `- diagnostics, ${d.label}: 5.9 ${d.count[0]} (exit ${d.exit[0]}), 7 ${d.count[1]} (exit ${d.exit[1]}): ${d.same ? 'identical' : `${d.identical} identical, ${d.wording.length} same place and code with other wording, ${d.code.length} same place with another code, ${d.onlyA.length + d.onlyB.length} reported by one only`}`,
  );
  const show = (d) => d.replaceAll('\n', ' / ').replace(/^(.{300}).+$/, '$1…');
  for (const [x, y] of d.code) console.log(`    another code:  5.9 ${show(x)}\n                   7   ${show(y)}`);
  for (const [x, y] of d.wording.slice(0, 3)) console.log(`    other wording: 5.9 ${show(x)}\n                   7   ${show(y)}`);
  for (const x of d.onlyA) console.log(`    only 5.9: ${show(x)}`);
  for (const x of d.onlyB) console.log(`    only 7:   ${show(x)}`);
}
for (const o of checks.outputs) {
  console.log(
    `- ${o.kind === 'esm' ? 'ESM' : 'CommonJS'} output: ${o.files} files (${o.dts} .d.ts, ${o.js} .js), ${o.identical} identical${o.differ.length ? `, differ: ${o.differ.join(', ')}` : ''}${o.only.length ? `, only in one: ${o.only.join(', ')}` : ''}`,
  );
}
for (const i of checks.incremental) {
  console.log(
    `- incremental rebuild after the edit: the edit emitted by 5.9 ${i.emitted[0]}, by 7 ${i.emitted[1]}; outputs ${i.identical} of ${i.files} identical${i.differ.length ? `, differ: ${i.differ.join(', ')}` : ''}`,
  );
}
for (const w of checks.watch) {
  console.log(
    `- watch, TS ${w.compiler}: ${w.seen} of ${w.saves} saves reported (every other one adds an error naming the save, the next removes it); ${w.extraCycles} other cycles printed in between`,
  );
  if (w.missed)
    console.log(
      `    last output after a save it did not report:\n${w.missed
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}`,
    );
}
const [d5, d7] = checks.watch.map((w) => w.diagnostics);
console.log(
  `- watch, the error each compiler reported for the same save: ${d5.every((d, i) => d && d === d7[i]) ? `identical in all ${d5.length} (${d5[0]})` : `DIFFERENT: ${JSON.stringify(d5)} vs ${JSON.stringify(d7)}`}`,
);
for (const w of checks.shallow)
  console.log(
    `- watch, a project directly in ${tmpdir()} (two levels below the root), TS ${w.compiler}: ${w.seen ? 'sees the edit' : 'never sees the edit (no error printed either)'}`,
  );

const sameDiag = checks.diagnostics.every((d) => d.same && d.exit[0] === d.exit[1]);
console.log(`\nTS 7 as \`npm run typecheck\`: ${sameDiag ? 'diagnostics and exit codes identical' : 'diagnostics or exit codes differ (above)'}`);
