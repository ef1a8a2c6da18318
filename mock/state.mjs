// The mock's memory: per process, in memory, nothing on disk. Prism keeps no state by
// design; the conventions (conventions/*.mjs) and behaviours (behaviours/*.mjs) keep
// theirs here so that one reset() puts every one of them back to where the mock started.
//
//   entities   one store per company and OData entity set, keyed by the set's name as
//              the path spells it (`vendors`), never by API or version: every version
//              that declares the set reads and writes the same entities.
//   lists      the items of a nextLink-paged list operation, by operationId (when a test
//              seeded them; otherwise the operation's documented items).
//   takenNames the names the name check answers `AlreadyExists` for.
//   pageSizes  the server page size of an OData entity set's lists, by set name (when a
//              test seeded one; otherwise ODATA_PAGE_SIZE of conventions/odata.mjs).
//   resources  the ARM resources (conventions/arm.mjs), by id in lower case, every
//              subscription, resource group and type in one map (an id holds all three),
//              never by api-version: every version of a provider reads and writes the
//              same resources. It starts, on first use after each reset, from the
//              documented resources (initialResources(): the examples of the documents).
//   operations the long-running operations started (conventions/long-running.mjs), by id;
//   lroRules   the test's long-running rules (polls, Retry-After, outcome), newest first.

/** OData keys that are GUIDs compare without case (`F8A5…` is `f8a5…`); others as sent. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const normalKey = (key) => (GUID.test(String(key)) ? String(key).toLowerCase() : String(key));

/** What a store holds for a deleted key: GET answers 404 until reset. */
export const DELETED = Object.freeze({ deleted: true });

/** The names of the stored ARM resources of a type (for the name check), compared without case. */
export function storedNames(state, type) {
  const ofType = [...state.resourceStore().values()].filter((entry) => entry.type.toLowerCase() === String(type).toLowerCase());
  return new Set(ofType.map((entry) => String(entry.resource.name ?? entry.id.split('/').at(-1)).toLowerCase()));
}

/**
 * @param {{ takenNames?: string[], initialResources?: () => any[] }} [options]
 */
export function createState({ takenNames = [], initialResources = () => [] } = {}) {
  const initialTaken = [...new Set(takenNames.map(String))];
  const state = {
    takenNames: new Set(initialTaken),
    /** `<company>|<set>` -> { company, set, items: Map(key -> { key, entity, eTag } | DELETED) }. */
    entities: new Map(),
    /** operationId -> { items, pageSize? }. */
    lists: new Map(),
    /** set name -> page size of its lists. */
    pageSizes: new Map(),
    /** id in lower case -> { key, id, type, resource, stateField?, operation? }; null until first used. @type {Map<string, any> | null} */
    resources: null,
    /** The page size of ARM lists when a test set one (seed({ resourcePageSize })). */
    resourcePageSize: undefined,
    operations: new Map(),
    lroRules: [],
    lroSequence: 0,
    /** The ARM resources, filled from the documented ones on first use. */
    resourceStore() {
      if (!state.resources) state.resources = new Map(initialResources().map((entry) => [entry.key, structuredClone(entry)]));
      return state.resources;
    },
    /** The store of one company's entity set (created empty on first use). */
    store(company, set) {
      const id = `${normalKey(company)}|${set}`;
      return (state.entities.get(id) ?? state.entities.set(id, { company: String(company), set, items: new Map() }).get(id)).items;
    },
    /** Back to the state at start: the initial taken names, no entities, no seeded lists. @param {{ takenNames?: string[] }} [options] */
    reset({ takenNames: names } = {}) {
      state.takenNames = new Set(names ? names.map(String) : initialTaken);
      state.entities.clear();
      state.lists.clear();
      state.pageSizes.clear();
      state.resources = null;
      state.resourcePageSize = undefined;
      state.operations.clear();
      state.lroRules = [];
    },
  };
  return state;
}
