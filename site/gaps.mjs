// The gaps a bundled document records (`x-source-gap` on any node), each with a short,
// readable name of where it sits, for the landing page's at-a-glance list.
import { METHODS } from '../model/operations.mjs';

/**
 * The document as readers get it: each gap said once, in its node's description, with
 * "Not shown in the source" in bold so it stands out; the `x-source-gap` record itself
 * is not printed again (Redoc would show it as a second "source-gap:" line).
 */
export function forReaders(document) {
  const copy = structuredClone(document);
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node['x-source-gap'] === 'string') {
      delete node['x-source-gap'];
      if (typeof node.description === 'string')
        node.description = node.description.replace(/\b(Not shown in the source|Not shown|Also not shown):/g, '**$1:**');
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(copy);
  return copy;
}

export function collectGaps(document) {
  const gaps = [];
  const walk = (node, keys) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node['x-source-gap'] === 'string') gaps.push({ where: describe(document, keys), gap: node['x-source-gap'] });
    for (const [key, value] of Object.entries(node)) walk(value, [...keys, key]);
  };
  walk(document, []);
  return gaps;
}

/** ['paths', '/x', 'get', 'responses', 'default'] -> 'GET /x › response default'. */
function describe(document, keys) {
  const [section, name, ...rest] = keys;
  if (section === 'info') return 'the whole API';
  if (section === 'paths') {
    const [method, ...inner] = rest;
    const head = METHODS.includes(method) ? `${method.toUpperCase()} ${name}` : name;
    return [head, ...within(inner, () => document.paths[name][method])].join(' › ');
  }
  if (section === 'components') {
    const [component, ...inner] = rest;
    const kind = { schemas: 'schema', parameters: 'parameter', responses: 'response', securitySchemes: 'security scheme' }[name] ?? name;
    return [`${kind} ${component}`, ...within(inner, () => document.components[name][component])].join(' › ');
  }
  return `#/${keys.join('/')}`;
}

// Keeps the steps a reader knows (property, response, parameter names) and drops the
// structural ones (properties, allOf/1, items).
function within(keys, parentOf) {
  const steps = [];
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i];
    if (key === 'properties' && keys[i + 1] !== undefined) steps.push(keys[++i]);
    else if (key === 'responses' && keys[i + 1] !== undefined) steps.push(`response ${keys[++i]}`);
    else if (key === 'parameters' && keys[i + 1] !== undefined) {
      const parameter = parentOf()?.parameters?.[keys[++i]];
      steps.push(`parameter ${parameter?.name ?? keys[i]}`);
    }
  }
  return steps;
}
