// How every size figure in bench/ measures an app's bundle, the way a bundler ships it:
// esbuild, bundled, minified, ES module for the browser, then gzip level 9. One place, so
// `npm run size`, the size breakdown and the versions/documents axes stay comparable.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * Bundles one app (`entryPoints` or `stdin`, plus any other esbuild options such as
 * plugins) and returns its minified and min+gzip sizes in bytes.
 */
export async function appBundle({ root, ...options }) {
  const result = await build({
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    nodePaths: [`${root}/node_modules`],
    absWorkingDir: root,
    ...options,
  });
  const code = result.outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}
