// Which component a file becomes when the bundler writes a document (rules/componentNameUnique.js),
// shared with the pipeline's slice check (pipeline/slice.mjs), so both judge alike.
// Plain string work, no Node modules: the house rules (rules/) load it through Spectral's bundler.

/** An absolute file path from a path or a file:// URI as Spectral names documents. */
export function fileOf(uri) {
  const text = String(uri);
  return text.startsWith('file://') ? decodeURIComponent(text.slice('file://'.length)) : text;
}

/**
 * The component a file is bundled as, "folder/name" (`parameters/subscriptionId`), or
 * undefined for the document's root and for `paths/` files (path items, written in place).
 */
export function componentKey(file, root) {
  if (file === root) return undefined;
  const parts = file.split('/');
  const folder = parts.at(-2);
  if (!folder || folder === 'paths') return undefined;
  const name = parts.at(-1).replace(/\.(ya?ml|json)$/i, '');
  return `${folder}/${name}`;
}

/** What a `$ref` in `file` names: { file, pointer } (pointer: JSON pointer segments), or undefined for a local `#…`. */
export function targetOf(ref, file) {
  if (ref.startsWith('#')) return undefined;
  const hash = ref.indexOf('#');
  const path = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  const segments = file.split('/').slice(0, -1);
  for (const part of decodeURIComponent(path).split('/')) {
    if (part === '..') segments.pop();
    else if (part !== '.' && part !== '') segments.push(part);
  }
  const pointer = fragment
    ? fragment
        .split('/')
        .slice(1)
        .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
    : [];
  return { file: `/${segments.filter(Boolean).join('/')}`, pointer };
}

/** The component keys that more than one of `files` (a document's, root included) would be bundled under. */
export function clashingKeys(files, root) {
  const byKey = new Map();
  for (const file of files) {
    const key = componentKey(file, root);
    if (key) byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  return [...byKey].filter(([, count]) => count > 1).map(([key]) => key);
}
