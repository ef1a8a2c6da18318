// House rule: a node that records a gap (`x-source-gap`) says it in its description too,
// as "Not shown in the source: <what>", because the record is for tools (the gaps table,
// the docs' landing page) and the description is what a reader of the docs sees, bolded.
// `info` is the one exception: its overview paragraph is house-info-not-shown's.
import { objectsIn } from './walk.js';

const SAID = /Not shown in the source:\s*\S/;

export default function sourceGapDescribed(document) {
  const results = [];
  for (const [node, path] of objectsIn(document)) {
    if (typeof node['x-source-gap'] !== 'string' || (path.length === 1 && path[0] === 'info')) continue;
    if (typeof node.description === 'string' && SAID.test(node.description)) continue;
    results.push({
      message: `x-source-gap "${node['x-source-gap'].slice(0, 60)}" is not said in the description: add "Not shown in the source: …" (the docs show the description, bolded).`,
      path: typeof node.description === 'string' ? [...path, 'description'] : [...path, 'x-source-gap'],
    });
  }
  return results;
}
