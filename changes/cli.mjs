#!/usr/bin/env node
// `npm run changes -- [--base <git-ref>] [--json]`: what the working tree's spec changes do
// to clients, against <base> (default HEAD). Exit 1 when a breaking change sits inside a
// version that exists at <base> and is not recorded in specs/accepted-changes.yaml; 2 for a
// usage error or a document that cannot be read, parsed or resolved.
import { resolve } from 'node:path';
import { ACCEPTED_FILE } from './accepted.mjs';
import { ChangesError, compareWithBase, formatChange } from './index.mjs';
import { isMain } from '../lib/findings.mjs';

const USAGE = 'usage: npm run changes -- [--base <git-ref>] [--json]';

function parseArgs(argv) {
  const options = { base: 'HEAD', json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--base' || arg.startsWith('--base=')) {
      const value = arg === '--base' ? argv[++i] : arg.slice('--base='.length);
      if (!value || value.startsWith('--')) throw new ChangesError(`--base needs a git ref (${USAGE})`);
      options.base = value;
    } else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new ChangesError(`unknown argument "${arg}" (${USAGE})`);
  }
  return options;
}

function human({ base, groups, changes }) {
  const lines = [];
  for (const group of groups) {
    const against = group.removed
      ? `removed since ${base}`
      : group.targets
        ? `against ${base} (the version an unpinned client sends each operation at)`
        : !group.against
          ? `new since ${base}, ${group.newApi ? 'a new API' : 'no earlier version left'} (no earlier version to compare with)`
          : group.published
            ? `against ${base}`
            : `between versions (${group.against.version} -> ${group.name.split('@')[1]}), new since ${base}`;
    lines.push(`${group.name} ${against}: ${group.changes.length ? `${group.changes.length} change${group.changes.length > 1 ? 's' : ''}` : 'no changes'}`);
    for (const c of group.changes) lines.push(`  ${formatChange(c)}${c.context.accepted ? `  (accepted: ${c.context.accepted})` : ''}`);
  }
  const count = (f) => changes.filter(f).length;
  const failing = count((c) => c.level === 'breaking' && c.context.published && !c.context.accepted);
  const accepted = count((c) => c.level === 'breaking' && c.context.published && c.context.accepted);
  const between = count((c) => c.level === 'breaking' && !c.context.published);
  lines.push(
    `changes: ${failing} breaking in published versions, ${accepted} accepted, ${between} breaking between versions, ` +
      `${count((c) => c.level === 'warning')} warning, ${count((c) => c.level === 'info')} info`,
  );
  return lines.join('\n');
}

/** The command: prints the report and returns the exit code (0, 1 or 2). */
export async function main(argv = process.argv.slice(2)) {
  try {
    const options = parseArgs(argv);
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    const result = compareWithBase({ root: resolve(import.meta.dirname, '..'), base: options.base });
    for (const entry of result.stale) {
      console.error(
        `${ACCEPTED_FILE}:${entry.line}: stale accepted change (${entry.api}@${entry.version} ${entry.rule} ${entry.operation ?? entry.location}) matches no change against ${options.base}; remove it`,
      );
    }
    if (options.json) process.stdout.write(`${JSON.stringify(result.changes, null, 2)}\n`);
    else console.log(human(result));
    const failing = result.changes.filter((c) => c.level === 'breaking' && c.context.published && !c.context.accepted);
    if (failing.length) {
      console.error(
        `changes: ${failing.length} breaking change${failing.length > 1 ? 's' : ''} inside published versions; record each in ${ACCEPTED_FILE} with a reason, or make it in a new version`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    if (!(error instanceof ChangesError)) throw error;
    console.error(`changes: ${error.message}`);
    return 2;
  }
}

if (isMain(import.meta.url)) process.exitCode = await main();
