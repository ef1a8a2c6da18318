// The order vitest starts test files in: longest first, across projects, so that the two
// workers of a 2-core machine end together instead of one finishing a long file alone
// while the other idles. vitest's own order runs the projects one after another (and,
// without timings from an earlier run, larger files first within each), which in a fresh
// clone left the compile and kill-and-resume tests, short files that run long, for last.
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
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}
