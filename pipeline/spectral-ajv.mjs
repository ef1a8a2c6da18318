// Spectral's JSON Schema validators, set up once per Spectral thread instead of once per
// linted document.
//
// @stoplight/spectral-functions' `schema` function (behind `oas3-schema`, the example rules
// and every rule that validates against a schema) asks its `createAjvInstances()` for a new
// set of Ajv instances on every lint run (keyed by the run's document inventory, by design:
// stoplightio/spectral#1845). Each new instance loads its meta-schemas and formats, and the
// OpenAPI schema `oas3-schema` checks every document against is compiled again: measured,
// about a third of a warm lint's CPU (10 lints of this workspace's 5 documents: 6.8-7.3 s of
// CPU, 3.7-5.0 s with the instances kept).
//
// `shareSchemaValidators()` replaces that export, in the thread that calls it, with one set
// of instances made as upstream makes them (same options, formats, error messages and
// draft-04/06 meta-schemas), and a compile that leaves nothing of a run behind:
//   - a schema object compiled before (the rulesets' own schemas, such as the OpenAPI
//     schema) keeps its validator, found by identity, as upstream does within one run;
//   - a schema whose `$id` an instance was made with (a meta-schema) gets that validator;
//   - any other schema (one from the linted document, a new object each run) is compiled
//     and then removed from the instance: nothing of a document outlives its run (the
//     validator goes with the schema object), and a `$id` never resolves to an earlier
//     run's schema of the same `$id`, which is what keying by run avoided upstream.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The module Spectral's `schema` function calls `createAjvInstances()` on. */
const AJV_MODULE = '@stoplight/spectral-functions/dist/schema/ajv.js';

/**
 * Upstream's logger: "unknown format" warnings are dropped, as the rulesets use formats Ajv
 * does not know.
 */
const logger = {
  warn(/** @type {unknown[]} */ ...args) {
    if (typeof args[0] === 'string' && args[0].startsWith('unknown format')) return;
    console.warn(...args);
  },
  log: console.log,
  error: console.error,
};

/**
 * The `assign(schema, dialect, allErrors)` function Spectral's `schema` calls, over one set
 * of instances, and the instances themselves (for the tests).
 * @param {NodeJS.Require} from  a require of the spectral-functions package (its own Ajv and plugins)
 */
export function createSharedAjv(from = createRequire(require.resolve(AJV_MODULE))) {
  const interop = (/** @type {any} */ module) => module.default ?? module;
  const Ajv = interop(from('ajv'));
  const classes = {
    auto: Ajv,
    draft4: interop(from('ajv-draft-04')),
    'draft2019-09': interop(from('ajv/dist/2019')),
    'draft2020-12': interop(from('ajv/dist/2020')),
  };
  const addFormats = interop(from('ajv-formats'));
  const addErrors = interop(from('ajv-errors'));
  const metaSchemas = [from('./draft4.json'), from('ajv/dist/refs/json-schema-draft-06.json')];
  /** @type {Map<string, any>} dialect and allErrors -> instance */
  const instances = new Map();
  /** @type {WeakMap<object, WeakMap<object, Function>>} instance -> schema -> validator */
  const compiled = new WeakMap();

  const instance = (/** @type {string} */ dialect, /** @type {boolean} */ allErrors) => {
    const Class = classes[/** @type {keyof typeof classes} */ (dialect)] ?? classes.auto;
    const key = `${Class === Ajv ? 'auto' : dialect} ${allErrors}`;
    let ajv = instances.get(key);
    if (!ajv) {
      ajv = new Class({ allErrors, meta: true, messages: true, strict: false, allowUnionTypes: true, logger, unicodeRegExp: false });
      addFormats(ajv);
      if (allErrors) addErrors(ajv);
      if (Class === Ajv) for (const meta of metaSchemas) ajv.addSchema(meta);
      instances.set(key, ajv);
      compiled.set(ajv, new WeakMap());
    }
    return ajv;
  };

  /**
   * @param {any} schema
   * @param {string} dialect
   * @param {boolean} allErrors
   */
  const assign = (schema, dialect, allErrors) => {
    const ajv = instance(dialect, allErrors);
    const known = /** @type {WeakMap<object, Function>} */ (compiled.get(ajv));
    const validator = known.get(schema);
    if (validator) return validator;
    // Only what the instance was made with is registered in it (every compile is removed
    // below): a `$id` found is a meta-schema's.
    if (typeof schema.$id === 'string') {
      const registered = ajv.getSchema(schema.$id);
      if (registered) return registered;
    }
    let validate;
    try {
      validate = ajv.compile(schema);
    } finally {
      ajv.removeSchema(schema);
    }
    known.set(schema, validate);
    return validate;
  };
  return { assign, instances };
}

let shared;

/** Makes every later Spectral run in this thread use one set of validators (see above). */
export function shareSchemaValidators() {
  const module = require(AJV_MODULE);
  if (typeof module.createAjvInstances !== 'function')
    throw new Error(`${AJV_MODULE} has no createAjvInstances: Spectral changed, re-check pipeline/spectral-ajv.mjs`);
  shared ??= createSharedAjv();
  module.createAjvInstances = () => shared.assign;
}
