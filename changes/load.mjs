// Reading OpenAPI documents for the change report: from the working tree or from a git
// ref (`git ls-tree` + one `git cat-file --batch`, so a document's relative $refs are
// read from that same ref), parsed with line numbers, $refs resolved into one object graph.
// Every resolved object and array keeps where it came from (file, line, line of each key),
// so a change can be reported as `file:line` in the new document.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';

/** A problem with the input (bad ref, unreadable document): printed as one line, exit 2. */
export class ChangesError extends Error {}

const LOC = new WeakMap();

/** `file:line` of `node` (or of its key `key`), or undefined if it has no recorded place. */
export function locationOf(node, key) {
  const loc = node && typeof node === 'object' ? LOC.get(node) : undefined;
  if (!loc) return undefined;
  const line = (key !== undefined && loc.keys?.get(String(key))) || loc.line;
  return `${loc.file}:${line}`;
}

/** Gives `target` the place of `from`, with key lines merged from `extra` places. */
export function copyLocation(target, from, ...extra) {
  const base = LOC.get(from);
  if (!base) return target;
  const keys = new Map(base.keys);
  for (const e of extra) for (const [k, v] of LOC.get(e)?.keys ?? []) if (!keys.has(k)) keys.set(k, v);
  LOC.set(target, { file: base.file, line: base.line, keys });
  return target;
}

/** `target` shares the place of `from` (no merge, so no copy). */
const sameLocation = (target, from) => {
  const loc = LOC.get(from);
  if (loc) LOC.set(target, loc);
};

/** The working tree under `root`: files read from disk. */
export function worktreeSource(root) {
  return {
    label: 'working tree',
    ref: null,
    display: (rel) => rel,
    read(rel) {
      try {
        return readFileSync(join(root, rel), 'utf8');
      } catch (error) {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return undefined;
        throw new ChangesError(`${rel}: cannot read: ${error.code ?? error.message}`);
      }
    },
  };
}

