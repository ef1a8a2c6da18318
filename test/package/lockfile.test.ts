// .npmrc does not switch off scripts (npm pack must run `prepack`), so every locked package
// with an install script is one judged here; a new one fails this test, where it can be
// judged, instead of running unseen on every `npm ci`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync(join(import.meta.dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  scarfSettings?: { enabled?: boolean };
};

/** The install scripts judged harmless here, and why. */
const JUDGED: Record<string, string> = {
  'node_modules/esbuild': 'postinstall checks that its platform binary (an optional dependency in the lockfile) is there; no network',
  'node_modules/@scarf/scarf': 'postinstall sends install analytics unless the root package.json says scarfSettings.enabled: false, which this one does',
};

describe('install scripts', () => {
  it('only the judged locked packages have one', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([name]) => name);
    expect(withScripts.filter((name) => !JUDGED[name])).toEqual([]);
  });

  it('install analytics are off', () => {
    expect(manifest.scarfSettings).toEqual({ enabled: false });
  });

  it('the package itself has none that a consumer installing its tarball would run (prepack only runs when packing)', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts[script], script).toBeUndefined();
    expect(manifest.scripts.prepack).toBe('node pipeline/prepack.mjs');
  });
});
