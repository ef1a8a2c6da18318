/**
 * Which operation, at which version: "METHOD path" looked up in generated/client-manifest.ts,
 * which lists per API only what a client cannot derive. An operation listed under an API
 * is sent at its listed target; any other belongs to the API its path matches (the
 * namespace after its last `providers` for resource management, the one business-data API)
 * and is sent at that API's default; a pin of the API wins over both. Looked up on first
 * use and remembered, so creating a client costs nothing per operation. The APIs looked in
 * are the client's own: every API of its family, or only those the app names (`heldOf`).
 */
import { refuseOption, type ClientOptions, type Family } from './options.js';
import { serializerOf, type PathKinds } from './path-serializer.js';

export interface OperationInfo {
  /** The API (before `@`) and the version this client sends it with. */
  apiName: string;
  version: string;
  apiVersion?: string;
  prefix?: string;
  /** "POST https://host/path-template", for messages; built once, not per call. */
  what: string;
  /** A long-running operation's `final-state-via`, when its document declares one. */
  finalStateVia?: string;
  /** Its path serializer: each parameter written as its API's documents say. */
  serialize: (url: string, params: Record<string, unknown>) => string;
}

/**
 * The shape of a version per family. Every version the workspace holds has it
 * (pipeline/manifest.mjs refuses to generate otherwise, with the same expressions).
 */
export const VERSION_SHAPES: Readonly<Record<Family, RegExp>> = {
  'resource-manager': /^\d{4}-\d\d-\d\d(-preview)?$/,
  'business-central': /^v\d+\.\d+$/,
};

/**
 * One API in generated/client-manifest.ts: its default, and its operations with the version
 * an unpinned client sends each at (the newest non-preview version declaring it; null when
 * only previews declare it).
 */
export interface HeldApi {
  default: string | null;
  /** What a path names to belong to this API (see namespaceOf); absent: only its listed operations. */
  match?: string;
  /** The operations a client cannot derive, with their unpinned target. */
  operations: Readonly<Record<string, string | null>>;
  finalStateVia?: Readonly<Record<string, string>>;
  /** The path parameters (by name) its documents say more of than "one plain segment". */
  pathParameters?: PathKinds;
}

/** One API as generated/client-manifest.ts exports it on its own (`sqlApi`): what a client of named APIs takes. */
export interface ManifestApi<F extends Family = Family, Name extends string = string> extends HeldApi {
  family: F;
  name: Name;
}

/** API name -> entry, from the APIs an app names, each checked to be one of the family's manifest entries. */
export function heldOf(family: Family, named: readonly ManifestApi[]): Readonly<Record<string, HeldApi>> {
  if (!Array.isArray(named) || !named.length || named.some((api) => api?.family !== family || typeof api.name !== 'string')) {
    refuseOption('apis', `must list one or more ${family} APIs as the package exports them (\`<api>Api\`)`);
  }
  return Object.fromEntries(named.map((api) => [api.name, api]));
}

/** The namespace after a path's last literal `providers` segment (pipeline/manifest.mjs namespaceOf: keep the two equal). */
export function namespaceOf(path: string): string | null {
  const parts = path.split('/');
  const name = parts[parts.lastIndexOf('providers') + 1];
  return parts.includes('providers') && name && !name.includes('{') ? name : null;
}

/**
 * The versions pinned in `apiVersions`, checked: an API the family does not have is
 * refused, and a version not shaped like one of the family's. Which versions the package
 * holds is the types' business (compile time): that list grows with every version, and
 * an app would pay for it in bytes. A well-formed version the server does not serve is
 * sent as is, and the server says so.
 */
function pinnedVersions(family: Family, held: Readonly<Record<string, HeldApi>>, pins: ClientOptions['apiVersions']): Map<string, string> {
  if (pins !== undefined && (pins === null || typeof pins !== 'object' || Array.isArray(pins))) {
    refuseOption('apiVersions', 'must be an object');
  }
  const pinned = new Map<string, string>();
  for (const [apiName, version] of Object.entries(pins ?? {})) {
    if (!Object.hasOwn(held, apiName)) refuseOption(`apiVersions.${apiName}`, `names no ${family} API (${Object.keys(held).join(', ')})`);
    if (version === undefined) continue;
    if (typeof version !== 'string' || !VERSION_SHAPES[family].test(version)) {
      refuseOption(`apiVersions.${apiName}`, `must be a ${family} version: ${family === 'resource-manager' ? 'YYYY-MM-DD or YYYY-MM-DD-preview' : 'vN.N'}`);
    }
    pinned.set(apiName, version);
  }
  return pinned;
}

/**
 * "METHOD path" -> the operation at the version this client sends it with: the pinned
 * version of its API, else the operation's own target; or, for an operation only previews
 * declare on an unpinned client, or a path of no API, why not (for the error). A pinned API
 * sends every operation of its API: the types refuse one the pinned version lacks, and the
 * server answers it otherwise.
 */
export function operationTable(family: Family, held: Readonly<Record<string, HeldApi>>, pins: ClientOptions['apiVersions'], base: string) {
  const pinned = pinnedVersions(family, held, pins);
  const names = Object.keys(held);
  const found = new Map<string, OperationInfo | string>();

  function resolve(key: string): OperationInfo | string {
    const space = key.indexOf(' ');
    let apiName = names.find((name) => held[name]!.operations[key] !== undefined);
    let target = apiName === undefined ? undefined : held[apiName]!.operations[key];
    if (apiName === undefined) {
      const wanted = family === 'resource-manager' ? namespaceOf(key.slice(space + 1)) : '';
      apiName = names.find((name) => held[name]!.match === wanted);
      if (apiName === undefined) return `${key} is not a ${family} operation.`;
      target = held[apiName]!.default;
    }
    const version = pinned.get(apiName) ?? target;
    if (!version) return `${key} is only in preview versions of ${apiName}; pin one that has it: apiVersions: { ${apiName}: '...' }.`;
    const prefix = family === 'business-central' ? `/api/${version}` : '';
    return {
      apiName,
      version,
      apiVersion: family === 'resource-manager' ? version : undefined,
      prefix,
      what: `${key.slice(0, space)} ${base}${prefix}${key.slice(space + 1)}`,
      finalStateVia: held[apiName]!.finalStateVia?.[key],
      serialize: serializerOf(held[apiName]!.pathParameters),
    };
  }

  /** The operation of "METHOD path", or why it cannot be sent. */
  return (key: string): OperationInfo | string => found.get(key) ?? found.set(key, resolve(key)).get(key)!;
}
