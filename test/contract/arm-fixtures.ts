// The ARM lifecycle fixture (test/contract/fixtures/arm/sql-2025-01-01.yaml, bundled
// form) in two api-versions, as startMock({ documents }) takes them: the 2025-06-01
// document is the same file with that version written where 2025-01-01 is named, as the
// api-version recipe of specs/README.md makes one. Plus small HTTP helpers for the tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Mock, MockDocument, StartMockOptions } from '../../mock/index.js';
import { startMock } from './growth-fixtures.js';

export const ARM_FIXTURE = join(import.meta.dirname, 'fixtures/arm/sql-2025-01-01.yaml');
export const VERSIONS = ['2025-01-01', '2025-06-01'] as const;

export function armDocuments(): MockDocument[] {
  const text = readFileSync(ARM_FIXTURE, 'utf8');
  return VERSIONS.map((version) => ({ api: 'fixture-sql', version, family: 'resource-manager', document: parse(text.replaceAll(VERSIONS[0], version)) }));
}

export const startArmMock = (options: StartMockOptions = {}): Promise<Mock> => startMock({ port: 0, documents: armDocuments(), ...options });

export const SUBSCRIPTION = '6f1f2a47-38a1-4c7e-9a9d-2d3e5b8c0a11';
export const HEADERS = { authorization: 'Bearer fixture-token', 'content-type': 'application/json' };

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One request; the body parsed when there is one. */
export async function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...HEADERS, ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Paths of the fixture's types, with an api-version. */
export function armPaths(base: string) {
  const rg = (group: string) => `${base}/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}/providers/Provider.Sql`;
  const q = (version: string) => `?api-version=${version}`;
  return {
    server: (group: string, name: string, version: string = VERSIONS[0]) => `${rg(group)}/servers/${name}${q(version)}`,
    servers: (group: string, version: string = VERSIONS[0]) => `${rg(group)}/servers${q(version)}`,
    allServers: (version: string = VERSIONS[0]) => `${base}/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/servers${q(version)}`,
    database: (group: string, server: string, name: string, version: string = VERSIONS[0]) => `${rg(group)}/servers/${server}/databases/${name}${q(version)}`,
    databases: (group: string, server: string, version: string = VERSIONS[0]) => `${rg(group)}/servers/${server}/databases${q(version)}`,
    quota: (name: string, version: string = VERSIONS[0]) => `${base}/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/quotas/${name}${q(version)}`,
    nameCheck: (version: string = VERSIONS[0]) => `${base}/subscriptions/${SUBSCRIPTION}/providers/Provider.Sql/checkNameAvailability${q(version)}`,
  };
}
