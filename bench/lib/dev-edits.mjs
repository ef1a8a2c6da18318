// `npm run dev` driven from a benchmark: start it in a workspace, wait for its lines, and
// time one-field saves (save -> its `types` line, save -> its `done` line, which comes
// after the docs page), or saves back to back (the second save -> its `types` line). Used
// by bench/pipeline.mjs (five documents) and bench/scale.mjs; run on its own, it times
// single saves and saves back to back at N documents:
//   node bench/lib/dev-edits.mjs [--documents 100] [--samples 5] [--gap 150]
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { isMain } from '../../lib/findings.mjs';
import { QUIET_ENV } from '../../lib/run.mjs';
import { fmtMs, median } from './stats.mjs';
import { workspaceOfN } from './workspace-n.mjs';

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
    waitFor: (/** @type {RegExp} */ pattern, /** @type {number} */ from, timeoutMs = 120_000) =>
      /** @type {Promise<number>} */ (
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}\n${out.slice(from)}`)), timeoutMs);
          const w = {
            test: (/** @type {string} */ text) => {
              if (!pattern.test(text.slice(from))) return false;
              clearTimeout(timer);
              resolve(performance.now());
              return true;
            },
          };
          if (!w.test(out)) waiters.push(w);
        })
      ),
    /** SIGTERM, then resolves once dev has exited (it finishes a dist/ compile first), so the workspace can go. */
    stop: () =>
      /** @type {Promise<void>} */ (
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        })
      ),
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

/**
 * `samples` pairs of one-field saves `gapMs` apart (an editor's format-on-save, "save all"),
 * `pauseMs` between pairs: the second save -> the `types` line of the cycle that read it,
 * in ms, one entry per pair.
 * @param {ReturnType<typeof startDev>} dev
 * @param {string} dir
 * @param {number} samples
 * @param {number} gapMs
 * @param {number} pauseMs
 */
export async function timeBursts(dev, dir, samples, gapMs, pauseMs, what = SHIPMENT_EDIT) {
  const file = join(dir, what.file);
  const original = await readFile(file, 'utf8');
  const name = what.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const types = [];
  for (let i = 0; i < samples; i++) {
    await writeFile(file, what.edit(original, 2 * i));
    await new Promise((r) => setTimeout(r, gapMs));
    // The first save's cycle has printed its `saved` line by now (30 ms burst): the next
    // `saved` line naming the file is the second save's.
    const from = dev.output().length;
    const start = performance.now();
    await writeFile(file, what.edit(original, 2 * i + 1));
    types.push((await dev.waitFor(new RegExp(`dev {2}saved +[^\\n]*${name}[\\s\\S]*dev {2}types `), from)) - start);
    await dev.waitFor(/dev {2}idle /, from);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return types;
}

if (isMain(import.meta.url)) {
  const { values: opts } = parseArgs({
    options: { documents: { type: 'string', default: '100' }, samples: { type: 'string', default: '5' }, gap: { type: 'string', default: '150' } },
  });
  const env = { ...process.env, ...QUIET_ENV, PROVIDER_API_BUILD_SERVER: 'off' };
  const { dir, remove } = await workspaceOfN(Number(opts.documents));
  try {
    await promisify(execFile)(process.execPath, ['pipeline/build.mjs'], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
    const dev = startDev(dir, env);
    try {
      await dev.waitFor(/dev {2}watch/, 0, 600_000);
      const single = (await timeEdits(dev, dir, Number(opts.samples), 500)).types;
      const types = await timeBursts(dev, dir, Number(opts.samples), Number(opts.gap), 500);
      console.log(`${opts.documents} documents, one save -> types ${fmtMs(median(single))} (${single.map(fmtMs).join(', ')})`);
      console.log(`${opts.documents} documents, saves ${opts.gap} ms apart: second save -> types ${fmtMs(median(types))} (${types.map(fmtMs).join(', ')})`);
    } finally {
      await dev.stop();
    }
  } finally {
    await remove();
  }
}
