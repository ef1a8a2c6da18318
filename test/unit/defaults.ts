// The version an unpinned client sends each operation at, from the generated client
// manifest. Its own file: test/unit/versions.test.ts swaps that manifest for a substitute.
import { apis } from '../../generated/client-manifest.js';

/**
 * The version an unpinned client sends each of the source's five operations at (the
 * newest non-preview version that declares it), so these tests hold in a workspace of
 * any number of versions. Keyed by the resource each operation serves.
 */
export const DEFAULT = {
  authorization: apis['resource-manager'].authorization.operations['GET /{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}'],
  sql: apis['resource-manager'].sql.operations['POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability'],
  containerinstance: apis['resource-manager'].containerinstance.operations['GET /subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages'],
  vendors: apis['business-central'].businesscentral.operations['PATCH /companies({company_id})/vendors({vendor_id})'],
  shipmentmethods: apis['business-central'].businesscentral.operations['POST /companies({company_id})/shipmentMethods'],
} as const;
