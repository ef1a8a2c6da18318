// Which API family a document belongs to, read from its first server URL:
// resource management is served from `{base_url}`, business data from `{api_prefix}`.
export const RESOURCE_MANAGER = 'resource-manager';
export const BUSINESS_CENTRAL = 'business-central';

export function familyOf(document) {
  const url = document?.servers?.[0]?.url ?? '';
  if (url.startsWith('{base_url}')) return RESOURCE_MANAGER;
  if (url.startsWith('{api_prefix}')) return BUSINESS_CENTRAL;
  return undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// Yields [pathKey, method, operation] for every operation of a document.
export function* operationsOf(document) {
  for (const [pathKey, pathItem] of Object.entries(document?.paths ?? {})) {
    if (!pathItem || typeof pathItem !== 'object') continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation && typeof operation === 'object') yield [pathKey, method, operation, pathItem];
    }
  }
}
