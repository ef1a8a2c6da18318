// A spec is untrusted input: anyone who can open a pull request can write one. Before
// Redocly or Spectral ever see a document, this module walks its $ref graph from the root
// with the `yaml` package (which gives every node's position) and refuses, one
// `file:line:col` finding each:
//   - a $ref that is not a relative file reference (http:, https:, file:, data:, any
//     scheme, an absolute or `//host` path, a backslash): the build never uses the network;
//   - a $ref (or externalValue, discriminator mapping, Arazzo sourceDescription url) that
//     resolves outside specs/, lexically or through a symlink: the build reads only specs/;
//   - YAML anchors and aliases (a 1 KB alias bomb expands to gigabytes), a file over
//     LIMITS.fileBytes, a document tree over LIMITS.treeBytes or LIMITS.files, a string
//     over LIMITS.stringChars, nesting deeper than LIMITS.depth: bounded input, never a
//     stack trace or an out-of-memory abort;
//   - raw HTML that runs script or takes over a docs page (unsafeMarkup below), in any
//     string of any file: descriptions, summaries, titles, x- values, example values, keys.
// The first four are `blocking` (the linters do not run); unsafe markup is `content` (lint
// reports it beside the linters' findings; bundle and build refuse it all the same).
//
// Belt and braces: the resolvers handed to Redocly (GuardedResolver) and to Spectral
// (guardedFileRead) refuse the same refs, should a document reach them some other way.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseFragment } from 'parse5';
import { isAlias, isMap, isPair, isScalar, isSeq, Lexer, LineCounter, parseDocument } from 'yaml';
import { finding } from '../lib/findings.mjs';
import { walk } from '../lib/walk.mjs';
import { isInside, outsideSpecs, realOf, realSpecs, shown } from '../model/workspace-paths.mjs';

/** What a spec may weigh. Stated in docs/security.md; a test feeds one past each. */
export const LIMITS = Object.freeze({
  /** One file (YAML, JSON or a text file a $ref inlines). */
  fileBytes: 5 * 1024 * 1024,
  /** All the files one root document reads, together. */
  treeBytes: 20 * 1024 * 1024,
  /** How many files one root document reads. */
  files: 2000,
  /** One string (a description, an example value, a key). */
  stringChars: 100_000,
  /** Nesting of mappings and sequences (flow `[`/`{` or block). */
  depth: 64,
});

const TOOL = 'trust';

/**
 * Why `ref` (a $ref value) is not a relative file reference, or undefined when it is one
 * (or a pointer into the same file). The same test as `npm run changes` makes
 * (changes/load.mjs), plus absolute paths and backslashes.
 */
export function refNotRelative(ref) {
  if (ref.startsWith('#')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref))
    return `is a ${ref.slice(0, ref.indexOf(':') + 1)} reference; only relative file references are followed (the build never uses the network)`;
  if (ref.startsWith('/')) return 'is an absolute path; only paths relative to the referring file are followed';
  if (ref.includes('\\')) return 'contains a backslash; write paths with /';
  if (ref.includes('\0')) return 'contains a NUL character';
  return undefined;
}

/**
 * The files `ref`, written in `fromFile`, may stand for: every tool splits and decodes a
 * ref its own way (Redocly at `#/`, Spectral at `#` and percent-decoded), so each reading
 * is checked.
 */
function refPaths(ref, fromFile) {
  const cut = (text, at) => (text.includes(at) ? text.slice(0, text.indexOf(at)) : text);
  const paths = new Set([cut(ref, '#'), cut(ref, '#/')]);
  for (const path of [...paths]) {
    try {
      paths.add(decodeURIComponent(path));
    } catch {
      // not percent-encoded: the raw reading stands
    }
  }
  return [...paths].filter(Boolean).map((path) => resolve(dirname(fromFile), path));
}

// --- unsafe markup ----------------------------------------------------------------------

