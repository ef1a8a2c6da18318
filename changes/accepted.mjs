// Breaking changes accepted on purpose: specs/accepted-changes.yaml, one entry per change
// with the reason it is acceptable (like a lint suppression with its reason).
import { ChangesError, locationOf, parseFile } from './load.mjs';
import { RULE_NAMES } from './rules.mjs';
import { asArray, isObject, stable } from './schema.mjs';

export const ACCEPTED_FILE = 'specs/accepted-changes.yaml';
const FIELDS = ['api', 'version', 'rule', 'operation', 'location', 'match', 'reason'];
const lineOf = (entry) => entry.__line;

/** The entries of the file in `source` (none if it is absent); a malformed entry is an error, unless `lenient`. */
export function readAccepted(source, { lenient = false } = {}) {
  let data;
  try {
    data = parseFile(source, ACCEPTED_FILE);
  } catch (error) {
    if (lenient) return [];
    throw error;
  }
  if (data === undefined || data === null) return [];
  const where = (line) => `${source.display(ACCEPTED_FILE)}:${line}`;
  const fail = (line, why) => {
    if (!lenient) throw new ChangesError(`${where(line)}: ${why}`);
  };
  if (!isObject(data) || !(data.accepted === null || Array.isArray(data.accepted))) {
    fail(1, 'expected a mapping with a list `accepted:`');
    return [];
  }
  const entries = [];
  const lines = data.accepted ? data.accepted.map((_, i) => Number(/:(\d+)$/.exec(locationLine(data.accepted, i))?.[1] ?? 1)) : [];
  for (const [i, raw] of asArray(data.accepted).entries()) {
    const line = lines[i];
    if (!isObject(raw)) {
      fail(line, 'an entry must be a mapping');
      continue;
    }
    const unknown = Object.keys(raw).filter((k) => !FIELDS.includes(k));
    const missing = ['api', 'version', 'rule', 'reason'].filter((k) => typeof raw[k] !== 'string' || !raw[k].trim());
    if (unknown.length) fail(line, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (allowed: ${FIELDS.join(', ')})`);
    else if (missing.length) fail(line, `an entry needs ${missing.join(', ')} (a reason says why the break is acceptable)`);
    else if (!RULE_NAMES.has(raw.rule)) fail(line, `unknown rule "${raw.rule}"`);
    else if (raw.operation === undefined && raw.location === undefined) fail(line, 'an entry needs an operation or a location');
    else entries.push(Object.defineProperty({ ...raw, version: String(raw.version) }, '__line', { value: line }));
  }
  return entries;
}

const locationLine = (list, i) => locationOf(list, i) ?? '';

export const matches = (entry, change) =>
  entry.api === change.api &&
  entry.version === change.version &&
  entry.rule === change.rule &&
  (entry.operation === undefined || entry.operation === change.operation) &&
  (entry.location === undefined || change.location === entry.location || change.location.startsWith(`${entry.location}:`)) &&
  (entry.match === undefined || change.message.includes(entry.match));

const identity = (entry) => stable(Object.fromEntries(FIELDS.map((k) => [k, entry[k]])));

/**
 * Marks each change an entry matches (`context.accepted` = the reason) and returns the
 * stale entries: those new or edited since the base that match no change. Entries that
 * were already there at the base recorded an earlier change and are left alone.
 */
export function applyAccepted(changes, entries, baseEntries) {
  const used = new Set();
  for (const change of changes) {
    const entry = entries.find((e) => matches(e, change));
    if (!entry) continue;
    change.context.accepted = entry.reason;
    used.add(entry);
  }
  const before = new Set(baseEntries.map(identity));
  return entries.filter((e) => !used.has(e) && !before.has(identity(e))).map((e) => ({ ...e, line: lineOf(e) }));
}
