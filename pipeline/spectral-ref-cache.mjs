// The $ref resolver cache Spectral lints with, so that a file can be referenced any number
// of times (stoplightio/spectral#2790: "$ref stops resolving after a limit is reached").
//
// Why: @stoplight/json-ref-resolver (3.1.x, under @stoplight/spectral-ref-resolver) keeps
// one runner per referenced file in its `uriCache` and hands that same runner to every
// `$ref` to the file. Each use from a referenced file (depth > 0) appends the referrer to
// the shared runner's `uriStack` (`uriResolver.uriStack = uriResolver.uriStack.concat(…)`
// in runner.js), and a runner whose stack reaches 100 refuses to look up anything more
// ("Max uri depth (100) reached. Halting, this is probably a circular loop."). So a file
// that itself holds a `$ref` (common/business-central/responses/NotShownError.yaml ->
// BusinessCentralError.yaml) resolves for its first ~100 uses only; the rest stay `$ref`
// objects, and rules see an untitled schema (false `house-error-response-model` errors at
// width), with no invalid-ref reported.
//
// The fix keeps the cache (each file read, parsed and resolved once: sharing is what keeps
// a document whose schemas share schemas from expanding like a bundle written with noRefs)
// and gives each runner the stack of the chain that first reached it: the stack may be set
// once, later appends are ignored. A chain that really loops still stops, as before: the
// check `uriStack.includes(file)` sees the first chain, and every chain is at most 100 long.
import spectralRefResolver from '@stoplight/spectral-ref-resolver'; // CommonJS

// The resolver's own Cache class, read from an instance: json-ref-resolver is not a direct
// dependency, and this is the very version Spectral's Resolver uses.
const Cache = /** @type {new (...args: any[]) => import('@stoplight/spectral-ref-resolver').Resolver['uriCache']} */ (
  new spectralRefResolver.Resolver().uriCache.constructor
);

/** Makes `runner.uriStack` assignable once (the first chain), then fixed. */
function pinStack(runner) {
  if (!runner || typeof runner !== 'object' || !Array.isArray(runner.uriStack)) return runner;
  let stack = runner.uriStack;
  let assigned = false;
  Object.defineProperty(runner, 'uriStack', {
    configurable: true,
    enumerable: true,
    get: () => stack,
    set: (next) => {
      if (assigned) return;
      stack = next;
      assigned = true;
    },
  });
  return runner;
}

/**
 * A json-ref-resolver `uriCache` whose runners keep their first chain's stack. It holds a
 * runner (the root document's) or a promise of one (every other file, memoized lookups).
 */
export class FirstChainCache extends Cache {
  // Called with the root document's runner (itself), and with the promise of a runner for
  // every other file (fast-memoize stores what lookupUri returns, before it settles).
  /** @override */
  set(key, value) {
    if (typeof value?.then !== 'function') return super.set(key, pinStack(value));
    const pinned = value.then(pinStack);
    // A file that cannot be read rejects: each later use awaits `pinned` and reports it
    // (invalid-ref), but if there is none, this branch must not be an unhandled rejection.
    pinned.catch(() => {});
    return super.set(key, pinned);
  }
}
