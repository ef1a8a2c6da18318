// The order vitest starts test files in: project by project, the heaviest project first
// (by the summed weight of its files), and within a project the longest file first, so
// that the two workers of a 2-core machine end together instead of one finishing a long
// file alone while the other idles. vitest's own order runs the projects one after another
// too, but (without timings from an earlier run) larger files first within each, which in
// a fresh clone left the compile and kill-and-resume tests, short files that run long, for
// last. Longest first across projects (the order before) interleaved the projects, and
// vitest then stopped a worker after nearly every file (see sort below).
//
// A file's weight: its duration in vitest's results cache (node_modules/.vite/vitest/)
// when this machine has run it before; otherwise a hint for the files known to run long
// (they start processes, builds, a browser), then file size. The hint only orders; a file
// not in it runs as usual. Figures in docs/testing.md.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const KNOWN_LONG = [/^test\/consumer\//, /^test\/pipeline\//, /^test\/docs\/pages\.test\.ts$/, /^test\/lint\/bad-input\.test\.ts$/, /^test\/growth\//];
const HINT_MS = 30_000;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const weight = (spec: TestSpecification): number => {
      const file = relative(config.root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      const measured = cache.getFileTestResults(key)?.duration;
      if (measured !== undefined) return measured;
      // Bytes as milliseconds (a 10 kB file ~ 10 s): larger test files tend to hold more.
      return (KNOWN_LONG.some((pattern) => pattern.test(file.replaceAll('\\', '/'))) ? HINT_MS : 0) + (cache.getFileStats(key)?.size ?? 0);
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    // A project's files run one after another: vitest hands a worker of a project that
    // shares its modules (isolate: false) to the next file only when that file, the head of
    // the queue, is of the same project; otherwise it stops the worker, and the next file of
    // the project starts a new one, loading vitest and Redocly, Spectral or Prism again
    // (about 1.5 s of CPU each). Interleaved, a line started some 30 workers.
    const projectWeight = new Map<string, number>();
    for (const [spec, w] of weights) projectWeight.set(spec.project.name, (projectWeight.get(spec.project.name) ?? 0) + w);
    const projectOf = (spec: TestSpecification) => projectWeight.get(spec.project.name)!;
    return [...files].sort((a, b) => projectOf(b) - projectOf(a) || a.project.name.localeCompare(b.project.name) || weights.get(b)! - weights.get(a)!);
  }
}
