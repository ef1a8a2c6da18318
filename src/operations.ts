/**
 * Which operation, at which version: the operations of generated/client-manifest.ts
 * looked up by "METHOD path", each at the version this client sends it with (the pinned
 * version of its API, else the operation's own target), with its api-version or
 * `/api/<version>` prefix.
 */
import { apis } from '../generated/client-manifest.js';
import { refuseOption, type ClientOptions, type Family } from './options.js';

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
}

/**
 * The shape of a version per family. Every version the workspace holds has it
 * (scripts/manifest.mjs refuses to generate otherwise, with the same expressions).
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
interface HeldApi {
  default: string | null;
  operations: Readonly<Record<string, string | null>>;
  finalStateVia?: Readonly<Record<string, string>>;
}

/**
 * The versions pinned in `apiVersions`, checked: an API the family does not have is
 * refused, and a version not shaped like one of the family's. Which versions the package
 * holds is the types' business (compile time): that list grows with every version, and
 * an app would pay for it in bytes. A well-formed version the server does not serve is
 * sent as is, and the server says so.
 */
function pinnedVersions(family: Family, pins: ClientOptions['apiVersions']): Map<string, string> {
  if (pins !== undefined && (pins === null || typeof pins !== 'object' || Array.isArray(pins))) {
    refuseOption('apiVersions', 'must be an object');
  }
  const pinned = new Map<string, string>();
  for (const [apiName, version] of Object.entries(pins ?? {})) {
    if (!Object.hasOwn(apis[family], apiName)) refuseOption(`apiVersions.${apiName}`, `names no ${family} API (${Object.keys(apis[family]).join(', ')})`);
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
 * version of its API, else the operation's own target (the newest non-preview version
 * that declares it); or, for an operation only previews declare on an unpinned client,
 * why not (for the error). A pinned API sends every operation of its API: the types
 * refuse one the pinned version lacks, and the server answers it otherwise.
 */
export function operationTable(family: Family, pins: ClientOptions['apiVersions'], base: string) {
  const pinned = pinnedVersions(family, pins);
  const ops = new Map<string, OperationInfo>();
  const unsendable = new Map<string, string>();
  for (const [apiName, held] of Object.entries(apis[family] as Record<string, HeldApi>)) {
    for (const [key, target] of Object.entries(held.operations)) {
      const version = pinned.get(apiName) ?? target;
      if (!version) {
        unsendable.set(key, `${key} is only in preview versions of ${apiName}; pin one that has it: apiVersions: { ${apiName}: '...' }.`);
        continue;
      }
      const prefix = family === 'business-central' ? `/api/${version}` : '';
      const space = key.indexOf(' ');
      ops.set(key, {
        apiName,
        version,
        apiVersion: family === 'resource-manager' ? version : undefined,
        prefix,
        what: `${key.slice(0, space)} ${base}${prefix}${key.slice(space + 1)}`,
        finalStateVia: held.finalStateVia?.[key],
      });
    }
  }
  return { ops, unsendable };
}
