// Which operations of a page the docs tests open in the browser: one per shape. A shape is
// what the page renders differently for an operation (its method, a request body, example
// switchers, error bodies shown or said not shown, a recorded gap, a required If-Match,
// a list); each is rendered by the same code for every operation that has it, so one of
// each shows that code working. A page of 300 operations has a handful of shapes: the
// time of these tests follows the shapes, not the operations. The representative of a
// shape is chosen by name (the smallest operationId), never by position in the document,
// so an operation added anywhere changes nothing but, maybe, a new shape to check.
import { deref } from '../helpers/bundles.js';

export interface PageOperation {
  operationId: string;
  method: string;
  path: string;
}

/** The operation object of `op` in its bundled document. */
export const operationOf = (doc: any, op: PageOperation) => deref(doc, doc.paths[op.path])[op.method.toLowerCase()];

/** The named-example groups of an operation: the request body's and each response's, per media type. */
export function exampleGroups(doc: any, op: PageOperation): Array<{ status?: string; examples: Record<string, any> }> {
  const operation = operationOf(doc, op);
  const groups: Array<{ status?: string; examples: Record<string, any> }> = [];
  for (const media of Object.values<any>(deref(doc, operation.requestBody)?.content ?? {})) groups.push({ examples: media.examples ?? {} });
  for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
    for (const media of Object.values<any>(deref(doc, response)?.content ?? {})) groups.push({ status, examples: media.examples ?? {} });
  }
  return groups;
}

/** How many example switchers an operation's view has (groups of several named examples). */
export const switchersOf = (doc: any, op: PageOperation) => exampleGroups(doc, op).filter((g) => Object.keys(g.examples).length > 1).length;

/** The features of an operation that change how its page renders it. */
export function shapeOf(doc: any, op: PageOperation): string {
  const operation = operationOf(doc, op);
  const parameters = [...(deref(doc, doc.paths[op.path])?.parameters ?? []), ...(operation.parameters ?? [])].map((p: any) => deref(doc, p));
  const errors = Object.entries<any>(operation.responses ?? {})
    .filter(([status]) => /^[45]|default/.test(status))
    .map(([, r]) => deref(doc, r));
  const success = Object.values<any>(deref(doc, operation.responses?.['200'])?.content ?? {})[0]?.schema;
  const features = [
    op.method.toUpperCase(),
    operation.requestBody ? 'body' : '',
    switchersOf(doc, op) > 0 ? 'switchers' : '',
    errors.some((r) => Object.values<any>(r?.content ?? {}).some((m) => m.examples || m.example !== undefined)) ? 'error-examples' : '',
    [operation, ...parameters].some((node) => node?.['x-source-gap']) ? 'gap' : '',
    parameters.some((p) => p?.in === 'header' && String(p.name).toLowerCase() === 'if-match' && p.required) ? 'if-match' : '',
    deref(doc, success)?.properties?.value?.type === 'array' ? 'list' : '',
  ];
  return features.filter(Boolean).join(' ');
}

/** One operation of each shape of a page, each the smallest operationId of its shape. */
export function onePerShape<T extends PageOperation>(doc: any, ops: readonly T[]): T[] {
  const chosen = new Map<string, T>();
  for (const op of [...ops].sort((a, b) => a.operationId.localeCompare(b.operationId))) {
    const shape = shapeOf(doc, op);
    if (!chosen.has(shape)) chosen.set(shape, op);
  }
  return [...chosen.values()];
}

/** The first of `ops` by operationId: "an operation", chosen by name, not by position. */
export const byName = <T extends PageOperation>(ops: readonly T[]): T => [...ops].sort((a, b) => a.operationId.localeCompare(b.operationId))[0]!;
