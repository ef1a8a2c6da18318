// `tsc -p <dir>` in this test process, for tests that type-check many small projects
// against the same declarations (the consumer variants, the strict no-DOM settings, the
// two-versions fixture, the compile test's reference emit). Each project gets its own program, with its own compiler options
// and module resolution, as its own tsc would; what they share is the parsed and bound
// declaration files (lib.*.d.ts, @types/node, the package's .d.ts), through TypeScript's
// DocumentRegistry: the mechanism the language service uses to share source files between
// projects. The registry keys each file by its path and by the compiler options that change
// how a file is parsed or bound, so two projects share a file only where their own tsc
// would have read it the same way. Parsing lib.dom.d.ts and @types/node once instead of
// once per project is most of what a tsc process costs here (docs/testing.md).
//
// TypeScript 5.9 by path, as `npm run typecheck` uses: node_modules/.bin/tsc may be either
// compiler's, and TypeScript 7 (test/helpers/tsc7.ts) has no API.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type * as TS from 'typescript';

const ts = createRequire(import.meta.url)(join(import.meta.dirname, '../../node_modules/typescript')) as typeof TS;
const registry = ts.createDocumentRegistry(true);

export interface TypecheckResult {
  /** tsc's report, as `tsc -p` prints it without colour; '' when clean. */
  output: string;
  /** True when the project emits nothing (noEmit, or an emit TypeScript refused). */
  emitSkipped: boolean;
}

function format(diagnostics: readonly TS.Diagnostic[], cwd: string): string {
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => cwd, getNewLine: () => '\n' });
}

export interface TypecheckOptions {
  /**
   * Declaration files whose own contents are not checked (their types are still used to
   * check every other file): `skipLibCheck` for some packages only, as `skipDefaultLibCheck`
   * is for TypeScript's lib. Default: every file the project's options say to check.
   */
  notChecked?: RegExp;
  /**
   * false: emit only, no type check, as `tsc --noCheck` emits (the files are the same:
   * declaration emit asks the checker for what it needs; the emit alone skips checking every
   * body first, 2-3 times faster for src/).
   */
  check?: boolean;
  /** Where emitted files go; default: written to disk, as tsc writes them. */
  writeFile?: (file: string, text: string) => void;
}

/** Type-checks (and, unless noEmit, emits) the project of `<dir>/<tsconfig>`, like `tsc -p`. */
export function typecheck(
  dir: string,
  tsconfig = 'tsconfig.json',
  { notChecked, check = true, writeFile = ts.sys.writeFile }: TypecheckOptions = {},
): TypecheckResult {
  const configPath = resolve(dir, tsconfig);
  const configErrors: TS.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d),
    },
  );
  if (!parsed || configErrors.length) return { output: format(configErrors, dir), emitSkipped: true };
  if (parsed.errors.length) return { output: format(parsed.errors, dir), emitSkipped: true };
  const snapshots = new Map<string, TS.IScriptSnapshot | undefined>();
  const host: TS.LanguageServiceHost = {
    getCompilationSettings: () => (check ? parsed.options : { ...parsed.options, noCheck: true }),
    getProjectReferences: () => parsed.projectReferences,
    getScriptFileNames: () => parsed.fileNames,
    // The registry reuses a file it holds (for these settings) while its version is the
    // same; a test that rewrites a file between two checks gets it read again.
    getScriptVersion: (file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : 'missing';
    },
    getScriptSnapshot: (file) => {
      if (!snapshots.has(file)) {
        const text = ts.sys.readFile(file);
        snapshots.set(file, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
      }
      return snapshots.get(file);
    },
    getCurrentDirectory: () => dirname(configPath),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
  };
  // Not disposed: disposing would release this project's files from the registry, and a file
  // no project holds is dropped. The service and its program are garbage once this returns.
  const service = ts.createLanguageService(host, registry);
  const program = service.getProgram();
  if (!program) throw new Error(`typecheck: no program for ${configPath}`);
  // ts.getPreEmitDiagnostics, with the semantic check left out for `notChecked` files.
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...(check
      ? program.getSourceFiles().flatMap((file) => (file.isDeclarationFile && notChecked?.test(file.fileName) ? [] : program.getSemanticDiagnostics(file)))
      : []),
    ...(check && parsed.options.declaration ? program.getDeclarationDiagnostics() : []),
  ];
  const emitted = parsed.options.noEmit ? { emitSkipped: true, diagnostics: [] } : program.emit(undefined, (file, text) => writeFile(file, text));
  diagnostics.push(...emitted.diagnostics);
  return { output: format(ts.sortAndDeduplicateDiagnostics(diagnostics), dirname(configPath)), emitSkipped: emitted.emitSkipped };
}
