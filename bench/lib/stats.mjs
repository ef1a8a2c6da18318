// Small statistics helpers for the benchmarks.
/** @type {(xs: number[]) => number} */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** @type {(xs: number[], p: number) => number} */
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
/** Runs `fn` and returns [its time in ms, its value]. */
export async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}
/** @type {(x: number) => string} */
export const fmtMs = (x) => `${Math.round(x)} ms`;
/** @type {(x: number) => string} */
export const fmtS = (x) => `${(x / 1000).toFixed(2)} s`;