/** Elements that run script, load other documents, submit, redirect or restyle a page. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'style', 'meta', 'link', 'base', 'portal']);
/** Attributes that do the same whatever their element (on* is checked by prefix). */
const FORBIDDEN_ATTRIBUTES = new Set(['srcdoc', 'formaction', 'action', 'http-equiv', 'style']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a browser strips from a URL, so they are what is dropped here
const bare = (value) => value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
/** A URL that runs script, or a document that can: javascript:, vbscript:, data: HTML, SVG or XML. */
const SCRIPT_URL = /^(?:javascript|vbscript):|^data:(?:text\/html|image\/svg\+xml|application\/xhtml\+xml|text\/xml|application\/xml)[;,]/;
const isScriptUrl = (value) => SCRIPT_URL.test(bare(value));
/** In an HTML attribute, any data: URL but a raster image is refused too (<object data>, <a href>). */
const attributeUrlUnsafe = (value) => isScriptUrl(value) || (/^data:/.test(bare(value)) && !/^data:image\/(?:png|gif|jpe?g|webp|avif)[;,]/.test(bare(value)));
/** Link destinations in Markdown: inline `](url)`, reference `[x]: url`, autolink `<scheme:…>`. */
const LINKS = [/\]\(\s*<?([^)>]*)/g, /^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)/gm, /<([a-z][a-z0-9+.-]*:[^<>]*)>/gi];
const schemeOf = (value) => bare(value).split(':')[0];

/**
 * The first piece of `text` a browser would turn into script or page takeover once the
 * docs render it as Markdown with raw HTML: `{ offset, message }`, or undefined.
 * `text` is tokenised by parse5 (the HTML standard's tokenizer, as browsers do), so
 * `<img alt=">" onerror=…>` and entity-encoded attribute values are read as a browser
 * reads them, not as a regular expression would guess.
 */
export function unsafeMarkup(text) {
  if (!/[<&:]/.test(text)) return undefined;
  const texts = [text];
  if (/[<&]/.test(text)) {
    /** @type {any[]} parse5's nodes, of every kind: each is asked only what it may have */
    const stack = [parseFragment(text, { sourceCodeLocationInfo: true })];
    while (stack.length) {
      const node = stack.pop();
      if (node.nodeName === '#text') texts.push(node.value);
      if (node.tagName) {
        const offset = node.sourceCodeLocation?.startOffset ?? 0;
        if (FORBIDDEN_ELEMENTS.has(node.tagName))
          return {
            offset,
            message: `raw HTML <${node.tagName}> is not allowed in a spec (it runs script, loads or submits to another page, redirects or restyles the docs)`,
          };
        for (const { name, value } of node.attrs ?? []) {
          const at = node.sourceCodeLocation?.attrs?.[name]?.startOffset ?? offset;
          if (name.startsWith('on'))
            return { offset: at, message: `HTML event handler ${name}= on <${node.tagName}> is not allowed in a spec (it runs script)` };
          if (FORBIDDEN_ATTRIBUTES.has(name)) return { offset: at, message: `HTML attribute ${name}= on <${node.tagName}> is not allowed in a spec` };
          if (attributeUrlUnsafe(value))
            return { offset: at, message: `HTML attribute ${name}= on <${node.tagName}> holds a ${schemeOf(value)}: URL, which is not allowed in a spec` };
        }
      }
      for (const child of node.childNodes ?? []) stack.push(child);
      if (node.content) stack.push(node.content); // <template>
    }
  }
  // A string that is such a URL (Redoc links externalDocs.url, termsOfService, contact and
  // licence URLs), or a Markdown link to one; entity-encoded or not (the parsed texts).
  if (isScriptUrl(text)) return { offset: 0, message: `a ${schemeOf(text)}: URL is not allowed in a spec (a link to it runs script)` };
  for (const t of texts) {
    for (const pattern of LINKS) {
      for (const match of t.matchAll(pattern)) {
        if (isScriptUrl(match[1]))
          return { offset: t === text ? match.index : 0, message: `a Markdown link to a ${schemeOf(match[1])}: URL is not allowed in a spec (it runs script)` };
      }
    }
  }
  return undefined;
}

// --- one file ---------------------------------------------------------------------------

const YAML_FILE = /\.(ya?ml|json)$/i;

/** Flow nesting (`[[[[…`) is counted on the lexer's tokens first: the parser recurses. */
function flowTooDeep(text) {
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= LIMITS.depth; i++) if (text[i] === '[' || text[i] === '{') brackets++;
  if (brackets <= LIMITS.depth) return undefined;
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '\x02' || token === '\x18' || token === '\x1f') continue; // the lexer's own markers, not source text
    if (token === '[' || token === '{') {
      if (++depth > LIMITS.depth) return offset;
    } else if (token === ']' || token === '}') depth--;
    offset += token.length;
  }
  return undefined;
}

