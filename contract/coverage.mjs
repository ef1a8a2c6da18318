// Which declared responses the contract suite exercised: every operation x status (the
// `default` response included) x named example of the documents, measured against the
// exchanges the suite really had with the mock (recorded by tee.mjs). A response counts
// when an answer of that operation and version came back with that status (or, for
// `default`, any undeclared one); a named example counts when an answer's body equals it.
import { isDeepStrictEqual } from 'node:util';
import { mediaType } from './contract.mjs';

/** @param {any[]} exchanges @param {ReturnType<typeof import('./contract.mjs').loadContract>} contract the documents' contract (contract.mjs) */
export function computeCoverage(exchanges, contract) {
  const seen = [];
  const unmatched = [];
  for (const e of exchanges) {
    const matched = contract.match(e.method, e.url);
    if (!matched.operation || matched.versionProblem) {
      unmatched.push(`${e.method} ${e.url.slice(0, 120)} -> ${e.status}`);
      continue;
    }
    let body;
    try {
      body = e.body ? JSON.parse(e.body) : undefined;
    } catch {
      body = undefined;
    }
    seen.push({ operation: matched.operation, status: String(e.status), type: mediaType(e.contentType), body });
  }
  const items = contract.declared().map(({ operation, status, examples }) => {
    const statusSeen = (s) => s.operation === operation && (status === 'default' ? !operation.spec.responses[s.status] : s.status === status);
    const answers = seen.filter(statusSeen);
    return {
      operation: operation.label,
      status,
      success: /^2/.test(status),
      exercised: answers.length > 0,
      examples: examples.map((example) => ({
        name: example.name,
        exercised: answers.some((a) => a.type === example.type && isDeepStrictEqual(a.body, example.value)),
      })),
    };
  });
  const count = (list) => ({ exercised: list.filter(Boolean).length, total: list.length });
  const figures = {
    responses: count(items.map((i) => i.exercised)),
    successResponses: count(items.filter((i) => i.success).map((i) => i.exercised)),
    namedExamples: count(items.flatMap((i) => i.examples.map((x) => x.exercised))),
    exchanges: exchanges.length,
    matched: seen.length,
  };
  const missing = items.flatMap((i) => [
    ...(i.exercised ? [] : [`${i.operation} ${i.status}`]),
    ...i.examples.filter((x) => !x.exercised).map((x) => `${i.operation} ${i.status} example ${x.name}`),
  ]);
  return { items, figures, missing, unmatched };
}

const pct = ({ exercised, total }) => `${exercised}/${total}${total ? ` (${Math.round((100 * exercised) / total)}%)` : ''}`;

/** The lines the test summary prints. */
export function formatCoverage({ figures, missing }) {
  return [
    `contract coverage: responses ${pct(figures.responses)}, success responses ${pct(figures.successResponses)}, named examples ${pct(figures.namedExamples)} (from ${figures.matched} of ${figures.exchanges} exchanges with the mock)`,
    ...(missing.length ? [`contract coverage: not exercised: ${missing.join('; ')}`] : []),
  ];
}
