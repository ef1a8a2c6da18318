// Compiles the clients (src/ and generated/) into dist/ with TypeScript 7, the native
// compiler (the `typescript-7` package, its `tsc` command), one process per output:
//   tsconfig.build.json -> dist/      ES modules and declarations
//   tsconfig.cjs.json   -> dist/cjs/  CommonJS and declarations, with its own {"type":"commonjs"}
// Both run at once, each into its part of one fresh folder, which is swapped in for dist/
// only when both passed: dist/ holds exactly what the current sources produce and is never
// half-written, and a failed compile leaves it as it was.
//
// Every compile is a whole one. TypeScript 7 compiles and checks both outputs in less
// time than TypeScript 5.9's API took to resume its saved state after a one-line edit
// (bench/README.md, "TypeScript 5.9 and 7"), so there is no saved compiler state to keep
// in step with dist/: nothing of an earlier or hand-edited dist/ can survive a compile.
// TypeScript 5.9 stays where its API is needed (openapi-typescript, the tests' in-process
// type checks; docs/dependencies.md).
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchDirFor, swapInDir } from '../lib/files.mjs';
import { runTsc7 } from './tsc7.mjs';
import { filesUnder } from '../lib/walk.mjs';

/** The projects, and where under dist/ each one's outDir (dist, dist/cjs) puts its files. */
const PROJECTS = [
  { config: 'tsconfig.build.json', under: '' },
  { config: 'tsconfig.cjs.json', under: 'cjs', commonjs: true },
];

export class CompileFailed extends Error {}

/**
 * Runs tsc on one project of the workspace at `root` into `outDir`; resolves when clean,
 * rejects with its report.
 * @param {string} root
 * @param {string} config
 * @param {string} outDir
 * @param {AbortSignal} [signal]
 */
async function tsc(root, config, outDir, signal) {
  let result;
  try {
    // One thread each: the two projects compile at once, which keeps two cores busy; TypeScript
    // 7's parallel checkers took more CPU for the pair (2.0-2.4 s against 1.8-2.0 s, this
    // workspace, 2 cores) and no less time.
    result = await runTsc7(['-p', config, '--outDir', outDir, '--singleThreaded'], { cwd: root, signal });
  } catch (error) {
    throw new CompileFailed(`compile: ${error.message}`);
  }
  if (result.signal) throw new CompileFailed(`${config}: tsc was stopped (${result.signal})`);
  if (result.code !== 0) throw new CompileFailed(result.report.replaceAll(`${root}/`, '') || `${config}: tsc exited with ${result.code} and said nothing`);
}

// Not fs.promises.readdir's `recursive`: it follows symlinked folders on every Node line (lib/walk.mjs).
function countFiles(dir) {
  return filesUnder(dir).length;
}

/**
 * Returns compile(): compiles every project present (a workspace copy may hold only
 * tsconfig.build.json) of the workspace at `root` into its dist/, swapped in whole;
 * resolves to { files } (how many it wrote), or rejects with CompileFailed (tsc's report,
 * file(line,col): error TS…, or that `signal` stopped it) and dist/ untouched. Calls are
 * not meant to overlap; `npm run dev` runs one at a time.
 * @param {{ root: string, projects?: typeof PROJECTS }} options
 * @returns {(options?: { signal?: AbortSignal }) => Promise<{ files: number }>}
 */
export function createCompiler({ root, projects = PROJECTS.filter(({ config }) => existsSync(join(root, config))) }) {
  const dist = join(root, 'dist');
  // The 5.9 compiler's saved state (build info and the hash of the dist/ it described),
  // left by a build before dist/ moved to TypeScript 7: nothing reads it any more. Once
  // per compiler, not per compile (`npm run dev` compiles on every save).
  let leftovers;
  return async function compile({ signal } = {}) {
    if (!projects.length) throw new CompileFailed('compile: no tsconfig.build.json here, nothing to compile');
    leftovers ??= rm(join(root, '.cache/provider-api/tsc'), { recursive: true, force: true });
    await leftovers;
    const scratch = await scratchDirFor(dist);
    try {
      const results = await Promise.allSettled(projects.map(({ config, under }) => tsc(root, config, join(scratch, under), signal)));
      const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
      if (failed.length) {
        // Both projects compile the same sources, so most errors come twice: each line once.
        const lines = failed.flatMap((e) => (e instanceof CompileFailed ? e.message : String(e)).split('\n'));
        throw new CompileFailed([...new Set(lines)].join('\n'));
      }
      for (const { under, commonjs } of projects) if (commonjs) await writeFile(join(scratch, under, 'package.json'), '{"type":"commonjs"}\n');
      const files = countFiles(scratch);
      await swapInDir(scratch, dist);
      return { files };
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
  };
}