/** Is `value` (a discriminator mapping value) a reference, as Redocly reads one? */
const mappingIsRef = (value) => value.startsWith('#') || value.includes('/') || /\.(ya?ml|json)$/i.test(value) || /^[a-z][a-z0-9+.-]*:/i.test(value);

/**
 * Checks one file's own content (of the workspace at `root`). Returns `{ blocking, content, refs }`, refs being
 * `{ ref, line, col }` of every reference it holds (to follow and check against specs/).
 */
function checkFile(root, file, text) {
  const blocking = [];
  const content = [];
  const refs = [];
  const at = (line, col, rule, message, into = blocking) => into.push(finding(TOOL, file, line, col, 'error', rule, message, root));

  if (!YAML_FILE.test(file)) {
    // Redocly inlines a $ref to any other file as one string.
    if (text.length > LIMITS.stringChars)
      at(1, 1, 'size-limit', `${text.length} characters inlined by a $ref; a string may hold at most ${LIMITS.stringChars}`);
    const unsafe = unsafeMarkup(text);
    if (unsafe) {
      const before = text.slice(0, unsafe.offset).split('\n');
      at(before.length, before.at(-1).length + 1, 'unsafe-html', unsafe.message, content);
    }
    return { blocking, content, refs };
  }

  const lines = new LineCounter();
  const tooDeep = flowTooDeep(text);
  if (tooDeep !== undefined) {
    // The lexer alone found it: positions come from the text.
    const before = text.slice(0, tooDeep).split('\n');
    at(before.length, before.at(-1).length + 1, 'depth-limit', `nested more than ${LIMITS.depth} levels deep`);
    return { blocking, content, refs };
  }
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  if (document.errors.length) {
    const [error] = document.errors;
    const { line = 1, col = 1 } = error.linePos?.[0] ?? {};
    const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const deep = /Maximum call stack/.test(message);
    at(line, col, deep ? 'depth-limit' : 'yaml-syntax', deep ? `nested too deep to read (more than ${LIMITS.depth} levels are refused)` : message);
    return { blocking, content, refs };
  }
  const pos = (node) => lines.linePos(node?.range?.[0] ?? 0);

  /** Position of `offset` inside a string scalar (exact for `|` blocks, else the scalar's start). */
  const inside = (node, offset) => {
    const start = pos(node);
    if (node.type !== 'BLOCK_LITERAL') return start;
    const lineInValue = node.value.slice(0, offset).split('\n');
    const line = start.line + lineInValue.length;
    const source = text.split('\n')[line - 1] ?? '';
    const indent = source.length - source.trimStart().length;
    return { line, col: indent + lineInValue.at(-1).length + 1 };
  };

  const checkString = (node) => {
    const value = node.value;
    if (value.length > LIMITS.stringChars) {
      const { line, col } = pos(node);
      return at(line, col, 'size-limit', `a string of ${value.length} characters; at most ${LIMITS.stringChars} are allowed`);
    }
    const unsafe = unsafeMarkup(value);
    if (unsafe) {
      const { line, col } = inside(node, unsafe.offset);
      at(line, col, 'unsafe-html', unsafe.message, content);
    }
  };

  /** @type {any[]} */
  const aliases = [];
  // Iterative walk: [node, depth, key of this node, key of its parent].
  /** @type {[any, number, any, any][]} */
  const stack = [[document.contents, 0, undefined, undefined]];
  while (stack.length) {
    const [node, depth, key, parentKey] = /** @type {[any, number, any, any]} */ (stack.pop());
    if (!node) continue;
    if (isAlias(node)) {
      aliases.push(node);
      continue;
    }
    if (isScalar(node)) {
      if (typeof node.value === 'string') checkString(node);
      continue;
    }
    if (depth >= LIMITS.depth) {
      const { line, col } = pos(node);
      at(line, col, 'depth-limit', `nested more than ${LIMITS.depth} levels deep`);
      continue;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
        const value = pair.value;
        const isRefString = isScalar(value) && typeof value.value === 'string';
        if (
          isRefString &&
          (name === '$ref' ||
            name === 'externalValue' ||
            (key === 'mapping' && parentKey === 'discriminator' && mappingIsRef(value.value)) ||
            (name === 'url' && parentKey === 'sourceDescriptions'))
        ) {
          const { line, col } = pos(value);
          refs.push({ ref: value.value, line, col });
        }
        stack.push([pair.key, depth + 1, undefined, key]);
        stack.push([value, depth + 1, name, key]);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push([item, depth + 1, undefined, key]);
    }
  }
  if (aliases.length) {
    // One line for the file: the first alias (a bomb has hundreds).
    const first = aliases.reduce((a, b) => (a.range[0] <= b.range[0] ? a : b));
    const { line, col } = pos(first);
    const more = aliases.length > 1 ? ` (${aliases.length} aliases in this file)` : '';
    at(
      line,
      col,
      'yaml-alias',
      `YAML alias *${first.source} is not allowed in specs (aliases can expand without bound); repeat the value or use a $ref${more}`,
    );
  }
  return { blocking, content, refs };
}

