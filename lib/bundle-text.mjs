// A bundle's text parsed once per process: the manifest reads every bundle and the docs
// read the pages' bundles, in the same build, and at 300 operations one parse of a bundle
// (the `yaml` package, as both did) is about half a second. Each caller gets its own copy
// (structuredClone, a tenth of a parse), so none sees what another does to its document.
import { createHash } from 'node:crypto';
import { parse } from 'yaml';

const parsed = new Map(); // sha-256 of the text -> its parsed value
const KEPT = 32; // bundles kept at once: a cold build of hundreds parses each once anyway

/** The value `parse(text)` (yaml) gives, parsed once per distinct text. */
export function parseBundle(text) {
  const key = createHash('sha256').update(text).digest('hex');
  if (!parsed.has(key)) {
    if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value);
    parsed.set(key, parse(text));
  }
  return structuredClone(parsed.get(key));
}
