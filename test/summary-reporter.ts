// Prints one plain closing line after vitest's own summary, e.g. "tests: 393 passed,
// 0 failed, 0 skipped", without colours, so CI logs and scripts can read the outcome.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      // A file that failed to load has no tests to count, but it failed.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed')) counts.failed++;
    }
    counts.failed += unhandledErrors.length;
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
