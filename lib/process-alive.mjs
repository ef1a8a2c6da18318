// Whether a process still runs. `kill(pid, 0)` alone says yes for a zombie, a process that
// has ended but whose parent has not reaped it yet; a detached build server's parent is
// init, which in a container can take a second or two to reap (measured here: 1.6 s). On
// Linux, /proc says which it is; elsewhere the signal check stands.
import { existsSync, readFileSync } from 'node:fs';

const PROC = existsSync('/proc/self/stat');

/** True while `pid` runs (a zombie has ended; EPERM: it runs, as another user). */
export function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === 'EPERM';
  }
  if (!PROC) return true; // macOS, Windows: the signal check stands
  try {
    // "pid (comm) state …": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // reaped between the two checks
  }
}
