// House rule: operationIds follow the family's convention, so generated names and
// docs read the same way across documents.
//   resource management: Resource_Verb          (RoleEligibilityScheduleRequests_Get)
//   business data:       verbNoun, lower camel  (updateVendor, createShipmentMethod; a bound
//                        action names its own verb: postSalesInvoice for Microsoft.NAV.post)
import { BUSINESS_CENTRAL, familyOf, RESOURCE_MANAGER } from '../model/family.mjs';
import { operationsOf } from '../model/operations.mjs';

const CONVENTIONS = {
  [RESOURCE_MANAGER]: { pattern: /^[A-Z][A-Za-z0-9]*_[A-Z][A-Za-z0-9]*$/, example: 'Resource_Verb (e.g. Servers_CheckNameAvailability)' },
  // Any lower-case verb, not only get/list/create/update/delete: Business Central's bound
  // actions (POST …/Microsoft.NAV.post, .cancel, .send) are verbs of their own.
  [BUSINESS_CENTRAL]: { pattern: /^[a-z]+[A-Z][A-Za-z0-9]*$/, example: 'verbNoun (e.g. updateVendor)' },
};

export default function operationIdConvention(document) {
  const convention = CONVENTIONS[familyOf(document)];
  if (!convention) return [];
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    const id = operation.operationId;
    if (typeof id !== 'string' || !convention.pattern.test(id)) {
      results.push({
        message: `operationId "${id ?? ''}" of ${method.toUpperCase()} ${pathKey} must follow ${convention.example}.`,
        path: ['paths', pathKey, method, ...(id === undefined ? [] : ['operationId'])],
      });
    }
  }
  return results;
}
