// Synthetic resource-management documents of N operations, run through the same warm
// pipeline as `npm run build` (lint, bundle, types), then `tsc --noEmit` of a file that
// calls the last operation through openapi-fetch. Each step is timed separately.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { createPipeline } from '../../pipeline/engines.mjs';
import { timed } from './stats.mjs';
import { ROOT } from './workspace-copy.mjs';

const run = promisify(execFile);

export function syntheticDocument(n) {
  const paths = {};
  const schemas = {
    CloudError: {
      title: 'CloudError',
      type: 'object',
      properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } },
    },
  };
  for (let i = 0; i < n; i++) {
    schemas[`Thing${i}`] = {
      type: 'object',
      title: `Thing${i}`,
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        count: { type: 'integer' },
        createdOn: { type: 'string', format: 'date-time' },
        state: { type: 'string', enum: ['Active', 'Inactive'] },
      },
    };
    paths[`/subscriptions/{subscriptionId}/providers/Provider.Synthetic/thing${i}`] = {
      get: {
        operationId: `Thing${i}_Get`,
        summary: `Get thing ${i}`,
        description: `Returns thing ${i}.`,
        tags: ['Things'],
        parameters: [{ $ref: '#/components/parameters/subscriptionId' }, { $ref: '#/components/parameters/api-version' }],
        responses: {
          200: {
            description: 'The thing.',
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/Thing${i}` },
                examples: { Basic: { value: { id: `t${i}`, name: 'thing', count: i, state: 'Active' } } },
              },
            },
          },
          default: { description: 'Error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/CloudError' } } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Synthetic ${n}`, version: '2020-01-01', description: 'Synthetic document for the scaling benchmark.' },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010' } } }],
    tags: [{ name: 'Things', description: 'Things.' }],
    security: [{ azure_auth: ['user_impersonation'] }],
    paths,
    components: {
      schemas,
      parameters: {
        subscriptionId: { name: 'subscriptionId', in: 'path', required: true, description: 'Subscription.', schema: { type: 'string' } },
        'api-version': { name: 'api-version', in: 'query', required: true, description: 'Version.', schema: { type: 'string', minLength: 1 } },
      },
      securitySchemes: {
        azure_auth: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: 'https://login.test/authorize', scopes: { user_impersonation: 'Act as the user.' } } },
        },
      },
    },
  };
}

const usage = (n) => `import createClient from 'openapi-fetch';
import type { paths } from './synthetic.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });
const { data } = await client.GET('/subscriptions/{subscriptionId}/providers/Provider.Synthetic/thing${n - 1}', {
  params: { path: { subscriptionId: 'sub' }, query: { 'api-version': '2020-01-01' } },
});
export const name: string | undefined = data?.name;
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
  files: ['use.ts'],
};

export async function scaling(sizes) {
  const rows = [];
  for (const n of sizes) {
    const dir = await mkdtemp(join(tmpdir(), `bench-scale-${n}-`));
    try {
      await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      await writeFile(join(dir, 'package.json'), '{"type":"module"}');
      const root = join(dir, 'openapi.yaml');
      await writeFile(root, stringify(syntheticDocument(n)));
      const api = {
        name: 'synthetic',
        root,
        rootRelative: 'openapi.yaml',
        specDir: dir,
        family: 'resource-manager',
        bundle: join(dir, 'bundled.yaml'),
        types: join(dir, 'synthetic.ts'),
      };
      // (A synthetic API: the fields lint, bundle and types read, not a whole redocly.yaml entry.)
      const pipeline = await createPipeline({ root: ROOT, apis: [/** @type {any} */ (api)] });
      const [lint, findings] = await timed(() => pipeline.lint(api));
      if (findings.length) throw new Error(`synthetic document of ${n} is not clean: ${findings[0].message}`);
      const [bundle, { document }] = await timed(() => pipeline.bundle(api));
      const [types] = await timed(() => pipeline.types(api, document));
      await writeFile(join(dir, 'use.ts'), usage(n));
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
      const [tsc] = await timed(() => run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]));
      rows.push({ operations: n, lint, bundle, types, tsc });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
