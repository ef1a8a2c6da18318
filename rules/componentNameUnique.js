// House rule: no two files of one document bundle under one component name.
// The bundler (Redocly's, `npm run build`) makes each file a `$ref` names into a component
// named after the file (`parameters/subscriptionId.yaml` -> `components.parameters.subscriptionId`).
// Two different files of the same name and kind in one document become `subscriptionId`
// and `subscriptionId-2`: which one keeps the name depends on the order of `paths:`, so
// the generated types change name under the clients' feet (specs/README.md warns of it
// for a new resource type; test/growth/growth.test.ts checked it after the growth edits).
// A file's kind is its folder (`schemas/`, `parameters/`, `responses/`, `headers/`,
// `examples/`, …, as the recipe lays files out); `paths/` files are path items, which the
// bundler writes in place, not as components.
// Reported where the document first reaches the second of the two files (walking it in
// order), naming the other one; which of them the bundler calls `-2` follows its own order
// of visits, so the message names both without saying which.
import { componentKey, fileOf, targetOf } from './component-files.js';

const isObject = (value) => value !== null && typeof value === 'object';

export default function componentNameUnique(_input, _options, context) {
  const inventory = context.documentInventory;
  const root = fileOf(context.document.source);
  const documents = new Map([[root, context.document.data]]);
  for (const [uri, document] of Object.entries(inventory?.referencedDocuments ?? {})) documents.set(fileOf(uri), document.data);

  // Files by component key (folder/name). Files of one key with the same content are one
  // component to the bundler (it compares them), so only different contents clash.
  const byKey = new Map();
  for (const file of documents.keys()) {
    const key = componentKey(file, root);
    if (!key) continue;
    const files = byKey.get(key) ?? [];
    if (!files.some((other) => sameValue(canonical(documents.get(other), other), canonical(documents.get(file), file)))) files.push(file);
    byKey.set(key, files);
  }
  const clashing = new Set([...byKey.values()].filter((files) => files.length > 1).flat());
  if (!clashing.size) return [];

  // Where the document first reads each clashing file: a path in the resolved document,
  // found by walking the files as written, following each file's $refs once.
  const firstSite = new Map();
  const walked = new Set();
  const walk = (node, file, path) => {
    if (firstSite.size === clashing.size || !isObject(node)) return;
    if (typeof node.$ref === 'string') {
      const target = targetOf(node.$ref, file);
      if (!target) return; // a $ref inside the same file: its value is walked where it is
      if (clashing.has(target.file) && !firstSite.has(target.file)) firstSite.set(target.file, path);
      const visit = `${target.file}#${target.pointer}`;
      if (walked.has(visit)) return;
      walked.add(visit);
      let value = documents.get(target.file);
      for (const segment of target.pointer) value = isObject(value) ? value[segment] : undefined;
      walk(value, target.file, path);
      return;
    }
    for (const [key, value] of Object.entries(node)) walk(value, file, [...path, Array.isArray(node) ? Number(key) : key]);
  };
  walk(context.document.data, root, []);

  // One result per clash, at the file the walk reached second.
  const order = [...firstSite.keys()];
  const results = [];
  for (const [key, files] of byKey) {
    const seen = files.filter((file) => firstSite.has(file)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (seen.length < 2) continue;
    const [first, second] = seen;
    const [folder, name] = key.split('/');
    results.push({
      message: `${relative(second, root)} and ${relative(first, root)} are both a "${folder}" file named ${name}: bundled into one document they become \`${name}\` and \`${name}-2\`, and which keeps the name depends on the order of paths. $ref one of them everywhere, or rename one.`,
      path: firstSite.get(second),
    });
  }
  return results;
}

/** A file's value with each `$ref` written as the file and pointer it names (two files that point alike from different folders are alike, as the bundler sees them). */
function canonical(value, file) {
  if (!isObject(value)) return value;
  if (Array.isArray(value)) return value.map((item) => canonical(item, file));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== '$ref' || typeof item !== 'string') return [key, canonical(item, file)];
      const target = targetOf(item, file);
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
