// Makes a page written by `redocly build-docs --inlineBundle` (CLI 2.77, Redoc 3) work
// with no network at all, and refuses to pass a page that could still reach out.
//
// What the CLI leaves behind, even with the script inlined and `telemetry: off`:
// - the sidebar's "API docs by" pill always loads https://cdn.redoc.ly/redoc/logo-mini*.svg
//   (no option hides it): we point it at an inline SVG wordmark instead;
// - Redoc's icon-pack base URLs (cdn.redocly.com/icons/...) are in the script, but only
//   used for icons a config names explicitly (none here): inert, allowed;
// - the OpenTelemetry endpoint is in the script; the page only calls it unless
//   `disableTelemetry` is true in the page's options, which we check.
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

/** Inline scripts and styles only; images, fonts and workers from data:/blob:; no fetches. */
export const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
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

/** Returns the page made offline, or throws when it cannot be made so. */
export function makeOffline(html, label) {
  const fail = (why) => {
    throw new Error(`${label}: ${why}`);
  };
  // `telemetry: off` at the top of redocly.yaml is what sets this (CLI 2.77 overwrites
  // `openapi.disableTelemetry` from the config with it).
  if (!/__redoc_options = \{[^\n]*"disableTelemetry":true/.test(html))
    fail('page telemetry is on: redocly.yaml needs `telemetry: off` at the top level');
  if (!/<script type="module">/.test(html) || /<script[^>]+src=/.test(html))
    fail('Redoc is not inlined: build-docs needs --inlineBundle');
  const logos = html.match(LOGO)?.length ?? 0;
  if (logos === 0) fail('the Redoc logo URL was not found: Redoc changed, re-check this post-processing');
  // The policy must come before anything it governs: right after the charset.
  const charset = /<meta charset="?[\w-]+"?\s*\/?>/;
  if (!charset.test(html)) fail('no <meta charset> in the page to put the CSP after');

  if (!/<body[^>]*>/.test(html)) fail('no <body> in the page to put the way back in');

  const out = html
    .replace(LOGO, WORDMARK)
    .replace(charset, (meta) => `${meta}\n  <meta http-equiv="Content-Security-Policy" content="${CSP}">\n  <style>${READABLE}</style>`)
    .replace(/<body[^>]*>/, (body) => `${body}\n  ${BACK_LINK}`);

  const left = [...new Set(out.match(FETCHABLE) ?? [])].filter((url) => !INERT.test(url));
  if (left.length) fail(`URLs the page could fetch remain: ${left.join(', ')}`);
  return out;
}
