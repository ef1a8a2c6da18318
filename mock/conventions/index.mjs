// Which answer each operation gets, decided once per load from the documents alone, so
// that an operation added to a document needs no mock code:
//   1. a rule the source states for that operation (behaviours/, by operationId);
//   2. the family's convention: business data's OData entity sets (odata.mjs), resource
//      management's resource lifecycle (arm.mjs: the types whose document declares a PUT
//      on the instance path, with long-running operations, long-running.mjs), else its
//      nextLink paging (paging.mjs);
//   3. else its documented example (Prism's answer: the first example of its lowest 2xx),
//      which the mock reports once per operation at start (routes[].convention 'example').
// Prism validates every request first in all three cases; `Prefer` still picks an answer.
import { behaviours } from '../behaviours/index.mjs';
import { armCatalogue, armHandler } from './arm.mjs';
import { catalogueSets, odataHandler, odataShape } from './odata.mjs';
import { pagingHandler, pagingShape } from './paging.mjs';

/**
 * Attaches `handler` (or none) and `convention` to every operation of every document.
 * Returns what seeding needs: the entity sets, the paged operations and the ARM
 * resource types (with the documented resources the store starts from).
 */
export function applyConventions(documents) {
  const arm = armCatalogue(documents);
  const armCovered = new Map(arm.covered.map((entry) => [entry.op, entry]));
  const odata = [];
  const pagedOperations = new Map(); // operationId -> handler (of its first document)
  for (const doc of documents) {
    for (const op of doc.operations) {
      const pathItem = doc.document.paths[op.docPath];
      const operation = pathItem[op.method];
      const behaviour = behaviours.get(op.iid);
      const shape = odataShape(doc, op);
      const paging = pagingShape(doc, { method: op.method, operation });
      if (behaviour?.respond) {
        op.handler = behaviour;
        op.convention = 'source-rule';
      } else if (shape) {
        odata.push({ doc, op, shape, operation, pathItem });
      } else if (armCovered.has(op)) {
        op.handler = armHandler(armCovered.get(op), arm);
        op.convention = op.handler.convention;
      } else if (paging) {
        op.handler = pagingHandler({ doc, operation, shape: paging, extraItems: behaviour?.extraItems });
        op.convention = op.handler.convention;
        if (!pagedOperations.has(op.iid)) pagedOperations.set(op.iid, op.handler);
      } else {
        op.handler = behaviour?.decorate || behaviour?.rejected ? behaviour : undefined;
        op.convention = 'example';
      }
    }
  }
  const sets = catalogueSets(odata);
  for (const entry of odata) {
    entry.op.handler = odataHandler({ ...entry, sets });
    entry.op.convention = entry.op.handler.convention;
  }
  return { sets, pagedOperations, arm };
}
