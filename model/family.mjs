// Which API family a document, a spec root or a request path belongs to: resource
// management (Azure Resource Manager's contract, versioned by `api-version`) or business
// data (OData entity sets, versioned by the `/api/vX.Y` prefix).

export const RESOURCE_MANAGER = 'resource-manager';
export const BUSINESS_CENTRAL = 'business-central';
/** @typedef {'resource-manager' | 'business-central'} Family */
/** @type {Family[]} */
export const FAMILIES = [RESOURCE_MANAGER, BUSINESS_CENTRAL];

/**
 * The family of a document, read from its first server URL: resource management is
 * served from `{base_url}`, business data from `{api_prefix}`; undefined for neither.
 * @param {any} document
 * @returns {Family | undefined}
 */
export function familyOf(document) {
  const url = document?.servers?.[0]?.url ?? '';
  if (url.startsWith('{base_url}')) return RESOURCE_MANAGER;
  if (url.startsWith('{api_prefix}')) return BUSINESS_CENTRAL;
  return undefined;
}

/**
 * The family of a spec root (a redocly.yaml `root`): its folder says it.
 * @param {string} root
 * @returns {Family}
 */
export const familyOfRoot = (root) => (root.includes('/resource-manager/') ? RESOURCE_MANAGER : BUSINESS_CENTRAL);

/**
 * The family a request path most likely belongs to (for the error body of a path no
 * document serves): business data's paths start with its `/api/vX.Y` prefix.
 * @param {string} path
 * @returns {Family}
 */
export const familyOfPath = (path) => (/^\/api\/v\d/.test(path) ? BUSINESS_CENTRAL : RESOURCE_MANAGER);
