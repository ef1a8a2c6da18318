// seed() and the state snapshot of the test API: put entities, taken names and the items
// of paged lists in place, and read back what the mock holds. Generic over the documents:
// an entity set is any set the OData convention serves, a list any nextLink-paged list
// operation (by operationId).
import { createState, DELETED } from '../state.mjs';
import { seedEntity, seedPageSize as seedSetPageSize } from '../conventions/odata.mjs';
import { PAGE_SIZE, seedList } from '../conventions/paging.mjs';
import { seedPageSize, seedResources } from '../conventions/arm.mjs';
import { listLongRunningRules } from '../conventions/long-running.mjs';

/** What seed() takes (index.d.ts SeedData). */
export const KEYS = ['entities', 'takenNames', 'lists', 'pageSizes', 'resources', 'resourcePageSize'];

/**
 * Applies `data` ({ entities?, takenNames?, lists?, pageSizes?, resources?, resourcePageSize? }) to
 * `state`, all or nothing: every entry is checked first (on a scratch state), then
 * applied. Returns the seeded entities with their tags, and the seeded ARM resources.
 */
export function seed(state, catalogue, data) {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error(`seed: give an object with ${KEYS.join(', ')}.`);
  const unknown = Object.keys(data).filter((key) => !KEYS.includes(key));
  if (unknown.length) throw new Error(`seed: unknown ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${KEYS.join(', ')}).`);
  const { entities = [], takenNames = [], lists = {}, pageSizes = {}, resources = [], resourcePageSize } = data;
  if (!Array.isArray(entities)) throw new Error('seed: "entities" must be an array of { company, set, key?, entity, eTag? }.');
  if (!Array.isArray(takenNames) || takenNames.some((n) => typeof n !== 'string')) throw new Error('seed: "takenNames" must be an array of strings.');
  if (!lists || typeof lists !== 'object' || Array.isArray(lists)) throw new Error('seed: "lists" must map operationIds to items.');
  if (!pageSizes || typeof pageSizes !== 'object' || Array.isArray(pageSizes)) throw new Error('seed: "pageSizes" must map OData entity sets to page sizes.');
  const apply = (target) => {
    const seeded = entities.map((entity) => seedEntity(target, catalogue.sets, entity));
    for (const name of takenNames) target.takenNames.add(name);
    for (const [operationId, list] of Object.entries(lists)) seedList(target, catalogue.pagedOperations, operationId, list);
    for (const [set, size] of Object.entries(pageSizes)) seedSetPageSize(target, catalogue.sets, set, size);
    const armResources = seedResources(target, catalogue.arm, resources);
    if (resourcePageSize !== undefined) seedPageSize(target, resourcePageSize);
    return { entities: seeded, resources: armResources };
  };
  apply(createState());
  return apply(state);
}

/** What the mock holds, as plain JSON (a copy: changing it changes nothing). */
export function snapshot(state, catalogue) {
  const entities = [];
  const deleted = [];
  for (const { company, set, items } of state.entities.values()) {
    for (const entry of items.values()) {
      if (entry === DELETED) continue;
      entities.push({ company, set, key: entry.key, entity: structuredClone(entry.entity), eTag: entry.eTag });
    }
    for (const [key, entry] of items) if (entry === DELETED) deleted.push({ company, set, key });
  }
  const lists = {};
  for (const [operationId, handler] of catalogue.pagedOperations) {
    const seeded = state.lists.get(operationId);
    lists[operationId] = seeded
      ? { ...structuredClone(seeded), seeded: true }
      : { items: structuredClone(handler.documentedItems()), pageSize: handler.pageSize, seeded: false };
  }
  const resources = [...state.resourceStore().values()].map((entry) => ({
    id: entry.id,
    type: entry.type,
    resource: structuredClone(entry.resource),
    ...(entry.operation ? { operation: entry.operation } : {}),
  }));
  const operations = [...state.operations.values()].map(
    ({ id, phase, method, resourceId, status, polls, pollsNeeded, retryAfter, startTime, endTime, error }) =>
      structuredClone({
        id,
        method,
        phase,
        resourceId,
        status,
        polls,
        pollsNeeded,
        retryAfter,
        startTime,
        ...(endTime ? { endTime } : {}),
        ...(error ? { error } : {}),
      }),
  );
  return {
    entities,
    deleted,
    takenNames: [...state.takenNames],
    lists,
    pageSizes: Object.fromEntries(state.pageSizes),
    resources,
    resourcePageSize: state.resourcePageSize ?? PAGE_SIZE,
    operations,
    longRunning: listLongRunningRules(state),
  };
}
