// Compiles the clients (tsconfig.build.json: src/ and generated/) into dist/ with the
// TypeScript API, in-process. The compiler stays warm between calls: each compile starts
// from the previous one (a builder program: unchanged files are neither parsed, checked
// nor emitted again), which is what lets `npm run dev` keep dist/ current after every save.
// Output goes to a fresh folder that is swapped in for dist/ only when the compile passed,
// so dist/ holds exactly what the current sources produce and is never half-written.
// Across processes (`npm run build` after an edit) the compiler resumes from TypeScript's
// build info, kept in .cache/ with the hash of the dist/ it describes: it is used only
// while dist/ is still exactly that tree, so a dist/ edited, deleted or written by an
// older compile is compiled afresh, never patched.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import ts from 'typescript';
import { ROOT } from './apis.mjs';
import { CACHE } from './cache.mjs';
import { scratchDirFor, swapInDir, writeFileAtomic } from './files.mjs';

const DIST = join(ROOT, 'dist');
const BUILD_INFO = join(CACHE, 'tsc');
const sha = (text) => createHash('sha256').update(text).digest('hex');

/** One hash of a tree of files (path -> text), the same whether read from disk or memory. */
const treeHash = (files) => sha([...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, text]) => `${path}\0${sha(text)}`).join('\n'));

