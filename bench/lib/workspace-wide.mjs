// A throw-away workspace as wide as the real services (issue 34): one business-data
// version (v2.0) widened by about 60 entity sets, each added by specs/README.md's "a new
// entity" recipe in the house style. The entity sets come from the tests' own generator
// (test/helpers/add-entity-sets.mjs), so the benchmark measures the workspace the wide
// tests check. Five operations per entity: 59 sets and the vendors' one are about 300.
// Never committed: bench/scale.mjs (`--wide`) and bench/suite-at-scale.mjs (`--wide`) make it.
import { addEntitySets } from '../../test/helpers/add-entity-sets.mjs';
import { workspaceCopy } from './workspace-copy.mjs';

export const WIDE_VERSION = 'specs/business-central/v2.0';

/** A workspace copy with `count` entity sets added to v2.0. */
export async function wideWorkspace(count = 59, prefix = `bench-wide${count}-`) {
  const copy = await workspaceCopy(prefix);
  const names = await addEntitySets(copy.dir, { version: WIDE_VERSION, count });
  return { ...copy, names };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 59);
  const copy = await wideWorkspace(count);
  console.log(`${copy.dir}: ${copy.names.length} entity sets (${copy.names.length * 5} operations) added to ${WIDE_VERSION}`);
}