const git = (root, args, input) => execFileSync('git', args, { cwd: root, input, maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'] });

const gitCache = new Map();

/**
 * `specs/` and `redocly.yaml` as they are at the git ref `ref`, read with two git
 * processes whatever the number of files, and kept per commit (watch mode asks for HEAD
 * after every save).
 */
export function gitSource(root, ref) {
  let commit;
  try {
    commit = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch (error) {
    if (error.code === 'ENOENT') throw new ChangesError(`cannot read git ref "${ref}": git is not installed`);
    const why = String(error.stderr ?? '')
      .trim()
      .split('\n')[0];
    throw new ChangesError(
      why.startsWith('fatal')
        ? `cannot read git ref "${ref}": ${why.replace(/^fatal:\s*/, '')}`
        : `unknown git ref "${ref}" (no such commit here; in a shallow clone, fetch more history)`,
    );
  }
  const key = `${root}\0${commit}`;
  if (!gitCache.has(key)) {
    const listing = git(root, ['ls-tree', '-r', '-z', commit, '--', 'specs', 'redocly.yaml']).toString();
    const blobs = [];
    for (const entry of listing.split('\0')) {
      const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
      if (m) blobs.push([m[2], m[1]]);
    }
    const files = new Map();
    if (blobs.length) {
      const out = git(root, ['cat-file', '--batch'], `${blobs.map(([, sha]) => sha).join('\n')}\n`);
      let offset = 0;
      for (const [path] of blobs) {
        const eol = out.indexOf(10, offset);
        const size = Number(out.toString('latin1', offset, eol).split(' ')[2]);
        files.set(path, out.toString('utf8', eol + 1, eol + 1 + size));
        offset = eol + 1 + size + 1;
      }
    }
    if (gitCache.size > 8) gitCache.delete(gitCache.keys().next().value);
    gitCache.set(key, files);
  }
  const files = gitCache.get(key);
  return { label: ref, ref, commit, display: (rel) => `${ref}:${rel}`, read: (rel) => files.get(rel) };
}

/**
 * One YAML (or JSON) file of a source, as plain data with places; undefined if absent.
 * js-yaml (the reader Redocly's engine uses) with its node listener: about ten times
 * faster than a full YAML AST on large documents, and it still tells each node's line.
 */
export function parseFile(source, rel) {
  const text = source.read(rel);
  if (text === undefined) return undefined;
  // Each node opens and closes; a mapping's children are its keys and values in turn.
  /** @type {{ line: number, children: any, value?: unknown }[]} */ // children: dropped (undefined) once closed
  const stack = [{ line: 1, children: [] }];
  const listener = (event, state) => {
    if (event === 'open') {
      stack.push({ line: state.line + 1, children: [] });
      return;
    }
    const frame = /** @type {(typeof stack)[number]} */ (stack.pop()); // every close follows its open
    const result = state.result;
    frame.value = result;
    stack[stack.length - 1].children.push(frame);
    if (result !== null && typeof result === 'object' && !LOC.has(result)) {
      const keys = new Map();
      const c = frame.children;
      if (Array.isArray(result)) {
        if (c.length === result.length) c.forEach((item, i) => void keys.set(String(i), item.line));
      } else if (c.length % 2 === 0) {
        for (let i = 0; i < c.length; i += 2) keys.set(String(c[i].value), c[i].line);
      }
      LOC.set(result, { file: rel, line: frame.line, keys });
    }
    frame.children = undefined;
  };
  try {
    return load(text, { schema: CORE_SCHEMA, filename: rel, listener }) ?? null;
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const { line = 0, column = 0 } = error.mark ?? {};
    throw new ChangesError(`${source.display(rel)}:${line + 1}:${column + 1}: cannot parse: ${error.reason ?? error.message.split('\n')[0]}`);
  }
}

const decodePointer = (segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The document rooted at `rootRel` (a path relative to the workspace root, posix), with
 * every $ref replaced by the object it points to. A $ref with siblings (3.1) becomes the
 * target with the siblings on top. Shared targets stay one object, so cycles are fine.
 */
export function loadDocument(source, rootRel) {
  const files = new Map();
  const resolved = new WeakMap();
  const pending = new WeakSet();

  const file = (rel, why) => {
    if (!files.has(rel)) {
      const data = parseFile(source, rel);
      if (data === undefined) throw new ChangesError(why ?? `${source.display(rel)}: cannot read (no such file)`);
      files.set(rel, data);
    }
    return files.get(rel);
  };

  function target(holder, ref, from) {
    const where = `${source.display(from)}:${LOC.get(holder)?.keys.get('$ref') ?? LOC.get(holder)?.line ?? 1}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) throw new ChangesError(`${where}: $ref "${ref}" is not a relative reference (remote $refs are not followed)`);
    const [path, pointer = ''] = ref.split('#');
    const rel = path ? posix.normalize(posix.join(posix.dirname(from), decodeURI(path))) : from;
    if (rel.startsWith('../')) throw new ChangesError(`${where}: $ref "${ref}" points outside the workspace`);
    let node = file(rel, `${where}: $ref "${ref}" cannot be resolved: ${source.display(rel)} cannot be read`);
    for (const segment of pointer.split('/').slice(1)) {
      const key = decodePointer(segment);
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key))
        throw new ChangesError(`${where}: $ref "${ref}" cannot be resolved: no ${pointer} in ${source.display(rel)}`);
      node = node[key];
    }
    return deref(node, rel);
  }

  function deref(raw, from) {
    if (raw === null || typeof raw !== 'object') return raw;
    if (resolved.has(raw)) return resolved.get(raw);
    if (Array.isArray(raw)) {
      const out = [];
      resolved.set(raw, out);
      sameLocation(out, raw);
      for (const item of raw) out.push(deref(item, from));
      return out;
    }
    if (typeof raw.$ref === 'string') {
      const siblings = Object.keys(raw).filter((k) => k !== '$ref');
      if (!siblings.length) {
        // The target's own object, so every $ref to it shares one object (and a cycle
        // through a schema ends at the object being filled); a $ref chain that loops is an error.
        if (pending.has(raw)) throw new ChangesError(`${source.display(from)}:${LOC.get(raw)?.line ?? 1}: $ref "${raw.$ref}" refers to itself`);
        pending.add(raw);
        const t = target(raw, raw.$ref, from);
        pending.delete(raw);
        resolved.set(raw, t);
        return t;
      }
      const out = {};
      resolved.set(raw, out);
      const t = target(raw, raw.$ref, from);
      if (t && typeof t === 'object' && !Array.isArray(t)) Object.assign(out, t);
      for (const k of siblings) out[k] = deref(raw[k], from);
      copyLocation(out, raw, t);
      return out;
    }
    const out = {};
    resolved.set(raw, out);
    sameLocation(out, raw);
    for (const k in raw) {
      if (!Object.hasOwn(raw, k)) continue;
      if (k === '__proto__') Object.defineProperty(out, k, { value: deref(raw[k], from), enumerable: true, writable: true, configurable: true });
      else out[k] = deref(raw[k], from);
    }
    return out;
  }

  const rootData = file(rootRel);
  if (rootData === null || typeof rootData !== 'object' || Array.isArray(rootData) || (!rootData.openapi && !rootData.paths)) {
    throw new ChangesError(`${source.display(rootRel)}: not an OpenAPI document`);
  }
  const document = deref(rootData, rootRel);
  return { document, files: [...files.keys()] };
}
