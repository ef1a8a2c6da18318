// Spectral's $ref resolver at width: a file that itself holds a `$ref`, used from 300
// referenced files (the business-data recipe's `default: $ref: …/NotShownError.yaml` on 300
// operations). With the resolver's default cache only about the first 100 uses resolve
// (stoplightio/spectral#2790; pipeline/spectral-ref-cache.mjs says why), and rules then
// see `$ref` objects where schemas should be. In memory: a reader over a map of files.
import spectralRefResolver from '@stoplight/spectral-ref-resolver';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM module without types
import { FirstChainCache } from '../../pipeline/spectral-ref-cache.mjs';

const { Resolver } = spectralRefResolver;
const USES = 300;

/** Files by absolute path: a root with USES path files, each using the shared response. */
function wideFiles(): Map<string, unknown> {
  const files = new Map<string, unknown>();
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < USES; i++) {
    paths[`/things${i}`] = { $ref: `./paths/things${i}.json` };
    files.set(`/w/paths/things${i}.json`, { get: { responses: { default: { $ref: '../common/NotShownError.json' } } } });
  }
  files.set('/w/openapi.json', { openapi: '3.1.0', paths });
  files.set('/w/common/NotShownError.json', { description: 'Failure.', content: { 'application/json': { schema: { $ref: './BusinessCentralError.json' } } } });
  files.set('/w/common/BusinessCentralError.json', { title: 'BusinessCentralError', type: 'object' });
  return files;
}

function resolverOver(files: Map<string, unknown>, uriCache?: unknown) {
  return new Resolver({
    ...(uriCache ? { uriCache } : {}),
    resolvers: {
      file: {
        resolve: async (uri: any) => {
          const text = files.get(uri.path());
          if (text === undefined) throw new Error(`no file ${uri.path()}`);
          return JSON.stringify(text);
        },
      },
    },
    parseResolveResult: async (options: any) => ({ ...options, result: JSON.parse(options.result) }),
  } as any);
}

async function schemaTitles(uriCache?: unknown) {
  const files = wideFiles();
  const { result } = await resolverOver(files, uriCache).resolve(files.get('/w/openapi.json'), { baseUri: '/w/openapi.json' });
  return Object.values<any>(result.paths).map((item) => item.get.responses.default.content['application/json'].schema.title ?? 'unresolved');
}

describe("Spectral's $ref resolver with FirstChainCache", () => {
  it(`resolves a nested $ref at each of ${USES} uses`, async () => {
    const titles = await schemaTitles(new FirstChainCache());
    expect(titles).toHaveLength(USES);
    expect(titles.filter((t) => t !== 'BusinessCentralError')).toEqual([]);
  });

  it('is needed: the default cache leaves uses unresolved at this width (the check is not vacuous)', async () => {
    const titles = await schemaTitles();
    expect(titles.filter((t) => t === 'unresolved').length).toBeGreaterThan(0);
  });

  it('still ends a chain of files that loops (a.json -> b.json -> a.json)', async () => {
    const files = new Map<string, unknown>([
      ['/w/root.json', { a: { $ref: './a.json' } }],
      ['/w/a.json', { title: 'A', next: { $ref: './b.json' } }],
      ['/w/b.json', { title: 'B', next: { $ref: './a.json' } }],
    ]);
    const { result } = await resolverOver(files, new FirstChainCache()).resolve(files.get('/w/root.json'), { baseUri: '/w/root.json' });
    expect(result.a.title).toBe('A');
    expect(result.a.next.title).toBe('B');
  });

  it('reports a file that cannot be read at each use (an error, not an unhandled rejection)', async () => {
    const files = new Map<string, unknown>([
      ['/w/root.json', { a: { $ref: './paths/a.json' }, b: { $ref: './paths/b.json' } }],
      ['/w/paths/a.json', { schema: { $ref: '../missing.json' } }],
      ['/w/paths/b.json', { schema: { $ref: '../missing.json' } }],
    ]);
    const { errors } = await resolverOver(files, new FirstChainCache()).resolve(files.get('/w/root.json'), { baseUri: '/w/root.json' });
    expect(errors.filter((e: any) => /no file \/w\/missing\.json/.test(e.message)).length).toBe(2);
  });
});
