// Runs `task` over `items`, at most `limit` at a time, results in input order. Used where
// a step would otherwise hold every document in memory at once (lint, bundle): memory
// then grows with `limit`, not with the number of documents.
export async function mapLimit(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Documents in flight at once: enough to overlap file reads, few enough to bound memory. */
export const DOCUMENTS_IN_FLIGHT = 4;
