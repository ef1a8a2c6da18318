import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.js';

// One project per kind of test; the folder picks the project.
export default defineConfig({
  test: {
    // vitest runs one file at a time on a 2-core machine (cores - 1). Most files here wait
    // on child processes (CLIs, tsc, Chromium, the mock), so two at once keep both cores
    // busy; three made the timing-bound pipeline tests time out on a loaded machine.
    // Figures in docs/testing.md.
    maxWorkers: 2,
    // Longest files first, across projects (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/spec/**/*.test.ts', 'test/pipeline/**/*.test.ts', 'test/changes/**/*.test.ts', 'test/growth/**/*.test.ts', 'test/package/**/*.test.ts', 'test/security/**/*.test.ts', 'test/deps/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'types',
          include: [],
          // TypeScript 5.9's tsc by path: node_modules/.bin/tsc may be TypeScript 7's (the
          // bench's `typescript-7` alias ships a tsc too; docs/dependencies.md).
          typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json', checker: fileURLToPath(new URL('./node_modules/typescript/bin/tsc', import.meta.url)) },
        },
      },
      {
        test: {
          // Starts one mock on a free port for the whole project (test/contract/global-setup.ts).
          // test/consumer/ runs the packed package against that mock.
          name: 'contract',
          // The files share their worker's modules instead of loading them again per file:
          // most import the mock (Prism) or the clients, and each file loading Prism anew
          // cost about 1 s of CPU (contract + scenarios: 30 -> 22 s of CPU). They can share
          // because none mocks a module or changes process-wide state; a test holds them
          // to that (test/deps/shared-modules.test.ts).
          isolate: false,
          include: ['test/contract/**/*.test.ts', 'test/consumer/**/*.test.ts', 'test/scenarios/**/*.test.ts'],
          globalSetup: ['test/contract/global-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // Opens the rendered docs in Debian's Chromium (skipped, loudly, when none is found).
          name: 'docs',
          include: ['test/docs/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
