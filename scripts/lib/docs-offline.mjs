// Keeps the docs pages working with no network at all, and refuses to pass anything
// that could still reach out.
//
// What Redoc 3 (CLI 2.77) would fetch, even with its script local and telemetry off:
// - the sidebar's "API docs by" pill always loads https://cdn.redoc.ly/redoc/logo-mini*.svg
//   (no option hides it): the shared runtime points it at an inline SVG wordmark instead;
// - Redoc's icon-pack base URLs (cdn.redocly.com/icons/...) are in the script, but only
//   used for icons a config names explicitly (none here): inert, allowed;
// - the OpenTelemetry endpoint is in the script; the page only calls it unless
//   `disableTelemetry` is true in the page's options, which every page sets.
// A Content-Security-Policy is added as a backstop: should a future Redoc fetch something
// new, the browser blocks it and logs a console error, which the browser test catches.

const LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;

// A plain "Redocly" wordmark keeps the attribution readable without fetching the logo.
const WORDMARK =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16">' +
      '<text x="0" y="12.5" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#b5393b">Redocly</text>' +
      '</svg>',
  ).replace(/'/g, '%27');

/**
 * Inline scripts and styles, plus scripts from the page's own folder (the shared Redoc
 * runtime: 'self' covers it on http://127.0.0.1 and, in Chromium, from file://); images,
 * fonts and workers from data:/blob:; no fetches.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

// URLs a browser would fetch by itself if the page used them: CDNs, web fonts, analytics.
const FETCHABLE = /https?:\/\/(?:cdn\.|fonts\.|[a-z0-9.-]*(?:googleapis|gstatic|analytics|segment|sentry)\.)[^\s"'`)\\]*/g;
const INERT = /^https:\/\/cdn\.redocly\.com\/icons\//;

// Redoc sets its page title in a large heading that breaks long words anywhere; keep
// words whole and the size readable.
const READABLE = `
  h1 { font-size: 1.75em !important; line-height: 1.25 !important; word-break: normal !important; overflow-wrap: break-word; }
  #all-apis { position: fixed; top: 0; right: 0; z-index: 100; padding: 6px 12px; background: #fff;
    border: 1px solid #d1d9e0; border-top: 0; border-right: 0; border-radius: 0 0 0 6px;
    font: 600 13px/1.4 system-ui, sans-serif; color: #0b57d0; text-decoration: none; }
  #all-apis:hover { text-decoration: underline; }`;
/** The way back to the landing page, on every operation page. */
const BACK_LINK = '<a id="all-apis" href="index.html">← All APIs</a>';

/** The shared Redoc runtime made offline (the logo inlined); throws when it cannot be. */
export function offlineRuntime(code) {
  const logos = code.match(LOGO)?.length ?? 0;
  if (logos === 0) throw new Error('Redoc runtime: the logo URL was not found: Redoc changed, re-check lib/docs-offline.mjs');
  const out = code.replace(LOGO, WORDMARK);
  const left = [...new Set(out.match(FETCHABLE) ?? [])].filter((url) => !INERT.test(url));
  if (left.length) throw new Error(`Redoc runtime: URLs a page could fetch remain: ${left.join(', ')}`);
  return out;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
// JSON inside <script>: no "</script>", "<!--" or line separators can end or bend it.
const scriptJson = (value) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/**
 * One document's page: the shared runtime by a classic <script src> (it works from disk,
 * where Chromium blocks module scripts), then the definition and `init` inline. Redoc
 * renders it in the browser; there is no per-page server rendering to pay for.
 */
export function docsPage({ title, definition, options, runtime }) {
  if (options.disableTelemetry !== true) throw new Error(`${title}: page telemetry must be off (disableTelemetry: true)`);
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${CSP}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>body { padding: 0; margin: 0; }${READABLE}</style>
</head>
<body>
  ${BACK_LINK}
  <div id="redoc"></div>
  <script src="${escapeHtml(runtime)}"></script>
  <script>
    const __redoc_definition = ${scriptJson(definition)};
    const __redoc_options = ${scriptJson(options)};
    init(__redoc_definition, __redoc_options, document.getElementById('redoc'));
  </script>
</body>
</html>
`;
  const left = [...new Set(html.match(FETCHABLE) ?? [])].filter((url) => !INERT.test(url));
  if (left.length) throw new Error(`${title}: URLs the page could fetch remain: ${left.join(', ')}`);
  return html;
}
