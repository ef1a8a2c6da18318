// A whole API or version coming or going (a `redocly.yaml` entry added or removed), named
// with its operations: one change per operation, so a reader of the text and a tool
// reading `--json` both learn which calls appeared or disappeared (`operation: '*'` only
// for a document with no operations). The other rules compare two documents of the same
// API (rules.mjs); these see one document and whether its API has other versions.
import { operations } from './compare.mjs';
import { locationOf } from './load.mjs';

const code = (s) => `\`${s}\``;

/** The rules, for the docs table and the tests (same fields as rules.mjs, without `check`). */
export const PRESENCE_RULES = [
  {
    name: 'api-removed',
    level: 'breaking',
    why: 'every client of the API loses every operation (reported for a version that exists at the base, a published one)',
  },
  { name: 'version-removed', level: 'breaking', why: "clients pinned to that version lose every operation; the API's other versions remain" },
  { name: 'api-added', level: 'info', why: 'a new API: new calls become possible, nothing existing changes' },
  {
    name: 'version-added',
    level: 'info',
    why: 'a new version of an API: new calls become possible (what it changes against the previous version is reported beside it)',
  },
];
const LEVEL = new Map(PRESENCE_RULES.map((r) => [r.name, r.level]));

/**
 * The changes for `name` (`<api>@<version>`) added or removed as a whole.
 *   rule      one of PRESENCE_RULES' names;
 *   document  the resolved document (the new one when added, the base's when removed);
 *   location  where to point for a removal (the `apis` list of redocly.yaml); an addition
 *             points at each operation in the new document.
 * @param {string} rule
 * @param {{ name: string, document: any, location?: string }} what
 */
export function presenceChanges(rule, { name, document, location }) {
  const [api, version = ''] = name.split('@');
  const level = LEVEL.get(rule);
  if (!level) throw new Error(`unknown presence rule ${rule}`);
  const added = rule.endsWith('-added');
  const what = rule.startsWith('api') ? `the API ${code(api)} (${name})` : `version ${version} of ${code(api)}`;
  const ops = [...operations(document ?? {}).values()];
  const fallback = location ?? locationOf(document) ?? 'redocly.yaml:1';
  if (!ops.length) {
    return [
      {
        api,
        version,
        operation: '*',
        rule,
        level,
        message: `${what} was ${added ? 'added' : 'removed from redocly.yaml'}; it has no operations`,
        location: fallback,
      },
    ];
  }
  return ops.map((op) => ({
    api,
    version,
    operation: op.label,
    rule,
    level,
    message: added
      ? `${what} was added with operation ${code(op.label)} (${op.method.toUpperCase()} ${op.path})`
      : `${what} was removed from redocly.yaml, and with it operation ${code(op.label)} (${op.method.toUpperCase()} ${op.path})`,
    location: added ? (locationOf(op.op) ?? fallback) : fallback,
  }));
}
