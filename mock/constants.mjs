// Values a test of the mock may need, importable without Prism (index.mjs re-exports them).

/**
 * The eTag an entity starts with when nobody chose one (an unseen key, a seeded entity
 * without eTag) and no document gives its If-Match an example: the tag the README's
 * examples use.
 */
export const INITIAL_ETAG = 'W/"JzQ0OzE3NjE2Mjk1MzQ1OTI0MjkxMDYxOzAwOyc="';

/** Where the test API answers over HTTP by default. */
export const ADMIN_PREFIX = '/__mock';
