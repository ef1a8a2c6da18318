// The version an unpinned client sends per API, from the generated client manifest.
// Its own file: test/unit/versions.test.ts swaps that manifest for a substitute.
import { apis } from '../../generated/client-manifest.js';

/**
 * The version an unpinned client sends per API: the generated defaults (the newest
 * non-preview version), so these tests hold in a workspace of any number of versions.
 */
export const DEFAULT = {
  authorization: apis['resource-manager'].authorization.default,
  sql: apis['resource-manager'].sql.default,
  containerinstance: apis['resource-manager'].containerinstance.default,
  vendors: apis['business-central'].vendors.default,
  shipmentmethods: apis['business-central'].shipmentmethods.default,
} as const;
