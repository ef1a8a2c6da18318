// Problems as a person reads them: one `file:line:col  severity  rule  message  (tool)`
// line each. Every user-facing command turns bad input into these (never a stack trace):
// the linters' own findings, YAML that does not parse, a file that is not an object, a
// redocly.yaml that cannot be read. A stack trace is left for real bugs.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';

/**
 * One finding, from either linter or from our own checks, with the file and line it is
 * about. `root`: the workspace an absolute `file` (or a path in `message`) is shown
 * relative to; a file already given relative to it needs none.
 * @param {string} [root]
 */
export const finding = (tool, file, line, col, severity, rule, message, root) => ({
  tool,
  file: root && isAbsolute(file) ? relative(root, file) : file,
  line,
  col,
  severity,
  rule,
  // Tools quote absolute paths; a reader (and a test in a temp copy) wants them relative.
  message: (root ? String(message).replaceAll(`${root}/`, '') : String(message)).replace(/\s+/g, ' ').trim(),
});

export const formatFinding = (f) => `${f.file}:${f.line}:${f.col}  ${f.severity}  ${f.rule}  ${f.message}  (${f.tool})`;

/** Bad input that stops a command: it carries the findings to print and the exit code. */
export class InputError extends Error {
  constructor(findings, exitCode = 1) {
    super(findings.map(formatFinding).join('\n'));
    this.findings = findings;
    this.exitCode = exitCode;
  }
}

/**
 * Reads a YAML file that must hold a mapping. Returns `{ value, document, lines }` (the
 * parsed object, the YAML document and its line counter, to locate nodes), or
 * `{ findings }` when the file is missing, does not parse, or holds no mapping (shown
 * relative to `root`, the workspace).
 */
export function readYamlObject(file, what = 'document', root = undefined) {
  if (!existsSync(file)) return { findings: [finding('workspace', file, 1, 1, 'error', 'file-not-found', `the ${what} does not exist`, root)] };
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { findings: [finding('workspace', file, 1, 1, 'error', 'file-unreadable', `cannot read the ${what}: ${error.code ?? error.message}`, root)] };
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (document.errors.length) {
    // The first error is the cause; the parser's later ones are mostly its consequences.
    const [error] = document.errors;
    const { line = 1, col = 1 } = error.linePos?.[0] ?? {};
    const more = document.errors.length > 1 ? ` (and ${document.errors.length - 1} more after it)` : '';
    const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { findings: [finding('yaml', file, line, col, 'error', 'yaml-syntax', `${message}${more}`, root)] };
  }
  let value;
  try {
    // Aliases expand here: a few are fine, an alias bomb is an error (specs refuse them all, lib/trust.mjs).
    value = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return { findings: [finding('yaml', file, 1, 1, 'error', 'yaml-alias', `cannot expand the ${what}: ${error.message.split('\n')[0]}`, root)] };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null || value === undefined ? 'empty' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { findings: [finding('workspace', file, 1, 1, 'error', 'not-an-object', `the ${what} is ${kind}, not a YAML mapping`, root)] };
  }
  return { value, document, lines };
}

/** Line and column of the node at `path` (e.g. ['info', 'version']) in a readYamlObject result, or 1:1. */
export function positionOf({ document, lines }, path) {
  const node = document?.getIn(path, true);
  const offset = node?.range?.[0];
  if (offset === undefined) return { line: 1, col: 1 };
  const { line, col } = lines.linePos(offset);
  return { line, col };
}

/**
 * Runs a command's body and returns its exit code (the body's own, or 0); bad input
 * (InputError) ends in its findings, one line each, and its non-zero code. Anything else
 * is a bug and keeps its stack trace. The code is returned, not set on the process: a
 * command's `main` runs in-process too (the pipeline tests call it on a workspace copy),
 * and only the CLI entry sets `process.exitCode`.
 */
export async function runCommand(name, body) {
  try {
    return (await body()) ?? 0;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const f of error.findings) console.error(formatFinding(f));
    console.error(`${name}  FAILED with ${error.findings.length} problem(s)`);
    return error.exitCode;
  }
}

/** True in the module `node <file>` started (not when the module is imported). */
export function isMain(url) {
  if (!process.argv[1]) return false;
  try {
    // Real paths: the script may be started through a symlink or a path with spaces.
    return realpathSync(fileURLToPath(url)) === realpathSync(process.argv[1]);
  } catch {
    return false;
  }
}
