// Spectral's JSON Schema validators for the rulesets' own schemas, set up once per Spectral
// thread instead of once per linted document.
//
// @stoplight/spectral-functions' `schema` function (behind the OpenAPI rules that validate
// against a schema) asks its `createAjvInstances()` for a new set of Ajv instances on every
// lint run (keyed by the run's document inventory, by design: stoplightio/spectral#1845, so
// that a `$id` never answers with another run's schema). Each new set loads its
// meta-schemas and formats, and the OpenAPI schema every document is checked against is
// compiled again: about a third of a warm lint's CPU here (10 lints of this workspace's 5
// documents: 6.8-7.3 s of CPU, 3.4-4.5 s with the rulesets' schemas kept).
//
// `shareSchemaValidators()` wraps that export, in the thread that calls it. Each run still
// gets upstream's own per-run instances, made when it first needs them, for every schema
// it has not seen in an earlier run: a document's schemas (new objects each run), with
// upstream's behaviour exactly (`$id`s and `$ref`s between them within the run; nothing
// kept after it). A schema object seen again in a later run is a ruleset's own (the OpenAPI
// schema, a rule's options): it is compiled once into one set of upstream's instances kept
// for the thread, and every later run uses that validator.

import { createRequire } from 'node:module';

/** The module Spectral's `schema` function calls `createAjvInstances()` on. */
const AJV_MODULE = '@stoplight/spectral-functions/dist/schema/ajv.js';

/**
 * The replacement for `createAjvInstances`, over `upstream` (the original): called once per
 * run, it returns that run's `assign(schema, dialect, allErrors)`.
 * @param {() => (schema: object, dialect: string, allErrors: boolean) => Function} upstream
 */
export function runScopedAjv(upstream) {
  /** @type {WeakMap<object, number>} schema -> the run that first asked for it */
  const firstRun = new WeakMap();
  /** @type {((schema: object, dialect: string, allErrors: boolean) => Function) | undefined} */
  let kept;
  let runs = 0;
  return () => {
    const run = ++runs;
    /** @type {((schema: object, dialect: string, allErrors: boolean) => Function) | undefined} */
    let own;
    return (/** @type {object} */ schema, /** @type {string} */ dialect, /** @type {boolean} */ allErrors) => {
      const first = firstRun.get(schema);
      if (first !== undefined && first !== run) {
        kept ??= upstream();
        return kept(schema, dialect, allErrors);
      }
      if (first === undefined) firstRun.set(schema, run);
      own ??= upstream();
      return own(schema, dialect, allErrors);
    };
  };
}

/** Makes every later Spectral run in this thread share the rulesets' validators (see above). */
export function shareSchemaValidators() {
  const module = createRequire(import.meta.url)(AJV_MODULE);
  if (typeof module.createAjvInstances !== 'function')
    throw new Error(`${AJV_MODULE} has no createAjvInstances: Spectral changed, re-check pipeline/spectral-ajv.mjs`);
  if (module.createAjvInstances.runScoped) return;
  const wrapped = runScopedAjv(module.createAjvInstances);
  // `upstream`: the original, for a caller that must reach it whatever ran first in the process.
  module.createAjvInstances = Object.assign(wrapped, { runScoped: true, upstream: module.createAjvInstances });
}
