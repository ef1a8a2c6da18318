// What a document's servers say about where its paths live. Shared by the operations
// manifest (the clients' /api/vX.Y prefixes) and the mock (the prefixes it serves under),
// so both read the prefix the same way.

/**
 * The path every operation of a document is served under: the path of servers[0].url
 * with its variables replaced by their defaults (`{api_prefix}` -> `/api/v2.0`). Prism
 * ignores server prefixes by design, so the mock bakes them into the operation paths.
 */
export function basePathOf(document) {
  const server = Array.isArray(document.servers) ? document.servers[0] : undefined;
  if (typeof server?.url !== 'string') return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name) => server.variables?.[name]?.default ?? '');
  const path = decodeURI(new URL(url, 'http://placeholder.invalid').pathname).replace(/\/+$/, '');
  return path === '/' ? '' : path;
}
