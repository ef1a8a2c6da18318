// The coverage figure's two parts: the tee records exchanges without changing them, and
// computeCoverage counts exactly the declared responses and named examples seen.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.js';
import { bundleOf, deref, ROOT } from '../helpers/bundles.js';
// @ts-expect-error: plain ESM script without types
import { loadContract } from '../../contract/contract.mjs';
// @ts-expect-error: plain ESM script without types
import { computeCoverage } from '../../contract/coverage.mjs';
// @ts-expect-error: plain ESM script without types
import { startTee } from '../../contract/tee.mjs';

const SUB = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
const NAME = `/subscriptions/${SUB}/providers/Provider.Sql/checkNameAvailability?api-version=2025-01-01`;
// What the documents declare, counted here from the bundles (five documents: 5 success
// responses, 10 responses, 10 named examples): every operation of every version.
function declared() {
  const docs = new Map<string, any>();
  let responses = 0;
  let success = 0;
  let examples = 0;
  for (const op of operations) {
    const doc = docs.get(op.api) ?? docs.set(op.api, bundleOf(op.api)).get(op.api);
    for (const [status, response] of Object.entries<any>(doc.paths[op.path][op.method.toLowerCase()].responses)) {
      responses++;
      if (/^2/.test(status)) success++;
      for (const media of Object.values<any>(deref(doc, response).content ?? {})) examples += Object.keys(media.examples ?? {}).length;
    }
  }
  return { responses, success, examples };
}

const TAKEN = { name: 'sales-db-west-01', available: false, reason: 'AlreadyExists', message: "Server name 'sales-db-west-01' is already in use." };

describe('contract coverage', () => {
  it('counts a response once an answer with its status came back, and an example once its body did', () => {
    const { figures, missing } = computeCoverage(
      [
        { method: 'POST', url: NAME, status: 200, contentType: 'application/json', body: JSON.stringify(TAKEN) },
        { method: 'POST', url: NAME, status: 400, contentType: 'application/json', body: '{"error":{"code":"Other","message":"x"}}' },
        // Not a documented version: not counted.
        { method: 'POST', url: NAME.replace('2025-01-01', '1999-01-01'), status: 200, contentType: 'application/json', body: '{}' },
      ],
      loadContract(ROOT),
    );
    const total = declared();
    expect(figures.responses.exercised).toBe(2);
    expect(figures.successResponses).toEqual({ exercised: 1, total: total.success });
    expect(figures.namedExamples.exercised).toBe(1);
    expect(figures.responses.total).toBe(total.responses);
    expect(figures.namedExamples.total).toBe(total.examples);
    expect(missing).toContain('Servers_CheckNameAvailability@2025-01-01 200 example available');
    expect(missing).not.toContain('Servers_CheckNameAvailability@2025-01-01 200 example AlreadyExists');
    expect(missing).toContain('updateVendor@v2.0 200');
  });

  it('the tee relays bytes unchanged (Host included) and records content-length and chunked answers', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.host}`);
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":');
        res.end('1}');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 2 });
        res.end('no');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(server.address() as any).port}`;
    const tee = await startTee({ target });
    try {
      const get = (path: string) =>
        new Promise<string>((resolve, reject) => {
          const { port } = new URL(tee.url);
          http
            .get({ host: '127.0.0.1', port, path }, (res) => {
              let text = '';
              res.setEncoding('utf8').on('data', (c: string) => (text += c));
              res.on('end', () => resolve(`${res.statusCode} ${text}`));
            })
            .on('error', reject);
        });
      expect(await get('/chunked')).toBe('200 {"a":1}');
      expect(await get('/a%2Fb/companies(1)?x=%24y')).toBe('404 no');
      expect(seen).toEqual([`GET /chunked ${new URL(tee.url).host}`, `GET /a%2Fb/companies(1)?x=%24y ${new URL(tee.url).host}`]);
      expect(tee.exchanges).toEqual([
        { method: 'GET', url: '/chunked', status: 200, contentType: 'application/json', body: '{"a":1}' },
        { method: 'GET', url: '/a%2Fb/companies(1)?x=%24y', status: 404, contentType: 'text/plain', body: 'no' },
      ]);
    } finally {
      await tee.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
