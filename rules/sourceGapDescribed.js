// House rule: a node that records a gap (`x-source-gap`) says it in its description too,
// as "Not shown in the source: <what>", because the record is for tools (the gaps table,
// the docs' landing page) and the description is what a reader of the docs sees, bolded.
// `info` is the one exception: its overview paragraph is house-info-not-shown's.
import { forEachObject } from './walk.js';

const SAID = /Not shown in the source:\s*\S/;

export default function sourceGapDescribed(document) {
  const results = [];
  forEachObject(document, (node, path) => {
    if (typeof node['x-source-gap'] !== 'string' || (path.length === 1 && path[0] === 'info')) return;
    if (typeof node.description === 'string' && SAID.test(node.description)) return;
    results.push({
      message: `x-source-gap "${node['x-source-gap'].slice(0, 60)}" is not said in the description: add "Not shown in the source: …" (the docs show the description, bolded).`,
      path: [...path, typeof node.description === 'string' ? 'description' : 'x-source-gap'],
    });
  });
  return results;
}
