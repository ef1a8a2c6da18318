// The mock's own fixture documents (test/contract/fixtures/growth/*.yaml, bundled form),
// as startMock({ documents }) takes them, and an in-process mock serving them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import type { Mock, MockDocument, StartMockOptions } from '../../mock/index.js';

const ROOT = join(import.meta.dirname, '../..');
export const FIXTURES = join(import.meta.dirname, 'fixtures/growth');

/** Every fixture document: business data when its server path is /api/vX.Y. */
export function growthDocuments(): MockDocument[] {
  return readdirSync(FIXTURES)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const document = parse(readFileSync(join(FIXTURES, file), 'utf8'));
      const business = /\/api\/v\d/.test(document.servers[0].url);
      return {
        api: `fixture-${file.split('-')[0]}`,
        version: String(document.info.version),
        family: business ? 'business-central' : 'resource-manager',
        document: join(FIXTURES, file),
      };
    });
}

export const { startMock, INITIAL_ETAG } = (await import(pathToFileURL(join(ROOT, 'mock/index.mjs')).href)) as typeof import('../../mock/index.js');

export const startFixtureMock = (options: StartMockOptions = {}): Promise<Mock> => startMock({ port: 0, documents: growthDocuments(), ...options });

export const AUTH = { authorization: 'Bearer fixture-token' };
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };
