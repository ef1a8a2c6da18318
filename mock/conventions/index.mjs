// Which answer each operation gets, decided once per load from the documents alone, so
// that an operation added to a document needs no mock code. CONVENTIONS, in order: the
// first that covers an operation answers it (a valid request that asks for no example or
// status, through its handler's `respond`). Prism validates every request first in all
// cases; `Prefer` still picks an answer. A convention is
//   names    what routes[].convention says of the operations it answers (the union
//            MockConvention of index.d.ts; test/contract/declarations.test.ts holds them equal)
//   covers   (operation) -> what it reads of the operation (its shape), or undefined
//   gather   (optional) (covered) -> what its handlers share across documents
//   handler  (covered, catalogue) -> { respond?, rejected?, decorate?, convention? } or none
import { behaviours } from '../behaviours/index.mjs';
import { ARM_CONVENTIONS, armCatalogue, armHandler } from './arm.mjs';
import { catalogueSets, ODATA_CONVENTIONS, odataHandler, odataShape } from './odata.mjs';
import { pagingHandler, pagingShape } from './paging.mjs';

/**
 * An operation as the conventions read it; `shape` is what its convention covers.
 * @typedef {{ doc: any, op: any, pathItem: any, operation: any, behaviour: any, arm: any, shape: any }} Covered
 * @typedef {{ names: string[], covers: (o: Covered) => any, gather?: (covered: Covered[]) => object, handler: (o: Covered, catalogue: any) => any }} Convention
 */

/** @type {Convention[]} */
export const CONVENTIONS = [
  // 1. a rule the source states for that operation (behaviours/, by operationId);
  { names: ['source-rule'], covers: ({ behaviour }) => behaviour?.respond, handler: ({ behaviour }) => behaviour },
  // 2. the family's convention: business data's OData entity sets (odata.mjs), resource
  //    management's resource lifecycle (arm.mjs: the types whose document declares a PUT
  //    on the instance path, with long-running operations, long-running.mjs), else its
  //    nextLink paging (paging.mjs);
  {
    names: ODATA_CONVENTIONS,
    covers: ({ doc, op }) => odataShape(doc, op),
    gather: (covered) => ({ sets: catalogueSets(covered) }),
    handler: (o, { sets }) => odataHandler({ ...o, sets }),
  },
  { names: ARM_CONVENTIONS, covers: ({ op, arm }) => arm.covered.get(op), handler: ({ shape }, { arm }) => armHandler(shape, arm) },
  {
    names: ['arm-paging'],
    covers: ({ doc, op, operation }) => pagingShape(doc, { method: op.method, operation }),
    handler({ doc, op, operation, shape, behaviour }, { pagedOperations }) {
      const handler = pagingHandler({ doc, operation, shape, extraItems: behaviour?.extraItems });
      if (!pagedOperations.has(op.iid)) pagedOperations.set(op.iid, handler);
      return handler;
    },
  },
  // 3. else its documented example (Prism's answer: the first example of its lowest 2xx),
  //    which the mock reports once per operation at start (routes[].convention 'example').
  { names: ['example'], covers: () => true, handler: ({ behaviour }) => (behaviour?.decorate || behaviour?.rejected ? behaviour : undefined) },
];

/** Every name routes[].convention may say, in the conventions' order. */
export const CONVENTION_NAMES = CONVENTIONS.flatMap((convention) => convention.names);

/**
 * Attaches `handler` (or none) and `convention` to every operation of every document.
 * Returns what seeding needs: the entity sets, the paged operations and the ARM
 * resource types (with the documented resources the store starts from).
 */
export function applyConventions(documents) {
  const catalogue = armCatalogue(documents);
  const arm = { ...catalogue, covered: new Map(catalogue.covered.map((entry) => [entry.op, entry])) };
  /** @type {Map<Convention, Covered[]>} */
  const covered = new Map(CONVENTIONS.map((convention) => [convention, []]));
  for (const doc of documents) {
    for (const op of doc.operations) {
      const pathItem = doc.document.paths[op.docPath];
      /** @type {Covered} */
      const o = { doc, op, pathItem, operation: pathItem[op.method], behaviour: behaviours.get(op.iid), arm, shape: undefined };
      const convention = CONVENTIONS.find((c) => {
        o.shape = c.covers(o);
        return o.shape;
      });
      covered.get(/** @type {Convention} */ (convention))?.push(o);
    }
  }
  const shared = Object.assign(
    { pagedOperations: new Map(), arm: catalogue },
    ...CONVENTIONS.map((convention) => convention.gather?.(covered.get(convention) ?? []) ?? {}),
  );
  for (const [convention, list] of covered) {
    for (const o of list) {
      o.op.handler = convention.handler(o, shared);
      o.op.convention = o.op.handler?.convention ?? convention.names[0];
    }
  }
  return shared;
}
