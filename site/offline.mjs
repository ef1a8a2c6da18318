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
 * What a page may load, by kind. Scripts: only files from the page's own folder (the
 * shared Redoc runtime and the page script: 'self' covers them on http://127.0.0.1 and,
 * in Chromium, from file://), never inline ones, so a script a spec smuggles into the
 * page (an inline handler, an iframe's srcdoc, which inherits this policy) does not run;
 * a page with no script of its own gets `script-src 'none'`. Styles inline (Redoc's
 * components write theirs at run time); images, fonts and workers from data:/blob:;
 * fetches only to the page's own origin (the mock "Try it" sends to); no frames,
 * plugins, forms or <base>.
 */
export function csp({ scripts }) {
  return [
    "default-src 'none'",
    scripts ? "script-src 'self'" : "script-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    'worker-src blob:',
    scripts ? "connect-src 'self'" : "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
/** The landing page's policy: no script at all. */
export const CSP = csp({ scripts: false });

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

// Colours with a contrast of at least 4.5:1 (WCAG AA; checked by axe-core in the
// browser test) where Redoc 3's light theme has less: secondary text, links and
// buttons, the HTTP method tags, code comments and tokens. Redoc 3 reads these custom
// properties; `html:root` outranks its `:root` rules.
const THEME = `
  html:root { --text-color-secondary: #4f5260 !important; --text-color-description: #4f5260 !important;
    --color-warm-grey-7: #565866 !important; --color-warm-grey-8: #4f5260 !important; --input-content-placeholder-color: #5c5e6b !important;
    --color-blue-6: #0b57d0 !important; --color-blue-7: #0b57d0 !important; --link-color-primary: #0b57d0 !important;
    --color-carrot-7: #8a4600 !important; --color-carrot-6: #8a4600 !important; --color-carrot-8: #7a3e00 !important;
    --color-grass-7: #116329 !important; --color-green-7: #116329 !important; --color-red-7: #a40e26 !important;
    --color-purple-7: #5a32a3 !important; --color-sky-6: #075985 !important; --color-turquoise-6: #0e6470 !important; }
  html:root .tag-get { --tag-color: #116329 !important; } html:root .tag-post { --tag-color: #0b4fbf !important; }
  html:root .tag-put { --tag-color: #5a32a3 !important; } html:root .tag-patch { --tag-color: #6b4000 !important; }
  html:root .tag-delete { --tag-color: #a40e26 !important; } html:root .tag-head, html:root .tag-options { --tag-color: #3b3d48 !important; }
  html:root .th-token.th-comment { color: #565866 !important; }
  html:root .th-token.th-function, html:root .th-token.th-type, html:root .th-token.th-class-name, html:root .th-token.th-operator { color: #8a4600 !important; }`;

// The "Try it" button (beside "All APIs") and its dialog.
const TRY_IT_STYLE = `
  #try-it-open { position: fixed; top: 0; right: 110px; z-index: 100; padding: 6px 12px; background: #0b57d0; color: #fff;
    border: 0; border-radius: 0 0 6px 6px; font: 600 13px/1.4 system-ui, sans-serif; cursor: pointer; }
  #try-it-open[hidden] { display: none; }
  #try-it { width: min(760px, 92vw); max-height: 88vh; border: 1px solid #8c959f; border-radius: 8px; padding: 16px 20px;
    font: 14px/1.45 system-ui, sans-serif; color: #1f2328; }
  #try-it h2 { font-size: 18px; margin: 0 0 8px; overflow-wrap: anywhere; }
  #try-it fieldset { border: 1px solid #d1d9e0; border-radius: 6px; margin: 8px 0; padding: 6px 10px; }
  #try-it legend { font-weight: 600; }
  #try-it .try-field { display: flex; flex-direction: column; margin: 4px 0; }
  #try-it label { font: 600 12px/1.6 ui-monospace, Menlo, Consolas, monospace; }
  #try-it input, #try-it textarea { font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; padding: 4px 6px; border: 1px solid #8c959f; border-radius: 4px; }
  #try-it .try-actions { display: flex; gap: 8px; margin: 10px 0; }
  #try-it button { padding: 6px 14px; border-radius: 6px; border: 1px solid #8c959f; background: #f6f8fa; color: #1f2328; font-weight: 600; cursor: pointer; }
  #try-it #try-send { background: #0b57d0; border-color: #0b57d0; color: #fff; }
  #try-it #try-send:disabled { background: #57606a; border-color: #57606a; }
  #try-it pre { background: #f6f8fa; border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px; overflow: auto; max-height: 40vh; white-space: pre-wrap; overflow-wrap: anywhere; }
  #try-it .try-status { font-weight: 600; }`;
/** The way back to the landing page, on every operation page. */
const BACK_LINK = '<a id="all-apis" href="index.html">← All APIs</a>';

/** The shared Redoc runtime made offline (the logo inlined); throws when it cannot be. */
export function offlineRuntime(code) {
  const logos = code.match(LOGO)?.length ?? 0;
  if (logos === 0) throw new Error('Redoc runtime: the logo URL was not found: Redoc changed, re-check docs/offline.mjs');
  const out = code.replace(LOGO, WORDMARK);
  const left = [...new Set(out.match(FETCHABLE) ?? [])].filter((url) => !INERT.test(url));
  if (left.length) throw new Error(`Redoc runtime: URLs a page could fetch remain: ${left.join(', ')}`);
  return out;
}

export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
// JSON inside <script>: no "</script>", "<!--" or line separators can end or bend it.
const scriptJson = (value) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * One document's page: the shared runtime and the page script by classic <script src>
 * (they work from disk, where Chromium blocks module scripts); the definition, the Redoc
 * options and the "Try it" requests as JSON data blocks the page script reads (data, not
 * script: the CSP needs no inline script). Redoc renders it in the browser; there is no
 * per-page server rendering to pay for.
 */
export function docsPage({ title, definition, options, runtime, script, requests = [] }) {
  if (options.disableTelemetry !== true) throw new Error(`${title}: page telemetry must be off (disableTelemetry: true)`);
  if (options.sanitize !== true) throw new Error(`${title}: spec text is untrusted, Redoc's sanitize option must be on`);
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${csp({ scripts: true })}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>body { padding: 0; margin: 0; }${READABLE}${THEME}${TRY_IT_STYLE}</style>
</head>
<body>
  <nav aria-label="Documentation">${BACK_LINK}</nav>
  <div id="redoc"></div>
  <script type="application/json" id="redoc-definition">${scriptJson(definition)}</script>
  <script type="application/json" id="redoc-options">${scriptJson(options)}</script>
  <script type="application/json" id="try-it-requests">${scriptJson(requests)}</script>
  <script src="${escapeHtml(runtime)}"></script>
  <script src="${escapeHtml(script)}"></script>
</body>
</html>
`;
  const left = [...new Set(html.match(FETCHABLE) ?? [])].filter((url) => !INERT.test(url));
  if (left.length) throw new Error(`${title}: URLs the page could fetch remain: ${left.join(', ')}`);
  return html;
}
