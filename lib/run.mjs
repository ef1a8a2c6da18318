// Runs a tool's CLI as a child process and captures its output, so the pipeline prints
// its own short summary instead of the tools' banners.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

// Telemetry and update notices off for every tool we start: nothing leaves the machine.
export const QUIET_ENV = {
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  DO_NOT_TRACK: '1',
  SCARF_ANALYTICS: 'false',
};

/**
 * Runs `node <root>/node_modules/<bin> <args>` in `root` (the workspace, passed in: lib
 * knows no workspace of its own; the current folder, where npm runs a script, when none is).
 * @param {string} bin a CLI's path under node_modules
 * @param {string[]} args
 * @param {string} [root]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export function runTool(bin, args, root = process.cwd()) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', bin), ...args], {
      cwd: root,
      env: { ...process.env, ...QUIET_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolvePromise({ code: 1, stdout, stderr: `${stderr}${error.message}\n` }));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Drops the boxed banners (Redocly's Node 20 end-of-support notice) from tool output. */
export const withoutBanners = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s*[║╔╚]/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(2)} s`;

/**
 * Ends a server command (mock, proxy) on Ctrl-C or SIGTERM: `stop()` once, then exit 0.
 * Bounded at 3 s, then exit 1: a client that holds its connection must not keep the
 * process alive. Install it before the ready line: whoever reads it may signal at once.
 */
export function stopOnSignals(stop) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(1), 3_000).unref();
      await stop();
      process.exit(0);
    });
  }
}
