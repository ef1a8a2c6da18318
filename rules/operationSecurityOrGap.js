// House rule: every operation either declares its security (its own or the document's)
// or records, with `x-source-gap`, that the source does not show it. Silence is the
// one thing not allowed: an operation that simply forgets security looks public.
import { operationsOf } from '../model/operations.mjs';

const declares = (security) => Array.isArray(security) && security.length > 0;

export default function operationSecurityOrGap(document) {
  const results = [];
  for (const [pathKey, method, operation] of operationsOf(document)) {
    const security = operation.security ?? document.security;
    if (declares(security)) continue;
    const gap = operation['x-source-gap'];
    if (typeof gap === 'string' && /authenticat|security/i.test(gap)) continue;
    results.push({
      message: `${method.toUpperCase()} ${pathKey} declares no security and records no x-source-gap about its authentication.`,
      path: ['paths', pathKey, method],
    });
  }
  return results;
}
