// TypeScript 7's tsc, its clean runs shared between the Node lines of one CI run.
//
// `.ci/run` runs the suite on Node 20, 22, 24 and 26, and every line compiles the same
// sources with the same native compiler: a Go binary that Node only starts, whose report
// and emitted files are a function of its version, its arguments and the files it reads,
// not of the Node line. When CHECK_VERDICTS is set (a fresh folder per `.ci/run`, as for
// the type-check verdicts of test/helpers/verdicts.ts), vitest.config.ts points the
// pipeline's compiler command (PROVIDER_API_TSC7, pipeline/tsc7.mjs) here. Each run is keyed
// by the compiler's version, the lockfile of the node_modules it resolves from, its
// arguments (paths made relative to the folder it runs in, a scratch outDir's random name
// left out) and every source file under that folder (path and bytes). The first line runs
// the real compiler and records a clean run (exit 0) with the files it emitted
// (`--listEmittedFiles`); a later line with the same key byte for byte writes those files
// where its own arguments put them and prints the same report, in place of compiling again.
// What runs on every line is everything Node does: the pipeline's compile step, its scratch
// folder and swap, the builds, the programs compiled and run, the mock.
//
// Not shared (the real compiler runs, on every line): a failing run; a run that may read
// from outside its folder as far as can be seen (a path argument outside it, a symlink
// other than node_modules, a tsconfig naming `../` or an absolute path, no node_modules
// of its own); a run whose sources changed while it compiled. Outside `.ci/run` (no CHECK_VERDICTS) it only runs the compiler.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { installedTsc7 } from '../../pipeline/tsc7.mjs';

const FOLDER = process.env.CHECK_VERDICTS;
const SOURCE = /\.[cm]?[jt]sx?$|\.json$/;
/** A scratch outDir's own part (pipeline/compile-dist.mjs: lib/files.mjs scratchDirFor). */
const SCRATCH = /\.tmp-[0-9]+-[0-9a-f]+/g;

const cwd = process.cwd();
const args = process.argv.slice(2);
const tsc = installedTsc7();

/**
 * Every source file under `dir` (relative path -> bytes), or null when something there
 * may lead outside it (a symlink other than the top node_modules).
 * @param {string} dir
 * @returns {Map<string, Buffer> | null}
 */
function sources(dir) {
  /** @type {Map<string, Buffer>} */
  const files = new Map();
  /** @param {string} at */
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      const rel = relative(dir, path);
      if (at === dir && ['node_modules', '.git', '.cache', 'dist'].includes(entry.name)) continue;
      if (at === dir && entry.name.startsWith('dist.tmp-')) continue;
      if (entry.isSymbolicLink()) return false;
      if (entry.isDirectory()) {
        if (walk(path) === false) return false;
      } else if (entry.isFile() && SOURCE.test(entry.name)) files.set(rel, readFileSync(path));
    }
    return true;
  };
  return walk(dir) ? files : null;
}

/** The run's key, or null when it is not shared. */
function keyOf() {
  if (!FOLDER) return null;
  const normalized = [];
  for (const arg of args) {
    if (!isAbsolute(arg)) {
      if (arg.split(/[\\/]/).includes('..')) return null;
      normalized.push(arg.replace(SCRATCH, '.tmp'));
      continue;
    }
    const rel = relative(cwd, arg);
    if (rel.startsWith('..') || isAbsolute(rel)) return null;
    normalized.push(`./${rel.split(sep).join('/')}`.replace(SCRATCH, '.tmp'));
  }
  const files = sources(cwd);
  if (!files) return null;
  for (const [path, bytes] of files) {
    if (/(^|\/)tsconfig[^/]*\.json$/.test(path) && /"\/|(^|[^.])\.\.([\\/]|")/.test(bytes.toString('utf8'))) return null;
  }
  // What resolves from node_modules (the compiler's own package among it) is pinned by the
  // lockfile npm wrote there; a folder without node_modules of its own resolves from
  // further up, which is not looked at, so it is not shared.
  const lock = join(cwd, 'node_modules', '.package-lock.json');
  if (!existsSync(lock)) return null;
  const hash = createHash('sha256');
  hash.update(`${tsc.file} ${tsc.args.join(' ')}\0`);
  hash.update(readFileSync(realpathSync(lock))).update('\0');
  hash.update(normalized.join('\0')).update('\0\0');
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(path).update('\0').update(bytes).update('\0');
  return hash.digest('hex');
}

/** Where the arguments put the output (--outDir, relative to cwd), or null. */
function outDirOf() {
  const at = args.indexOf('--outDir');
  return at >= 0 && args[at + 1] ? resolve(cwd, args[at + 1]) : null;
}

/** @param {string} file  an emitted file: its name in a record (relative to outDir or cwd), or null outside both */
function recordName(file) {
  const outDir = outDirOf();
  if (outDir && !relative(outDir, file).startsWith('..')) return `outDir/${relative(outDir, file)}`;
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? null : `cwd/${rel}`;
}

/** @param {string} name */
function placeOf(name) {
  const outDir = outDirOf();
  if (name.startsWith('outDir/')) {
    if (!outDir) throw new Error(`shared-tsc: the record has ${name} but the arguments name no --outDir`);
    return join(outDir, name.slice('outDir/'.length));
  }
  return join(cwd, name.slice('cwd/'.length));
}

const key = keyOf();
const record = key && join(/** @type {string} */ (FOLDER), `tsc-${key}.json`);

if (record && existsSync(record)) {
  /** @type {{ stdout: string, stderr: string, files: [string, string][] }} */
  const { stdout, stderr, files } = JSON.parse(readFileSync(record, 'utf8'));
  for (const [name, base64] of files) {
    const place = placeOf(name);
    mkdirSync(dirname(place), { recursive: true });
    writeFileSync(place, Buffer.from(base64, 'base64'));
  }
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = 0;
} else {
  // The real compiler, stopped with this process: a SIGTERM (the pipeline's abort) is passed
  // on, and this process ends only when tsc is gone, so nothing it writes lands afterwards.
  const child = spawn(tsc.file, [...tsc.args, ...args, ...(record ? ['--listEmittedFiles'] : [])], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  // A run that was asked to stop is never recorded, even when tsc had already finished: its
  // caller aborted it, and a later line replaying it at once would change what that caller's
  // test saw (a compile that outlives a newer save in `npm run dev`).
  let stopped = false;
  for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT']))
    process.on(signal, () => {
      stopped = true;
      child.kill(signal);
    });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  child.on('error', (error) => {
    process.stderr.write(`shared-tsc: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('close', (code, signal) => {
    const emitted = stdout.split('\n').filter((line) => line.startsWith('TSFILE: '));
    const report = stdout
      .split('\n')
      .filter((line) => !line.startsWith('TSFILE: '))
      .join('\n');
    process.stdout.write(report);
    process.stderr.write(stderr);
    if (signal) {
      // Ends as tsc did: by the same signal.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exitCode = code ?? 1;
    // Recorded only when clean and when the sources read the same after the compile.
    if (!record || stopped || code !== 0 || keyOf() !== key) return;
    /** @type {[string, string][]} */
    const files = [];
    for (const line of emitted) {
      const file = line.slice('TSFILE: '.length).trim();
      const name = recordName(file);
      if (!name) return;
      files.push([name, readFileSync(file).toString('base64')]);
    }
    mkdirSync(/** @type {string} */ (FOLDER), { recursive: true });
    const scratch = `${record}.tmp-${process.pid}`;
    writeFileSync(scratch, JSON.stringify({ stdout: report, stderr, files, args }));
    renameSync(scratch, record);
  });
}
