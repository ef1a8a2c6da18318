// The mock's memory: per process, in memory, nothing on disk. Prism keeps no state by
// design; the behaviours (behaviours/*.mjs) keep theirs here so that one reset() puts
// every one of them back to where the mock started.
export function createState({ takenNames = [] } = {}) {
  const initialTaken = [...new Set(takenNames.map(String))];
  const state = {
    /** Server names the name check answers `AlreadyExists` for. */
    takenNames: new Set(initialTaken),
    /** `<company>|<vendor id>` -> { vendor, eTag }: vendors seen by an update. */
    vendors: new Map(),
    /** `<company>|<id>` -> shipment method created through the mock. */
    shipmentMethods: new Map(),
    /** Back to the state at start: the initial taken names, no vendors, no shipment methods. */
    reset({ takenNames: names } = {}) {
      state.takenNames = new Set(names ? names.map(String) : initialTaken);
      state.vendors.clear();
      state.shipmentMethods.clear();
    },
  };
  return state;
}