async function distOnDisk() {
  if (!existsSync(DIST)) return new Map();
  const files = new Map();
  for (const entry of await readdir(DIST, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(relative(DIST, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

export class CompileFailed extends Error {}

/**
 * Compiles every project (the ES module build, tsconfig.build.json -> dist/, and the
 * CommonJS build, tsconfig.cjs.json -> dist/cjs/ with its own {"type":"commonjs"}) into
 * one fresh folder, swapped in for dist/ only when all passed.
 */
export function createCompiler({
  projects = [join(ROOT, 'tsconfig.build.json'), join(ROOT, 'tsconfig.cjs.json')].filter((p) => existsSync(p)),
} = {}) {
  // Per project: the builder of the last compile that passed, and every file it has
  // emitted so far (output path -> text, and the source it came from). A builder re-checks
  // and re-emits only the files a change affects, so after a save the compile costs what
  // the changed types cost, not what all of them cost; the rest comes from `outputs`.
  const state = new Map();
  // Per project, source files by name, reused while their text is unchanged: the standard
  // library and the unchanged types are parsed once per process, not once per compile.
  const parsedBy = new Map();

  function hostFor(project, options) {
    if (!parsedBy.has(project)) parsedBy.set(project, new Map());
    const parsed = parsedBy.get(project);
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const text = host.readFile(fileName);
      const cached = parsed.get(fileName);
      if (text !== undefined && cached?.text === text && !shouldCreate) return cached.file;
      const file = read(fileName, languageVersion, onError, shouldCreate);
      if (file) {
        file.version = createHash('sha1').update(file.text).digest('hex');
        parsed.set(fileName, { text: file.text, file });
      }
      return file;
    };
    return host;
  }

  /**
   * The state a compile in an earlier process left for `project`: its builder (from the
   * build info) and its outputs (from dist/), when dist/ is the tree that build info
   * describes and holds every output of the current sources.
   */
  function resumed(project, config, options, host, disk) {
    if (!disk.matches) return undefined;
    const old = ts.readBuilderProgram(options, host); // undefined after a TypeScript upgrade
    if (!old) return undefined;
    const outDir = config.options.outDir ?? DIST;
    const outputs = new Map();
    for (const source of config.fileNames) {
      for (const output of ts.getOutputFileNames(config, source, !ts.sys.useCaseSensitiveFileNames)) {
        const text = disk.files.get(relative(DIST, output));
        if (text === undefined) return undefined;
        outputs.set(relative(outDir, output), { text, source });
      }
    }
    return { builder: old, outputs };
  }

  function build(project, disk) {
    // Read per call: a new document adds files under generated/ that the config includes.
    const config = ts.getParsedCommandLineOfConfigFile(project, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new CompileFailed(`${relative(ROOT, project)}: cannot be read`);
    const buildInfo = join(BUILD_INFO, `${basename(project, '.json')}.tsbuildinfo`);
    const options = { ...config.options, incremental: true, tsBuildInfoFile: buildInfo };
    const host = hostFor(project, options);
    const kept = state.get(project);
    const previous = kept ?? resumed(project, config, options, host, disk);
    const from = kept ? 'memory' : previous ? 'saved' : 'fresh';
    const builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(config.fileNames, options, host, previous?.builder);
    const diagnostics = [
      ...builder.getConfigFileParsingDiagnostics(),
      ...builder.getOptionsDiagnostics(),
      ...builder.getGlobalDiagnostics(),
      ...builder.getSyntacticDiagnostics(),
      ...builder.getSemanticDiagnostics(),
    ];
    if (diagnostics.length) {
      const text = ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      });
      // The last good builder stays the base: the next compile re-emits all since then.
      throw new CompileFailed(text.replaceAll(`${ROOT}/`, '').trim());
    }
    const outDir = config.options.outDir ?? DIST;
    const outputs = new Map(previous?.outputs);
    let info;
    builder.emit(undefined, (file, text, _bom, _onError, sources) => {
      if (file === buildInfo) info = text;
      else outputs.set(relative(outDir, file), { text, source: sources?.[0]?.fileName });
    });
    // Outputs of a source that is no longer part of the project (a removed document) go.
    const present = new Set(builder.getSourceFiles().map((f) => f.fileName));
    for (const [file, { source }] of outputs) if (source && !present.has(source)) outputs.delete(file);
    return { project, builder, outputs, outDir, buildInfo, info, from, commonjs: config.options.module === ts.ModuleKind.CommonJS };
  }

  /** dist/ as it is on disk, and whether it is the tree the saved build info describes. */
  async function diskState() {
    if (state.size) return { matches: false }; // this process has its own state
    const recorded = await readFile(join(BUILD_INFO, 'dist.sha256'), 'utf8').catch(() => undefined);
    if (!recorded) return { matches: false };
    const files = await distOnDisk();
    return { matches: treeHash(files) === recorded.trim(), files };
  }

  /**
   * Compiles into dist/. With `{ write: false }` it only brings the compiler up to date
   * (`npm run dev` does this at start, so the first save does not pay a cold compile).
   */
  return async function compile({ write = true } = {}) {
    const disk = await diskState();
    const builds = projects.map((project) => build(project, disk));
    if (!write) {
      for (const { project, builder, outputs } of builds) state.set(project, { builder, outputs });
      return { files: 0, from: builds.map((b) => b.from) };
    }
    // dist/ as a tree: outDir is under dist/ (dist, dist/cjs), and the CommonJS build has
    // its own {"type":"commonjs"}.
    const tree = new Map();
    for (const { outputs, outDir, commonjs } of builds) {
      const under = relative(DIST, outDir);
      for (const [file, { text }] of outputs) tree.set(join(under, file), text);
      if (commonjs) tree.set(join(under, 'package.json'), '{"type":"commonjs"}\n');
    }
    const scratch = await scratchDirFor(DIST);
    const writes = [];
    try {
      for (const [file, text] of tree) {
        const target = join(scratch, file);
        writes.push(mkdir(dirname(target), { recursive: true }).then(() => writeFile(target, text)));
      }
      await Promise.all(writes);
      await swapInDir(scratch, DIST);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    // The build info goes with the hash of the dist/ it describes, after dist/ is in place
    // (the hash last: killed before it, the next process compiles afresh).
    await rm(join(BUILD_INFO, 'dist.sha256'), { force: true });
    await mkdir(BUILD_INFO, { recursive: true });
    for (const { buildInfo, info } of builds) if (info !== undefined) await writeFileAtomic(buildInfo, info);
    await writeFileAtomic(join(BUILD_INFO, 'dist.sha256'), `${treeHash(tree)}\n`);
    // Only a compile that reached dist/ becomes the base of the next one.
    for (const { project, builder, outputs } of builds) state.set(project, { builder, outputs });
    // `from`, per project: where the compile started ("memory": this process's last compile,
    // "saved": the build info of an earlier process, "fresh": nothing).
    return { files: writes.length, from: builds.map((b) => b.from) };
  };
}

/**
 * The same warm compiler in a worker thread, for `npm run dev`: a compile holds its
 * thread for seconds (type-checking is synchronous), and on the main thread it would hold
 * back the next save's types and docs page. Calls are answered in order.
 */
export function createCompilerWorker() {
  const worker = new Worker(new URL(import.meta.url), { workerData: { compileWorker: true } });
  const waiting = [];
  worker.on('message', (message) => {
    const { resolve, reject } = waiting.shift();
    if (message.error) reject(new CompileFailed(message.error));
    else resolve(message.result);
  });
  worker.on('error', (error) => {
    for (const { reject } of waiting.splice(0)) reject(error);
  });
  const compile = (options = {}) =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      worker.postMessage(options);
    });
  compile.close = () => worker.terminate();
  return compile;
}

if (!isMainThread && workerData?.compileWorker) {
  const compile = createCompiler();
  // One compile at a time, in the order asked: each starts from the state the last left.
  let queue = Promise.resolve();
  parentPort.on('message', (options) => {
    queue = queue.then(async () => {
      try {
        parentPort.postMessage({ result: await compile(options) });
      } catch (error) {
        parentPort.postMessage({ error: error.message });
      }
    });
  });
}
