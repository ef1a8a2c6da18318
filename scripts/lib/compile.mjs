// Compiles the clients (tsconfig.build.json: src/ and generated/) into dist/ with the
// TypeScript API, in-process. The compiler stays warm between calls: each compile reuses
// the previous program (the standard library and unchanged files are not parsed again),
// which is what lets `npm run dev` keep dist/ current after every save.
// Output goes to a fresh folder that is swapped in for dist/ only when the compile passed,
// so dist/ holds exactly what the current sources produce and is never half-written.
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
  const previous = new Map();

  function programOf(project) {
    // Read per call: a new document adds files under generated/ that the config includes.
    const config = ts.getParsedCommandLineOfConfigFile(project, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new CompileFailed(`${relative(ROOT, project)}: cannot be read`);
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, oldProgram: previous.get(project) });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    if (diagnostics.length) {
      const text = ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      });
      throw new CompileFailed(text.replaceAll(`${ROOT}/`, '').trim());
    }
    previous.set(project, program);
    return { program, outDir: config.options.outDir ?? DIST, commonjs: config.options.module === ts.ModuleKind.CommonJS };
  }

  return async function compile() {
    const builds = projects.map(programOf);
    const scratch = await scratchDirFor(DIST);
    const writes = [];
    try {
      for (const { program, outDir, commonjs } of builds) {
        // outDir is under dist/ (dist, dist/cjs): keep that layout inside the scratch folder.
        const base = join(scratch, relative(DIST, outDir));
        program.emit(undefined, (file, text) => {
          const target = join(base, relative(outDir, file));
          writes.push(mkdir(dirname(target), { recursive: true }).then(() => writeFile(target, text)));
        });
        if (commonjs) writes.push(mkdir(base, { recursive: true }).then(() => writeFile(join(base, 'package.json'), '{"type":"commonjs"}\n')));
      }
      await Promise.all(writes);
      await swapInDir(scratch, DIST);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
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
  const compile = () =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      worker.postMessage('compile');
    });
  compile.close = () => worker.terminate();
  return compile;
}

if (!isMainThread && workerData?.compileWorker) {
  const compile = createCompiler();
  parentPort.on('message', async () => {
    try {
      parentPort.postMessage({ result: await compile() });
    } catch (error) {
      parentPort.postMessage({ error: error.message });
    }
  });
}
