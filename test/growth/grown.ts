// One workspace copy grown by every recipe the growth files check, built once per run and
// shared by them:
//   - the weekly growth edits (test/growth/edits.mjs: a vendor field, GET and DELETE, shipment
//     methods in v2.0, a paged list, a resource type with long-running PUT/DELETE and a child
//     type, a filtered and paged entity set, a new sql api-version), with the copy as it was
//     committed before them as the change report's base;
//   - the server PUTs marked `final-state-via: azure-async-operation`, as Azure's
//     container-instance document marks its container groups (test/growth/sdk.test.ts);
//   - an entity set with lines, `@odata.etag`, `/$count`, return=minimal and the version's
//     `$batch` (test/growth/odata-recipe.mjs);
//   - an extension resource type at `{scope}` (specs/templates/extension-resource/).
// All of it by the recipes in specs/README.md, in one copy, as a contributor grows the
// workspace: each file's checks hold beside the others' growth, which a test that grew its
// own copy alone never showed. The copy is made once per run (by the first worker that
// asks; the other waits for it) in the run's scratch folder, which the unit project's
// global setup removes when the run ends (test/growth/global-setup.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { runInProcess } from '../helpers/in-process.js';
import { workspaceCopy } from '../helpers/workspace-copy.js';
// @ts-expect-error: plain ESM module without types
import { applyGrowthEdits, GROWTH } from './edits.mjs';
// @ts-expect-error: plain ESM module without types
import { addOrderSet } from './odata-recipe.mjs';

export const AUTHORIZATION = 'specs/resource-manager/Provider.Authorization/2020-10-01';

export interface Grown {
  dir: string;
  /** The copy's build after every edit. */
  build: { code: number; output: string };
  /** Components the bundler renamed (`X-2`) before the edits, by bundle file. */
  renamedBefore: Record<string, string[]>;
  /** What applyGrowthEdits made (an edit the workspace already had is skipped). */
  applied: Record<string, boolean>;
  sqlVersion: string;
  entitySet: { plural: string; keyParam: string; set: string; key: string; list: string; get: string };
  /** The entity set of the OData recipe. */
  order: { entity: string; set: string; keyParam: string; batch: boolean };
}

/** Components the bundler renamed (`<name>-2`: two definitions of one name in one document), by bundle file. */
export async function renamedComponents(dir: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const file of await readdir(join(dir, 'generated/bundled'))) {
    const components = parse(await readFile(join(dir, 'generated/bundled', file), 'utf8')).components ?? {};
    const renamed = Object.values(components)
      .flatMap((group) => Object.keys(group as object))
      .filter((name) => /-\d+$/.test(name));
    if (renamed.length) out[file] = renamed;
  }
  return out;
}

/** Marks the long-running server PUT of one sql version folder `final-state-via: azure-async-operation`, unless it has a marking already. */
async function markPut(dir: string, version: string) {
  const file = join(dir, `specs/resource-manager/Provider.Sql/${version}/paths/server.yaml`);
  if (!existsSync(file)) return; // no server type in this version
  const document = parseDocument(await readFile(file, 'utf8'));
  if (document.getIn(['put', 'x-ms-long-running-operation']) !== true || document.hasIn(['put', 'x-ms-long-running-operation-options', 'final-state-via']))
    return;
  document.setIn(['put', 'x-ms-long-running-operation-options', 'final-state-via'], 'azure-async-operation');
  await writeFile(file, String(document));
}

/** The extension resource recipe: the template's folders into the version folder, its three paths and its tag into the root (unless a contributor added the type already). */
async function addExtensionResourceType(dir: string) {
  const root = join(dir, AUTHORIZATION, 'openapi.yaml');
  const text = await readFile(root, 'utf8');
  if (text.includes('/roleAssignmentScheduleRequests')) return;
  await cp(join(dir, 'specs/templates/extension-resource'), join(dir, AUTHORIZATION), { recursive: true });
  const paths = [
    '  /{scope}/providers/Provider.Authorization/roleAssignmentScheduleRequests/{roleAssignmentScheduleRequestName}:\n    $ref: ./paths/roleAssignmentScheduleRequest.yaml',
    '  /{scope}/providers/Provider.Authorization/roleAssignmentScheduleRequests:\n    $ref: ./paths/roleAssignmentScheduleRequestsForScope.yaml',
    '  /{scope}/providers/Provider.Authorization/roleAssignmentScheduleRequests/{roleAssignmentScheduleRequestName}/cancel:\n    $ref: ./paths/roleAssignmentScheduleRequestCancel.yaml',
  ];
  const tag = '  - name: RoleAssignmentScheduleRequests\n    description: Requests that assign a role to a principal at a scope.\n';
  await writeFile(root, text.replace(/^paths:\n/m, `paths:\n${paths.join('\n')}\n`).replace(/^tags:\n/m, `tags:\n${tag}`));
}

async function grow(): Promise<Grown> {
  const { dir } = await workspaceCopy('growth-', { documents: 'all', built: true, under: inject('runScratch') });
  const git = (...args: string[]) => promisify(execFile)('git', ['-c', 'user.name=growth', '-c', 'user.email=growth@example.invalid', ...args], { cwd: dir });
  // The copy as committed is the change report's base.
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-qm', 'base');
  const renamedBefore = await renamedComponents(dir);
  const { applied, sqlVersion, entitySet } = await applyGrowthEdits(dir);
  for (const version of new Set([GROWTH.servers.version, sqlVersion])) await markPut(dir, version);
  const order = await addOrderSet(dir);
  await addExtensionResourceType(dir);
  const build = await runInProcess(dir, 'pipeline/build.mjs');
  return { dir, build, renamedBefore, applied, sqlVersion, entitySet, order };
}

/**
 * The run's one grown copy, whichever worker asks first: that worker grows and builds it
 * (holding the lock, a folder made atomically in the run's scratch) and writes what it
 * made beside it; another worker waits for that record instead of building a copy of its
 * own (a build of every document, the grown ones included: at a workspace's width the
 * costliest setup of the unit project). The files only read the copy, and write files of
 * their own names into it, so sharing it across workers is what sharing it within one was.
 */
async function sharedGrow(): Promise<Grown> {
  const scratch = inject('runScratch');
  const record = join(scratch, 'grown.json');
  try {
    await mkdir(join(scratch, 'grown.lock'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    while (!existsSync(record)) await sleep(100);
    const made = JSON.parse(await readFile(record, 'utf8')) as Grown | { failed: string };
    if ('failed' in made) throw new Error(`growing the shared copy failed in another worker:\n${made.failed}`);
    return made;
  }
  let made: Grown | { failed: string };
  try {
    made = await grow();
  } catch (error) {
    made = { failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // Written whole, then renamed: a waiting worker never reads half a record.
  await writeFile(`${record}.tmp`, JSON.stringify(made));
  await rename(`${record}.tmp`, record);
  if ('failed' in made) throw new Error(made.failed);
  return made;
}

let grown: Promise<Grown> | undefined;
/** The run's grown and built copy (grown on first use, by one worker: sharedGrow). */
export const grownWorkspace = (): Promise<Grown> => (grown ??= sharedGrow());