// Per file: its result, while the file is unchanged (inode, size, mtime). A file shared by
// several documents (specs/common/) and a second pass (lint, then bundle) are read once.
const fileCache = new Map();
// Per file and content (`file\0sha256`): its result. A new process has none; the build
// loads those of its last run (lib/check-cache.mjs, in the build cache, stamped with this
// source) so that an edit re-checks the edited file, not all 700 of a wide document.
const byContent = new Map();
const contentKeyOf = new Map(); // file -> its content key when last checked
function checkFileCached(root, file, stats) {
  const key = `${file}\0${stats.ino}\0${stats.size}\0${stats.mtimeMs}`;
  let result = fileCache.get(key);
  if (!result) {
    const text = readFileSync(file, 'utf8');
    const contentKey = `${file}\0${createHash('sha256').update(text).digest('hex')}`;
    result = byContent.get(contentKey) ?? checkFile(root, file, text);
    if (byContent.size > 20000) byContent.clear();
    byContent.set(contentKey, result);
    contentKeyOf.set(file, contentKey);
    if (fileCache.size > 5000) fileCache.clear();
    fileCache.set(key, result);
  }
  return result;
}

/** The per-content results of `files` as last checked (plain JSON, by key), and a way to give back earlier ones. */
export const checkResults = {
  of: (files) =>
    Object.fromEntries(
      [...new Set(files)]
        .map((file) => contentKeyOf.get(file))
        .filter((key) => key && byContent.has(key))
        .sort()
        .map((key) => [key, byContent.get(key)]),
    ),
  load: (results) => {
    for (const [key, result] of Object.entries(results ?? {})) if (!byContent.has(key)) byContent.set(key, result);
  },
};

// --- the tree of one root document --------------------------------------------------------

/**
 * Walks the documents `rootFile` reads through its references, checking each file as
 * above, and holding them to the specs/ of the workspace at `root`. Returns `{ blocking, content, files, graph }`: findings that keep the linters
 * from running, findings about unsafe markup, the files read, and per file the files its
 * $refs name.
 */
export function checkTree(rootFile, root) {
  const blocking = [];
  const content = [];
  const fail = (file, line, col, rule, message) => blocking.push(finding(TOOL, file, line, col, 'error', rule, message, root));

  const outside = outsideSpecs(root, rootFile);
  if (outside) {
    fail(rootFile, 1, 1, 'ref-outside-specs', `the root document ${outside}`);
    return { blocking, content, files: [] };
  }
  const seen = new Set([rootFile]);
  const queue = [rootFile];
  // file -> the files its $refs name: what a lint of part of the document needs (lib/slice.mjs).
  const graph = new Map();
  let bytes = 0;
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    let stats;
    try {
      stats = statSync(file);
    } catch {
      continue; // a missing file: the linters report the $ref as unresolved
    }
    if (!stats.isFile()) {
      if (!stats.isDirectory()) fail(file, 1, 1, 'not-a-file', 'is not a regular file (a device, pipe or socket is never read)');
      continue;
    }
    if (stats.size > LIMITS.fileBytes) {
      fail(file, 1, 1, 'size-limit', `${stats.size} bytes; a spec file may be at most ${LIMITS.fileBytes} bytes (${LIMITS.fileBytes / 1024 / 1024} MB)`);
      continue;
    }
    bytes += stats.size;
    if (bytes > LIMITS.treeBytes) {
      fail(rootFile, 1, 1, 'size-limit', `the files this document reads exceed ${LIMITS.treeBytes / 1024 / 1024} MB together`);
      break;
    }
    const result = checkFileCached(root, file, stats);
    const reads = new Set();
    graph.set(file, reads);
    blocking.push(...result.blocking);
    content.push(...result.content);
    for (const { ref, line, col } of result.refs) {
      const notRelative = refNotRelative(ref);
      if (notRelative) {
        fail(file, line, col, 'ref-not-relative', `"${ref}" ${notRelative}`);
        continue;
      }
      if (ref.startsWith('#')) continue;
      const paths = refPaths(ref, file);
      const why = paths.map((path) => outsideSpecs(root, path)).find(Boolean);
      if (why) {
        fail(file, line, col, 'ref-outside-specs', `"${ref}" ${why}; the build reads only specs/`);
        continue;
      }
      for (const path of paths) {
        reads.add(path);
        if (seen.has(path)) continue;
        seen.add(path);
        queue.push(path);
        if (seen.size > LIMITS.files) {
          fail(rootFile, 1, 1, 'size-limit', `this document reads more than ${LIMITS.files} files`);
          return { blocking, content, files: queue, graph };
        }
      }
    }
  }
  return { blocking, content, files: queue, graph };
}

