// Types for process-alive.mjs (plain ESM), for the tests that import it.
/** True while `pid` runs (a zombie, ended but not yet reaped, has not). */
export function processAlive(pid: number): boolean;
