// The version an unpinned client sends each operation at, from the generated catalogue
// (the client manifest lists only what a client cannot derive). Its own file:
// test/unit/versions.test.ts swaps the client manifest for a substitute.
import { catalogue } from '../../generated/operations.js';
import type { Targets } from '../../generated/versions.js';
// @ts-expect-error: plain ESM module without types
import { targetOf } from '../../pipeline/manifest.mjs';

/** Typed as the version the clients' types expect for that operation (generated/versions.ts `Targets`). */
const target = <F extends keyof Targets, A extends keyof Targets[F], K extends keyof Targets[F][A]>(family: F, api: A, key: K): Targets[F][A][K] => {
  const versions = (catalogue[family] as Record<string, { operations: Record<string, readonly string[]> }>)[api as string]!.operations[key as string];
  return targetOf([...(versions ?? [])]);
};

/**
 * The version an unpinned client sends each of the source's five operations at (the
 * newest non-preview version that declares it), so these tests hold in a workspace of
 * any number of versions. Keyed by the resource each operation serves.
 */
export const DEFAULT = {
  authorization: target(
    'resource-manager',
    'authorization',
    'GET /{scope}/providers/Provider.Authorization/roleEligibilityScheduleRequests/{roleEligibilityScheduleRequestName}',
  ),
  sql: target('resource-manager', 'sql', 'POST /subscriptions/{subscriptionId}/providers/Provider.Sql/checkNameAvailability'),
  containerinstance: target(
    'resource-manager',
    'containerinstance',
    'GET /subscriptions/{subscriptionId}/providers/Provider.ContainerInstance/locations/{location}/cachedImages',
  ),
  vendors: target('business-central', 'businesscentral', 'PATCH /companies({company_id})/vendors({vendor_id})'),
  shipmentmethods: target('business-central', 'businesscentral', 'POST /companies({company_id})/shipmentMethods'),
};