/**
 * Every symlink under the specs/ of the workspace at `root` that points outside it (or nowhere), and every folder link
 * that loops (points at the folder it sits in or one above), as findings: one per link.
 * The walk never enters a symlinked folder (lib/walk.mjs: Node's recursive readdir does on
 * Node 22+, not on 20), so a loop is met once, as the link itself, and the walk reads
 * each real folder of specs/ once, on every Node line.
 */
export function symlinkFindings(root) {
  let entries;
  try {
    entries = walk(join(root, 'specs'));
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    const real = realOf(path);
    if (real === undefined) continue; // dangling (or a link cycle realpath refuses): nothing is read through it
    const refuse = (rule, message) => found.push(finding(TOOL, path, 1, 1, 'error', rule, message, root));
    if (!isInside(real, realSpecs(root))) {
      refuse('symlink-outside-specs', `is a symlink to ${shown(root, real)}, outside specs/; the build reads only specs/`);
      continue;
    }
    const here = realOf(entry.parentPath) ?? entry.parentPath;
    if (isInside(here, real))
      refuse(
        'symlink-loop',
        `is a symlink to ${shown(root, real)}, a folder it is itself inside: every tool that lists specs/ through links would walk it again and again; link a file or a sibling folder instead`,
      );
  }
  return found;
}

// --- the tools' own resolvers ------------------------------------------------------------

/** Why a tool must not read `target` (a URL or a path) in the workspace at `root`, or undefined. */
export function refusedRead(target, root) {
  const text = String(target);
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^file:/i.test(text)) return `${text}: remote references are not fetched`;
  let path = text;
  if (/^file:/i.test(text)) {
    try {
      path = new URL(text).pathname;
    } catch {
      return `${text}: not a file URL`;
    }
  }
  return outsideSpecs(root, resolve(path));
}

/** Reads a file for Spectral's resolver, unless it is outside the specs/ of the workspace at `root` (or remote). */
export async function guardedFileRead(uri, root) {
  const path = typeof uri?.href === 'function' ? uri.href() : String(uri);
  const refused = refusedRead(path, root);
  if (refused) throw new Error(`refused to read ${path}: ${refused}`);
  const { readFile } = await import('node:fs/promises');
  return readFile(path, 'utf8');
}

/**
 * Redocly's resolver, refusing remote references and those outside the specs/ of the
 * workspace at `root` (they become the linter's own "cannot resolve" problems instead of
 * a fetch or a read).
 */
export async function guardedRedoclyResolver(config, root) {
  const { BaseResolver } = await import('@redocly/openapi-core');
  class GuardedResolver extends BaseResolver {
    /** @override */
    async loadExternalRef(absoluteRef) {
      const refused = refusedRead(absoluteRef, root);
      if (refused) {
        const error = new Error(`refused to read ${absoluteRef}: ${refused}`);
        error.name = 'ResolveError';
        throw error;
      }
      return super.loadExternalRef(absoluteRef);
    }
  }
  return new GuardedResolver(config);
}
