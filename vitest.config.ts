import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
// @ts-expect-error: plain ESM module without types
import { CODE_ROOMS } from './model/workspace-paths.mjs';
import { filesNeedingIsolation, filesUsingBrowser, UNIT } from './test/isolation.js';
import LongestFirst from './test/sequencer.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
// Every build a test runs (in its process or in a child) runs in a process of its own, as
// on a fresh machine: no build server (pipeline/build-server/) is started for the test
// copies. test/pipeline/build-server.test.ts turns it on for its own builds.
process.env.PROVIDER_API_BUILD_SERVER = 'off';
// In `.ci/run` (CHECK_VERDICTS set), every TypeScript 7 compile the pipeline or a test runs
// goes through test/helpers/shared-tsc.mjs: a clean one is recorded by the first Node line
// and replayed on the next (the native compiler's output does not depend on the line).
if (process.env.CHECK_VERDICTS) process.env.PROVIDER_API_TSC7 = fileURLToPath(new URL('./test/helpers/shared-tsc.mjs', import.meta.url));
// The unit project's files (folders: UNIT in test/isolation.ts) share their worker's
// modules, except those that mock a module or change process-wide state, which run isolated.
const UNIT_ISOLATED = filesNeedingIsolation(ROOT, UNIT);
// The docs files that open Chromium (test/isolation.ts finds them by their import of
// test/docs/browser.ts): the "browser" project. Every other file runs on every Node line
// (.ci/node-lines.sh runs `--project '!browser'`).
const BROWSER = filesUsingBrowser(ROOT, 'test/docs');

// The workspace's own JavaScript (the code rooms of docs/architecture.md, in this checkout and
// in the tests' workspace copies) is loaded by Node itself, as the build, the mock and the
// CLIs load it, instead of through Vite's transform: plain ESM needs none, and transforming
// it cost every worker that imported it again (vitest's "transform" figure for the unit and
// contract projects: 11.8 s -> 2.8 s; their CPU 214 -> 197 s; docs/testing.md). The tests'
// own TypeScript and src/ still go through Vite.
const NATIVE_ROOMS = { deps: { external: [new RegExp(`/(${CODE_ROOMS.join('|')})/.*\\.m?js$`)] } };
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
          server: NATIVE_ROOMS,
          // The run's scratch folder (the growth files' shared copy is made there).
          globalSetup: ['test/growth/global-setup.ts'],
          include: UNIT.map((folder) => `${folder}/**/*.test.ts`),
          exclude: UNIT_ISOLATED,
          // Shared modules: most of these files load Redocly, Spectral or the clients, and
          // loading them again per file cost about 11 s of CPU over the suite (docs/testing.md).
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The unit files that mock a module or change process-wide state (test/isolation.ts).
          name: 'unit-isolated',
          server: NATIVE_ROOMS,
          include: UNIT_ISOLATED.length ? UNIT_ISOLATED : ['no files need isolation'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'types',
          include: [],
          // TypeScript 7's tsc by path (node_modules/.bin/tsc may be either compiler's). A type
          // test needs the error on the line its @ts-expect-error marks, and TS 7 reports
          // every one at the same place as 5.9 (bench/README.md, "TypeScript 5.9 and 7"), in
          // a fifth of the time.
          typecheck: {
            enabled: true,
            only: true,
            include: ['test/types/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
            checker: fileURLToPath(new URL('./node_modules/typescript-7/bin/tsc', import.meta.url)),
          },
        },
      },
      {
        test: {
          // Starts one mock on a free port for the whole project (test/contract/global-setup.ts).
          // test/consumer/ runs the packed package against that mock.
          name: 'contract',
          server: NATIVE_ROOMS,
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
          // The docs without a browser: the samples type-checked and run against the mock,
          // the docs server.
          name: 'docs',
          server: NATIVE_ROOMS,
          include: ['test/docs/**/*.test.ts'],
          exclude: BROWSER,
          // Shared modules, as in the contract project (test/deps/shared-modules.test.ts).
          isolate: false,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // Opens the rendered docs in Debian's Chromium (skipped, loudly, when none is found).
          name: 'browser',
          server: NATIVE_ROOMS,
          include: BROWSER.length ? BROWSER : ['no files open a browser'],
          isolate: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
