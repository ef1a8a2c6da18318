// The one script of every docs page besides the Redoc runtime (a classic script, so it
// works from file:// too; the page's CSP allows only these two files). It
//   1. starts Redoc on the page's document (a JSON data block, never run as script);
//   2. adds "Try it": on an operation's view, a button that opens the operation's example
//      request, editable (path and query parameters, headers, body), and "Send", which
//      sends it to the mock that `npm run docs:serve` serves on the page's own origin and
//      shows the answer's status, headers and body. The mock keeps state between sends.
(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: a classic script (not a module), where strict mode is not implied
  'use strict';
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const definition = read('redoc-definition');
  const options = read('redoc-options');
  // eslint-disable-next-line no-undef
  init(definition, options, document.getElementById('redoc'));

  // Redoc labels each example switcher "Example" while it shows the example's name: a
  // spoken label that differs from the visible one (axe: label-content-name-mismatch).
  // The label keeps "Example" and adds what the button shows.
  const labelSwitchers = () => {
    for (const button of document.querySelectorAll('button[aria-haspopup="menu"][aria-label^="Example"]')) {
      const label = `Example: ${button.textContent.trim()}`;
      if (button.textContent.trim() && button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
    }
  };

  const requests = read('try-it-requests');
  const servedHere = location.protocol === 'http:' || location.protocol === 'https:';
  const el = (tag, props = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'text') node.textContent = value;
      else if (key in node && key !== 'for') node[key] = value;
      else node.setAttribute(key, value);
    }
    for (const child of [].concat(children)) if (child) node.append(child);
    return node;
  };

  const opener = el('button', { type: 'button', id: 'try-it-open', text: 'Try it', hidden: true });
  const dialog = el('dialog', { id: 'try-it', 'aria-labelledby': 'try-it-title' });
  document.body.append(opener, dialog);

  /** The operation whose view is open: Redoc routes it as #/<tag>/<operationId>, slugged. */
  const slug = (text) =>
    String(text)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-');
  const current = () => requests.find((r) => r.operationId && location.hash.toLowerCase().endsWith(`/${slug(r.operationId)}`));
  function sync() {
    opener.hidden = !current();
  }
  addEventListener('hashchange', sync);
  addEventListener('popstate', sync);
  // Redoc changes its route with history.pushState, which fires no event: its re-render does.
  new MutationObserver(() => {
    labelSwitchers();
    sync();
  }).observe(document.getElementById('redoc'), { subtree: true, childList: true, characterData: true });
  sync();

  let shownFor;
  opener.addEventListener('click', () => {
    const request = current();
    if (!request) return;
    // The form stays as the reader left it for the same operation (edits carry across opens).
    if (shownFor !== request) build(request);
    shownFor = request;
    dialog.showModal();
  });

  function field(group, name, value, label) {
    const id = `try-${group}-${slug(name)}`;
    return el('div', { className: 'try-field' }, [
      el('label', { for: id, text: label ?? name }),
      el('input', { id, type: 'text', value, spellcheck: false, 'data-group': group, 'data-name': name, autocomplete: 'off' }),
    ]);
  }

  function build(request) {
    dialog.replaceChildren();
    const title = el('h2', { id: 'try-it-title', text: `Try it: ${request.method} ${request.prefix}${request.path}` });
    const where = servedHere
      ? el('p', {
          text: `Sent to the mock at ${location.origin}${request.prefix} (npm run docs:serve). The mock keeps what you change between sends; restart docs:serve to start over.`,
        })
      : el('p', { text: 'Sending needs the page served by npm run docs:serve (it also serves the mock); opened from disk, the form only shows the request.' });
    const groups = [];
    const fieldset = (legend, group, items) =>
      items.length
        ? el('fieldset', {}, [el('legend', { text: legend }), ...items.map((p) => field(group, p.name, p.value, p.required ? `${p.name} (required)` : p.name))])
        : null;
    groups.push(fieldset('Path', 'path', request.pathParams));
    groups.push(fieldset('Query', 'query', request.query));
    const headers = [...request.headers];
    if (request.secured) headers.unshift({ name: 'Authorization', value: 'Bearer mock-token', required: true });
    groups.push(fieldset('Headers', 'header', headers));
    let body = null;
    if (request.body !== undefined) {
      body = el('textarea', { id: 'try-body', rows: 8, spellcheck: false, value: JSON.stringify(request.body, null, 2) });
      groups.push(el('div', { className: 'try-field' }, [el('label', { for: 'try-body', text: 'Body (JSON)' }), body]));
    }
    const send = el('button', { type: 'button', id: 'try-send', text: 'Send', disabled: !servedHere });
    const close = el('button', { type: 'button', text: 'Close' });
    const answer = el('section', { id: 'try-answer', 'aria-live': 'polite', 'aria-label': 'Answer' });
    close.addEventListener('click', () => dialog.close());
    send.addEventListener('click', () => submit(request, body, answer, send));
    dialog.append(title, where, ...groups.filter(Boolean), el('div', { className: 'try-actions' }, [send, close]), answer);
  }

  function valuesOf(group) {
    const out = {};
    for (const input of dialog.querySelectorAll(`input[data-group="${group}"]`)) out[input.dataset.name] = input.value;
    return out;
  }

  function urlOf(request) {
    const path = valuesOf('path');
    const query = valuesOf('query');
    const encode = (param) => {
      const value = path[param.name] ?? '';
      const encoded = param.keepSlashes ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
      return encoded.replace(/%28/g, '(').replace(/%29/g, ')').replace(/%27/g, "'");
    };
    const filled = request.path.replace(/\{([^}]+)\}/g, (whole, name) => {
      const param = request.pathParams.find((p) => p.name === name);
      return param ? encode(param) : whole;
    });
    const search = new URLSearchParams();
    for (const param of request.query) if (param.required || query[param.name]) search.append(param.name, query[param.name] ?? '');
    const text = search.toString();
    return `${request.prefix}${filled}${text ? `?${text}` : ''}`;
  }

  async function submit(request, bodyInput, answer, send) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(valuesOf('header'))) if (value !== '') headers.set(name, value);
    const init = { method: request.method, headers, redirect: 'error', credentials: 'omit' };
    if (bodyInput) {
      headers.set('content-type', 'application/json');
      init.body = bodyInput.value;
    }
    const url = urlOf(request);
    send.disabled = true;
    answer.replaceChildren(el('p', { text: `Sending ${request.method} ${url} …` }));
    try {
      const response = await fetch(url, init);
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
      answer.replaceChildren(
        el('h3', { text: 'Answer' }),
        el('p', { className: 'try-status', text: `Status ${response.status} ${response.statusText}`.trim() }),
        el('h4', { text: 'Headers' }),
        el('pre', { className: 'try-headers', text: headerLines, tabIndex: 0, 'aria-label': 'Answer headers' }),
        el('h4', { text: 'Body' }),
        el('pre', { className: 'try-response-body', text: shown || '(empty)', tabIndex: 0, 'aria-label': 'Answer body' }),
      );
    } catch (error) {
      answer.replaceChildren(el('p', { className: 'try-status', text: `Not sent: ${error.message}` }));
    } finally {
      send.disabled = !servedHere;
    }
  }
})();
