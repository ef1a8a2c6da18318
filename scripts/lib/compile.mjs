// Compiles the clients (tsconfig.build.json: src/ and generated/) into dist/ with the
// TypeScript API, in-process. The compiler stays warm between calls: each compile starts
// from the previous one (a builder program: unchanged files are neither parsed, checked
// nor emitted again), which is what lets `npm run dev` keep dist/ current after every save.
// Output goes to a fresh folder that is swapped in for dist/ only when the compile passed,
// so dist/ holds exactly what the current sources produce and is never half-written.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import ts from 'typescript';
import { ROOT } from './apis.mjs';
import { scratchDirFor, swapInDir } from './files.mjs';

const DIST = join(ROOT, 'dist');

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

  function build(project) {
    // Read per call: a new document adds files under generated/ that the config includes.
    const config = ts.getParsedCommandLineOfConfigFile(project, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new CompileFailed(`${relative(ROOT, project)}: cannot be read`);
    const previous = state.get(project);
    const builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(config.fileNames, config.options, hostFor(project, config.options), previous?.builder);
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
    builder.emit(undefined, (file, text, _bom, _onError, sources) => {
      outputs.set(relative(outDir, file), { text, source: sources?.[0]?.fileName });
    });
    // Outputs of a source that is no longer part of the project (a removed document) go.
    const present = new Set(builder.getSourceFiles().map((f) => f.fileName));
    for (const [file, { source }] of outputs) if (source && !present.has(source)) outputs.delete(file);
    return { project, builder, outputs, outDir, commonjs: config.options.module === ts.ModuleKind.CommonJS };
  }

  /**
   * Compiles into dist/. With `{ write: false }` it only brings the compiler up to date
   * (`npm run dev` does this at start, so the first save does not pay a cold compile).
   */
  return async function compile({ write = true } = {}) {
    const builds = projects.map(build);
    if (!write) {
      for (const { project, builder, outputs } of builds) state.set(project, { builder, outputs });
      return { files: 0 };
    }
    const scratch = await scratchDirFor(DIST);
    const writes = [];
    try {
      for (const { outputs, outDir, commonjs } of builds) {
        // outDir is under dist/ (dist, dist/cjs): keep that layout inside the scratch folder.
        const base = join(scratch, relative(DIST, outDir));
        for (const [file, { text }] of outputs) {
          const target = join(base, file);
          writes.push(mkdir(dirname(target), { recursive: true }).then(() => writeFile(target, text)));
        }
        if (commonjs) writes.push(mkdir(base, { recursive: true }).then(() => writeFile(join(base, 'package.json'), '{"type":"commonjs"}\n')));
      }
      await Promise.all(writes);
      await swapInDir(scratch, DIST);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    // Only a compile that reached dist/ becomes the base of the next one.
    for (const { project, builder, outputs } of builds) state.set(project, { builder, outputs });
    return { files: writes.length };
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
