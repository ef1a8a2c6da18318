// generated/docs/index.html: the two families, their operations (method, path, version),
// a link to each document's page and the gaps each document records. Hand-made HTML
// with inline CSS and system fonts only, so it opens offline like the Redoc pages.
import { compareVersions } from '../model/apis.mjs';
import { BUSINESS_CENTRAL, RESOURCE_MANAGER } from '../model/family.mjs';
import { CSP, escapeHtml } from './offline.mjs';

const FAMILIES = [
  {
    id: RESOURCE_MANAGER,
    name: 'Resource management',
    about: 'Versioned by the required <code>api-version</code> query parameter; served under <code>{base_url}</code>.',
  },
  {
    id: BUSINESS_CENTRAL,
    name: 'Business data',
    about: 'Versioned by the path prefix <code>/api/vX.Y</code>; served under <code>{api_prefix}</code>.',
  },
];

/** Escaped, with a line-break chance after each `/` and `›`: long paths wrap at their joints, not mid-word. */
const breakable = (text) => escapeHtml(text).replace(/([/›])/g, '$1<wbr>');

const version = (operation) => (operation.apiVersion ? `api-version ${operation.apiVersion}` : operation.prefix.replace(/^\/api\//, ''));

// Business-data paths are written without their /api/vX.Y prefix (it is in the server
// URL); the landing page shows the full path a client sends, with the prefix dimmed.
const fullPath = (operation) => `${operation.prefix ? `<span class="prefix">${breakable(operation.prefix)}</span>` : ''}${breakable(operation.path)}`;

function operationRow(page, operation) {
  return `
        <tr>
          <td><span class="method ${operation.method.toLowerCase()}">${operation.method}</span></td>
          <td>
            <a class="op" href="${escapeHtml(page.href + operation.anchor)}">${escapeHtml(operation.summary || operation.operationId)}</a>
            <div class="path"><code>${fullPath(operation)}</code></div>
            <div class="id">operationId <code>${escapeHtml(operation.operationId)}</code></div>
          </td>
          <td class="version">${escapeHtml(version(operation))}${versionBadges(page)}</td>
        </tr>`;
}

/** "default" for the version a client sends unless pinned, "preview" for a preview. */
function versionBadges(page) {
  const badges = [];
  if (page.isDefault) badges.push('<span class="badge default" title="sent by the clients unless another version is pinned">default</span>');
  if (page.api.preview) badges.push('<span class="badge preview">preview</span>');
  return badges.length ? ` ${badges.join(' ')}` : '';
}

/** One family's documents: API by API (in redocly.yaml order), each API's versions newest first. */
function ordered(pages) {
  const order = [...new Set(pages.map((page) => page.api.apiName))];
  return [...pages].sort((a, b) => order.indexOf(a.api.apiName) - order.indexOf(b.api.apiName) || compareVersions(b.api.version, a.api.version));
}

function documentCard(page) {
  const gaps = page.gaps.map(({ where, gap }) => `\n            <li><span class="where">${breakable(where)}</span> ${escapeHtml(gap)}</li>`).join('');
  return `
      <article class="doc" id="${escapeHtml(page.api.slug)}">
        <h3><a href="${escapeHtml(page.href)}">${escapeHtml(page.title)}</a></h3>
        <p class="meta"><code>${escapeHtml(page.api.name)}</code> · version ${escapeHtml(page.version)}${versionBadges(page)} · ${page.operations.length} operation${page.operations.length === 1 ? '' : 's'} · <a href="${escapeHtml(page.href)}">open the reference →</a></p>
        <details open>
          <summary>Not shown in the source (${page.gaps.length})</summary>
          <ul class="gaps">${gaps}
          </ul>
        </details>
      </article>`;
}

/** What changed between consecutive versions of one API (npm run changes, between versions). */
function changesSection(apiName, changes) {
  if (!changes?.length) return '';
  const items = changes
    .map((c) => {
      const from = c.from ? `${escapeHtml(c.from)} → ` : '';
      return `\n            <li><span class="level ${escapeHtml(c.level)}">${escapeHtml(c.level)}</span> <span class="step">${from}${escapeHtml(c.version)}</span> <code>${escapeHtml(c.rule)}</code> ${escapeHtml(c.message)}</li>`;
    })
    .join('');
  return `
      <details class="changes" id="changes-${escapeHtml(apiName)}" open>
        <summary>Changes between versions of <code>${escapeHtml(apiName)}</code> (${changes.length})</summary>
        <ul>${items}
        </ul>
      </details>`;
}

function documentsOf(members, changes) {
  const names = [...new Set(members.map((page) => page.api.apiName))];
  return names
    .map(
      (apiName) =>
        members
          .filter((page) => page.api.apiName === apiName)
          .map(documentCard)
          .join('') + changesSection(apiName, changes?.get(apiName)),
    )
    .join('');
}

function familySection(family, pages, changes) {
  const members = ordered(pages.filter((page) => page.api.family === family.id));
  if (members.length === 0) return '';
  const rows = members.flatMap((page) => page.operations.map((operation) => operationRow(page, operation))).join('');
  return `
    <section class="family" id="${family.id}">
      <h2>${family.name}</h2>
      <p class="about">${family.about}</p>
      <table>
        <thead><tr><th>Method</th><th>Operation and path</th><th>Version</th></tr></thead>
        <tbody>${rows}
        </tbody>
      </table>
      <h3 class="docs-heading">Documents</h3>${documentsOf(members, changes)}
    </section>`;
}

/** `changes`: apiName -> the changes between its consecutive versions (APIs with several). */
export function landingPage(pages, changes = new Map()) {
  const operations = pages.reduce((sum, page) => sum + page.operations.length, 0);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${CSP}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference: ${operations} operations in ${pages.length} documents</title>
  <style>${STYLE}</style>
</head>
<body>
  <header>
    <h1>API reference</h1>
    <p>${operations} operations of two API families, one page per OpenAPI document. Every page works offline.
    Where the source does not show something, the documents say so: those gaps are listed under each document here,
    and said once, in bold (<strong>Not shown in the source</strong>), on the pages.</p>
    <p>Call them with this package's clients, <code>provider-api-clients</code> (<code>createResourceManagerClient</code>,
    <code>createBusinessCentralClient</code>): every operation's page has a TypeScript sample and a curl sample, made from its document.
    The workspace's mock answers every operation (<code>npm run mock</code>, on <code>http://127.0.0.1:4010</code>);
    <code>npm run docs:serve</code> serves it beside these pages, so each operation's <strong>Try it</strong> sends its example request to it.</p>
    <nav>${FAMILIES.map((f) => `<a href="#${f.id}">${f.name}</a>`).join(' ')}</nav>
  </header>
  <main>${FAMILIES.map((family) => familySection(family, pages, changes)).join('')}
  </main>
  <footer>Generated by <code>npm run docs</code> from <code>generated/bundled/</code>; do not edit.</footer>
</body>
</html>
`;
}

const STYLE = `
  :root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; --link: #0b57d0; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
  header, main, footer { max-width: 1080px; margin: 0 auto; padding: 0 24px; }
  header { padding-top: 32px; padding-bottom: 8px; }
  h1 { font-size: 28px; margin: 0 0 8px; }
  header p { color: var(--muted); max-width: 760px; margin: 0 0 12px; }
  nav a { display: inline-block; margin-right: 16px; font-weight: 600; }
  a { color: var(--link); text-decoration: none; }
  a:hover { text-decoration: underline; }
  /* A link inside running text is told apart by more than its colour. */
  p a, .meta a, footer a { text-decoration: underline; text-underline-offset: 2px; }
  code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  .family { margin-top: 28px; padding-top: 8px; border-top: 1px solid var(--line); }
  h2 { font-size: 22px; margin: 12px 0 4px; }
  .about { color: var(--muted); margin: 0 0 14px; }
  table { width: 100%; border-collapse: collapse; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
  th { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: var(--bg); }
  th, td { padding: 10px 14px; border-bottom: 1px solid var(--line); vertical-align: top; }
  tr:last-child td { border-bottom: 0; }
  td:first-child { width: 84px; }
  .version { white-space: nowrap; width: 1%; }
  .op { font-weight: 600; }
  .path code { word-break: normal; overflow-wrap: break-word; }
  .path .prefix { color: var(--muted); }
  .id { color: var(--muted); font-size: 13px; }
  .method { display: inline-block; min-width: 60px; text-align: center; padding: 2px 8px; border-radius: 4px; font: 600 12px/1.6 ui-monospace, Menlo, Consolas, monospace; color: #fff; }
  .method.get { background: #1a7f37; } .method.post { background: #0b57d0; } .method.patch { background: #9a6700; }
  .method.put { background: #8250df; } .method.delete { background: #cf222e; }
  .docs-heading { font-size: 16px; margin: 22px 0 8px; }
  .changes { margin: 0 0 16px; padding: 8px 16px; border-left: 3px solid var(--line); }
  .changes ul { margin: 6px 0 2px; padding-left: 20px; font-size: 14px; }
  .level { display: inline-block; min-width: 64px; font-size: 12px; font-weight: 600; }
  .level.breaking { color: #cf222e; } .level.warning { color: #9a6700; } .level.info { color: var(--muted); }
  .step { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; margin-right: 4px; }
  .badge { display: inline-block; margin-left: 4px; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; }
  .badge.default { background: #dafbe1; color: #116329; } .badge.preview { background: #fff1e5; color: #953800; }
  .doc { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 12px; }
  .doc h3 { margin: 0; font-size: 17px; }
  .meta { margin: 2px 0 6px; color: var(--muted); font-size: 14px; }
  details summary { cursor: pointer; font-weight: 600; font-size: 14px; }
  .gaps { margin: 6px 0 2px; padding-left: 20px; font-size: 14px; }
  .gaps li { margin: 3px 0; }
  .where { display: inline-block; margin-right: 6px; padding: 0 6px; border-radius: 4px; background: #fff8c5; color: #4d2d00; font-size: 12px; font-family: ui-monospace, Menlo, Consolas, monospace; word-break: normal; overflow-wrap: break-word; }
  footer { margin-top: 32px; padding-top: 16px; padding-bottom: 32px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); }
`;
