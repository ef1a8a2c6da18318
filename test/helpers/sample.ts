// A bounded, deterministic choice from a list that grows with the workspace (documents,
// operations), for tests whose every item costs real time (a browser tab, a sweep of
// requests): all items when at most `max`, otherwise `max` of them, every group (API)
// first, then spread over each group (its first, its last, then the middle), never random.
// At five documents every test still sees all five; at a hundred it sees `max`.
export function sample<T>(items: readonly T[], max: number, groupOf: (item: T) => string): T[] {
  if (items.length <= max) return [...items];
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = groupOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const orders = [...groups.values()].map(spreadOrder);
  const chosen = new Set<T>();
  for (let round = 0; chosen.size < max; round++) {
    for (const order of orders) {
      if (chosen.size < max && round < order.length) chosen.add(order[round]!);
    }
  }
  return items.filter((item) => chosen.has(item));
}

/** first, last, then the midpoints of the gaps, widest first: 0, 9, 4, 2, 6, 1, 3, 5, 7, 8. */
function spreadOrder<T>(group: T[]): T[] {
  const order = [0];
  if (group.length > 1) order.push(group.length - 1);
  const gaps: Array<[number, number]> = [[0, group.length - 1]];
  while (gaps.length) {
    const [a, b] = gaps.shift()!;
    if (b - a < 2) continue;
    const mid = Math.floor((a + b) / 2);
    order.push(mid);
    gaps.push([a, mid], [mid, b]);
  }
  return order.map((i) => group[i]!);
}
