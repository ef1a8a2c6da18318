// House rule: no two definitions of one document bundle under one component name.
// The bundler (Redocly's, `npm run build`) keeps the root's own `components` as they are
// and makes each file a `$ref` names into a component named after the file
// (`parameters/subscriptionId.yaml` -> `components.parameters.subscriptionId`), or after the
// pointer's last segment (`other.yaml#/components/schemas/Foo` -> `Foo`). Two different
// definitions of one name and kind become `subscriptionId` and `subscriptionId-2`: two
// files (which keeps the name depends on the order of `paths:`), or an inline component of
// the root and a file (the file is renamed), so the generated types change name under the
// clients' feet (specs/README.md warns of it for a new resource type; test/growth/growth.test.ts
// checked it after the growth edits).
// A file's kind is its folder (`schemas/`, `parameters/`, `responses/`, `headers/`,
// `examples/`, …, as the recipe lays files out), a pointer's its `components/<kind>/`;
// `paths/` files are path items, which the bundler writes in place, not as components.
// Reported where the document first reaches the second of two definitions (walking it in
// order, the root's own components first), naming the other; between two files, which the
// bundler calls `-2` follows its own order of visits, so the message names both without
// saying which.
import { componentKey, fileOf, targetOf } from '../model/component-files.mjs';

const isObject = (value) => value !== null && typeof value === 'object';

/**
 * @typedef {object} Definition
 * @property {string} key "kind/name"
 * @property {string} label how a message names it
 * @property {any} value its parsed value
 * @property {string} file the file its `$ref`s are relative to
 * @property {(string | number)[]} site where the resolved document first holds it
 * @property {boolean} inline one of the root's own components
 */

export default function componentNameUnique(_input, _options, context) {
  const inventory = context.documentInventory;
  const root = fileOf(context.document.source);
  const documents = new Map([[root, context.document.data]]);
  for (const [uri, document] of Object.entries(inventory?.referencedDocuments ?? {})) documents.set(fileOf(uri), document.data);
  const valueAt = (file, pointer) => pointer.reduce((value, segment) => (isObject(value) ? value[segment] : undefined), documents.get(file));

  // Every definition, in the order the bundler meets them: the root's own components, then
  // each target of a `$ref` to another file, where the walk first reaches it.
  /** @type {Map<string, Definition>} */
  const definitions = new Map();
  const rootName = relative(root, root);
  for (const [kind, group] of Object.entries(context.document.data?.components ?? {})) {
    for (const [name, value] of Object.entries(isObject(group) ? group : {})) {
      const site = ['components', kind, name];
      definitions.set(`${root}#/${site.join('/')}`, {
        key: `${kind}/${name}`,
        label: `${rootName}'s own components.${kind}.${name}`,
        value,
        file: root,
        site,
        inline: true,
      });
    }
  }
  const walked = new Set();
  const walk = (node, file, path) => {
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      const target = targetOrNone(node.$ref, file);
      if (!target) return; // a $ref inside the same file (its value is walked where it is), or a malformed one (no-unresolved-refs reports it)
      const id = `${target.file}#/${target.pointer.join('/')}`;
      if (walked.has(id)) return;
      walked.add(id);
      const value = valueAt(target.file, target.pointer);
      const key = keyOf(target, root);
      if (key)
        definitions.set(id, {
          key,
          label: relative(target.file, root) + (target.pointer.length ? `#/${target.pointer.join('/')}` : ''),
          value,
          file: target.file,
          site: path,
          inline: false,
        });
      walk(value, target.file, path);
      return;
    }
    for (const [key, value] of Object.entries(node)) walk(value, file, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(context.document.data, root, []);

  // Definitions by key; alike ones (their $refs naming the same targets) are one component
  // to the bundler (it compares them), so only different ones clash.
  const byKey = new Map();
  for (const definition of definitions.values()) {
    const distinct = byKey.get(definition.key) ?? [];
    if (!distinct.some((other) => sameValue(canonical(other.value, other.file), canonical(definition.value, definition.file)))) distinct.push(definition);
    byKey.set(definition.key, distinct);
  }
  const results = [];
  for (const [key, [first, second]] of byKey) {
    if (!second) continue;
    const [kind, name] = key.split('/');
    const renamed = first.inline
      ? `the bundle keeps \`${name}\` for the root's own and names ${second.label} \`${name}-2\``
      : `bundled into one document they become \`${name}\` and \`${name}-2\`, and which keeps the name depends on the order of paths`;
    results.push({
      message: `${second.label} and ${first.label} are both a "${kind}" ${first.inline ? 'component' : 'file'} named ${name}: ${renamed}. $ref one of them everywhere, or rename one.`,
      path: second.site,
    });
  }
  return results;
}

/** What a `$ref` names (targetOf), or undefined for a local or malformed one (`%` not followed by two hex digits). */
function targetOrNone(ref, file) {
  try {
    return targetOf(ref, file);
  } catch {
    return undefined;
  }
}

/** The component key ("kind/name") the bundler files a `$ref`'s target under, or undefined (the root itself, a path item). */
function keyOf(target, root) {
  if (target.file === root) return undefined;
  if (target.pointer.length === 0) return componentKey(target.file, root);
  if (target.file.split('/').at(-2) === 'paths') return undefined;
  const kind = target.pointer.length === 3 && target.pointer[0] === 'components' ? target.pointer[1] : target.file.split('/').at(-2);
  return `${kind}/${target.pointer.at(-1)}`;
}

/** A file's value with each `$ref` written as the file and pointer it names (two files that point alike from different folders are alike, as the bundler sees them). */
function canonical(value, file) {
  if (!isObject(value)) return value;
  if (Array.isArray(value)) return value.map((item) => canonical(item, file));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== '$ref' || typeof item !== 'string') return [key, canonical(item, file)];
      const target = targetOrNone(item, file);
      return [key, target ? `${target.file}#/${target.pointer.join('/')}` : item];
    }),
  );
}

/** Deep equality of two parsed YAML values (key order aside), as the bundler compares components. */
function sameValue(a, b) {
  if (a === b) return true;
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/** `file` relative to the folder of `root` (the document's own folder), for messages. */
function relative(file, root) {
  const base = root.slice(0, root.lastIndexOf('/') + 1);
  if (file.startsWith(base)) return file.slice(base.length);
  const up = base.split('/').filter(Boolean);
  const parts = file.split('/').filter(Boolean);
  let common = 0;
  while (common < up.length && up[common] === parts[common]) common++;
  return [...Array(up.length - common).fill('..'), ...parts.slice(common)].join('/');
}
