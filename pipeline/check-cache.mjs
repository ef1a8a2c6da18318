// The file checks of lib/trust.mjs (YAML read with positions, references, unsafe markup),
// kept between builds by content: each file's result under its path and SHA-256, in the
// build cache (lib/cache.mjs: an entry with its own hash, stamped with the workspace key,
// so a change of trust.mjs or of the tools drops it). A build after an edit then re-reads
// every file (to hash it) but re-checks only the edited one. Only the files of the documents
// the last build linted are kept, so the entry follows the specs as they are.
import { readEntry, writeEntry } from './cache.mjs';
import { checkResults } from './trust.mjs';

const ENTRY = 'trust-checks';

/** Gives lib/trust.mjs the results the last build of the workspace at `root` kept (none when absent, stale or corrupt). */
export async function loadChecks(root) {
  const entry = await readEntry(root, ENTRY);
  if (entry.value) checkResults.load(entry.value);
}

/** Keeps the results of `files` (the files the documents just linted read), in a stable order. */
export async function saveChecks(root, files) {
  await writeEntry(root, ENTRY, checkResults.of(files));
}
