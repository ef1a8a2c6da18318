// How each document's version agrees with what names it: its `<api>@<version>` key in
// redocly.yaml, the folder it lives in, and (business data) the /api/vX.Y prefix of its
// server. The clients, the mock and the docs all trust these to agree, so lint checks them.
import { basename, dirname, join } from 'node:path';
import { finding, positionOf, readYamlObject } from '../lib/findings.mjs';
import { BUSINESS_CENTRAL } from './family.mjs';
import { basePathOf } from './servers.mjs';

/**
 * For the workspace at `root`: `checked` (all by default) are the documents whose folder and root are read; the
 * uniqueness of roots and outputs is checked over all `apis` (no file read). Lint passes
 * the documents it lints, so a save in `npm run dev` does not re-read every root.
 */
export function versionFindings(root, apis, checked = apis) {
  const redocly = join(root, 'redocly.yaml');
  const reading = new Set(checked);
  const findings = [];
  let config; // redocly.yaml with positions, parsed only when a finding needs a line
  const atEntry = (api, message) => {
    config ??= readYamlObject(redocly);
    const { line, col } = config.value ? positionOf(config, ['apis', api.name]) : { line: 1, col: 1 };
    findings.push(finding('workspace', redocly, line, col, 'error', 'api-version-mismatch', message, root));
  };

  const claimed = new Map();
  for (const api of apis) {
    for (const [what, file] of [
      ['root', api.root],
      ['output', api.bundle],
    ]) {
      const other = claimed.get(`${what} ${file}`);
      if (other) atEntry(api, `"${api.name}" and "${other}" claim the same ${what} ${api.rootRelative}`);
      else claimed.set(`${what} ${file}`, api.name);
    }

    if (!reading.has(api)) continue;
    const folder = basename(dirname(api.root));
    if (folder !== api.version) {
      atEntry(api, `"${api.name}": its root document lives in the folder "${folder}", not in a folder named after its version "${api.version}"`);
    }

    const document = readYamlObject(api.root, 'root document');
    if (document.findings) continue; // lint reports why it cannot be read (a mapping is read, else findings)
    /** A version mismatch, at the document's node under `path`. @param {string[]} path @param {string} message */
    const mismatchAt = (path, message) => {
      const { line, col } = positionOf(document, path);
      findings.push(finding('workspace', api.root, line, col, 'error', 'api-version-mismatch', message, root));
    };
    const version = document.value.info?.version;
    if (String(version) !== api.version) mismatchAt(['info', 'version'], `info.version "${version}" disagrees with its redocly.yaml key "${api.name}"`);
    if (api.family === BUSINESS_CENTRAL) {
      const prefix = basePathOf(document.value);
      if (!prefix.endsWith(`/api/${api.version}`))
        mismatchAt(['servers'], `the server prefix "${prefix || '/'}" disagrees with the version "${api.version}" (expected it to end in /api/${api.version})`);
    }
  }
  return findings;
}
