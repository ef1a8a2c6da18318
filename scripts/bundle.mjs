#!/usr/bin/env node
// Bundles every root document into one file each, at the `output` that redocly.yaml
// gives it (generated/bundled/<slug>.yaml). The mock, the docs and the types read these.
import { loadApis, rel } from './lib/apis.mjs';
import { runTool, seconds, withoutBanners } from './lib/run.mjs';

export async function bundle(apis = loadApis()) {
  const result = await runTool('@redocly/cli/lib/index.js', ['bundle', ...apis.map((api) => api.name), '--lint-config=error']);
  if (result.code !== 0) throw new Error(`bundle failed:\n${withoutBanners(result.stdout + result.stderr)}`);
  return apis.map((api) => api.bundle);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const start = performance.now();
  const files = await bundle();
  console.log(`bundle  ${files.length} documents -> ${files.map(rel).join(', ')} in ${seconds(start)}`);
}
