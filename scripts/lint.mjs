#!/usr/bin/env node
// `npm run lint`: Redocly (recommended-strict, redocly.yaml) and Spectral (spectral:oas +
// house rules, .spectral.yaml) over every API in redocly.yaml, in parallel. Any error or
// warning fails the run; problems are printed with file and line.
import { loadApis, rel } from './lib/apis.mjs';
import { runTool, seconds, withoutBanners } from './lib/run.mjs';

export async function lint(apis = loadApis()) {
  const roots = apis.map((api) => api.rootRelative);
  const [redocly, spectral] = await Promise.all([
    runTool('@redocly/cli/lib/index.js', ['lint', ...apis.map((api) => api.name), '--format=stylish', '--lint-config=error']),
    runTool('@stoplight/spectral-cli/dist/index.js', ['lint', '--fail-severity=warn', '--format=stylish', ...roots]),
  ]);
  // Redocly exits 0 on warnings; recommended-strict turns them into errors, and any
  // problem line in its stylish output counts too, so nothing slips through.
  const redoclyProblems = /^\s+\d+:\d+\s+(error|warning)/m.test(redocly.stdout);
  return [
    { tool: 'redocly', ok: redocly.code === 0 && !redoclyProblems, output: redoclyProblemsOnly(`${redocly.stdout}\n${redocly.stderr}`) },
    { tool: 'spectral', ok: spectral.code === 0, output: withoutBanners(`${spectral.stdout}\n${spectral.stderr}`) },
  ];
}

// Keeps Redocly's problem blocks and verdict; drops its per-file progress lines and banner.
const redoclyProblemsOnly = (text) =>
  withoutBanners(text)
    .split('\n')
    .filter((line) => !/^(validating |.*: validated in |run `redocly lint)/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = performance.now();
  const apis = loadApis();
  const results = await lint(apis);
  for (const { tool, ok, output } of results) {
    if (ok) console.log(`lint  ${tool.padEnd(8)} ok    ${apis.length} documents`);
    else console.error(`lint  ${tool.padEnd(8)} FAIL\n${output.replace(/^/gm, '  ')}`);
  }
  const failed = results.some((r) => !r.ok);
  console.log(`lint  ${failed ? 'failed' : 'passed'} in ${seconds(start)} (${apis.map((a) => rel(a.root)).length} APIs from redocly.yaml)`);
  process.exitCode = failed ? 1 : 0;
}
