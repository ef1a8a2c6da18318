// Spec text is untrusted. Redoc renders descriptions as Markdown with raw HTML; its
// `sanitize` option (DOMPurify) is on for every page, and before that, the docs build
// turns every raw HTML tag of a description into text: `<iframe …>` is shown as the
// characters "<iframe …>", never parsed.
//
// Redoc 3.0.1 runs DOMPurify over the Markdown *source*, before parsing it, so a code
// span is read as HTML too: `companies(<company_id>)` would lose `<company_id>` (an
// unknown element) and `a > b` would show as `a &gt; b`. A code span or fenced block
// holding `<`, `>` or `&` is therefore written as the HTML it renders to (<code>, or
// <pre><code>, with its text escaped), which DOMPurify keeps and shows as written.

// A raw HTML start: a tag, an end tag, a comment, a declaration or a processing instruction.
const RAW_HTML = /<(?=[A-Za-z/!?])/g;

/** Markdown with every raw HTML tag outside code made literal text. */
export function inertMarkdown(text) {
  let out = '';
  const fenced = /^ {0,3}(`{3,}|~{3,})/;
  const lines = text.split(/(?<=\n)/);
  let fence;
  let prose = '';
  const flush = () => {
    out += inertInline(prose);
    prose = '';
  };
  for (const line of lines) {
    const marker = fenced.exec(line)?.[1];
    if (fence) {
      out += line;
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    } else if (marker) {
      flush();
      fence = marker;
      out += line;
    } else prose += line;
  }
  flush();
  return fencesAsHtml(out);
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Fenced blocks whose text holds <, > or & as <pre><code>, escaped (see the top of this file). */
function fencesAsHtml(text) {
  return text.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^ {0,3}\1[`~]*[ \t]*$/gm, (whole, _fence, body) =>
    /[<>&]/.test(body) ? `<pre><code>${escapeHtml(body.replace(/\n$/, ''))}</code></pre>` : whole,
  );
}

/** One stretch of prose: code spans (matched backtick runs) kept, HTML elsewhere escaped. */
function inertInline(text) {
  let out = '';
  let at = 0;
  const ticks = /`+/g;
  for (let open = ticks.exec(text); open; open = ticks.exec(text)) {
    // The closing run of the same length; without one, the backticks are plain text.
    const close = new RegExp(`(?<!\`)${open[0]}(?!\`)`, 'g');
    close.lastIndex = open.index + open[0].length;
    const end = close.exec(text);
    if (!end) continue;
    const code = text.slice(open.index + open[0].length, end.index);
    const span = /[<>&]/.test(code) ? `<code>${escapeHtml(code.trim() || code)}</code>` : open[0] + code + end[0];
    out += text.slice(at, open.index).replace(RAW_HTML, '&lt;') + span;
    at = end.index + end[0].length;
    ticks.lastIndex = at;
  }
  return out + text.slice(at).replace(RAW_HTML, '&lt;');
}

/** The document with every `description` made inert (in place: call it on a copy). */
export function inertDescriptions(document) {
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') node[key] = inertMarkdown(value);
      else walk(value);
    }
  };
  walk(document);
  return document;
}
