// `npm run dev` driven from a benchmark: start it in a workspace, wait for its lines, and
// time one-field saves (save -> its `types` line, save -> its `done` line, which comes
// after the docs page). Used by bench/pipeline.mjs (five documents) and bench/scale.mjs.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Starts `pipeline/watch.mjs --no-mock` in `dir`; resolves nothing, waits on lines. */
export function startDev(dir, env) {
  const child = spawn(process.execPath, ['pipeline/watch.mjs', '--no-mock'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = [];
  const onData = (chunk) => {
    out += chunk;
    for (const w of [...waiters]) if (w.test(out)) waiters.splice(waiters.indexOf(w), 1);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return {
    /** The output so far (its length marks where the next wait starts reading). */
    output: () => out,
    /** Resolves with performance.now() once `pattern` appears in the output after `from`. */
    waitFor: (pattern, from, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}\n${out.slice(from)}`)), timeoutMs);
        const w = { test: (text) => pattern.test(text.slice(from)) && (clearTimeout(timer), resolve(performance.now()), true) };
        if (!w.test(out)) waiters.push(w);
      }),
    /** SIGTERM, then resolves once dev has exited (it finishes a dist/ compile first), so the workspace can go. */
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The edit timeEdits makes by default: the shipment-method schema's `code` description. */
const SHIPMENT_EDIT = {
  file: 'specs/business-central/v1.0/schemas/ShipmentMethod.yaml',
  edit: (text, i) => text.replace('description: Short code.', `description: Short code (edit ${i}).`),
};

/**
 * `samples` one-field edits (of the shipment-method schema unless `what` names a `file`
 * and an `edit(text, i)`), `pauseMs` apart: save -> `types` line and save -> `done` line,
 * in ms, one entry per edit.
 */
export async function timeEdits(dev, dir, samples, pauseMs, what = SHIPMENT_EDIT) {
  const file = join(dir, what.file);
  const original = await readFile(file, 'utf8');
  const types = [];
  const docs = [];
  for (let i = 0; i < samples; i++) {
    const from = dev.output().length;
    const start = performance.now();
    const next = what.edit(original, i);
    if (next === original) throw new Error(`the edit changes nothing in ${what.file}`);
    await writeFile(file, next);
    // The lines of the cycle that read this save: after its `saved` line (a cycle that was
    // already running when the file was written prints its own `types` and `done` first).
    const name = what.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const typesAt = dev.waitFor(new RegExp(`dev {2}saved +[^\\n]*${name}[\\s\\S]*dev {2}types `), from);
    const doneAt = dev.waitFor(new RegExp(`dev {2}saved +[^\\n]*${name}[\\s\\S]*dev {2}done `), from);
    types.push((await typesAt) - start);
    docs.push((await doneAt) - start);
    await new Promise((r) => setTimeout(r, pauseMs)); // let the watcher settle between edits
  }
  return { types, docs };
}
