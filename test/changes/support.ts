// Pairs of documents for the rule tests: a small document with one of everything, a way to
// change a copy of it, and the comparison run on both through the real loader (YAML text,
// $refs, line numbers), without git.
import { stringify } from 'yaml';
// @ts-expect-error: plain ESM module without types
import { compareDocuments } from '../../changes/compare.mjs';
// @ts-expect-error: plain ESM module without types
import { loadDocument } from '../../changes/load.mjs';

export type Doc = Record<string, any>;
export type Change = { api: string; version: string; operation: string; rule: string; level: string; message: string; location: string };
export type Files = Record<string, string | Doc>;

export function baseDocument(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '2025-01-01' },
    security: [{ oauth: ['read'] }],
    paths: {
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        patch: {
          operationId: 'updateThing',
          summary: 'Update a thing',
          description: 'Changes a thing.',
          parameters: [
            { name: 'filter', in: 'query', description: 'Which ones.', schema: { type: 'string', default: 'all', enum: ['all', 'some'] } },
            { name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            required: false,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, examples: { Basic: { value: { name: 'a' } } } } },
          },
          responses: {
            '200': {
              description: 'The thing.',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Thing' }, examples: { Basic: { value: { id: '1', name: 'a' } } } },
                'application/xml': { schema: { type: 'string' } },
              },
            },
            '202': { description: 'Accepted.' },
            default: { description: 'Error.', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
        // Long-running, the ARM way (its final-state-via left to the DELETE default, location).
        delete: { operationId: 'deleteThing', 'x-ms-long-running-operation': true, responses: { '204': { description: 'Gone.' } } },
      },
      '/others': { get: { operationId: 'listOthers', security: [], responses: { '200': { description: 'Others.' } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'state'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string', description: 'Its name.', minLength: 1, maxLength: 50, pattern: '^[a-z]+$' },
            count: { type: 'integer', minimum: 0, maximum: 10 },
            kind: { type: 'string', enum: ['a', 'b'] },
            state: { type: 'string', enum: ['on', 'off'] },
            size: { type: 'number' },
            note: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      securitySchemes: {
        oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://login.test/authorize', scopes: { read: 'Read.', write: 'Write.' } } } },
        key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      },
    },
  };
}

/** A changed deep copy of the base document. */
export function changed(edit: (d: Doc) => void, from: Doc = baseDocument()): Doc {
  const doc = structuredClone(from);
  edit(doc);
  return doc;
}

const memory = (files: Files) => ({
  label: 'memory',
  display: (rel: string) => rel,
  read: (rel: string) => (rel in files ? (typeof files[rel] === 'string' ? (files[rel] as string) : stringify(files[rel])) : undefined),
});

export type Meta = { family?: string; published?: boolean };

/** The changes from `before` to `after`: documents, or whole file sets with `openapi.yaml` as root. */
export function compare(before: Doc | Files, after: Doc | Files, meta: Meta = {}): Change[] {
  const files = (x: Doc | Files): Files => ('openapi.yaml' in x ? (x as Files) : { 'openapi.yaml': x as Doc });
  const load = (x: Doc | Files) => loadDocument(memory(files(x)), 'openapi.yaml').document;
  return compareDocuments(load(before), load(after), { api: 'things', version: '2025-01-01', family: 'business-central', published: true, ...meta });
}

export const rulesOf = (changes: Change[]) => [...new Set(changes.map((c) => c.rule))].sort();
