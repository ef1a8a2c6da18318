// A spec is untrusted input (docs/security.md). Each payload below is written into a
// throw-away workspace as a document of its own, then linted and bundled IN PROCESS with
// that workspace's own pipeline (its pipeline/, given its root): lint must report the payload
// as one `file:line:col` finding, and the bundle (which generate, build, docs, types and
// watch all go through) must refuse it. A few checks run the CLI once, for the exit code,
// the time and the memory.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceCopy } from '../helpers/workspace-copy.js';

const run = promisify(execFile);
const SECRET = 'TRUST-CASE-SECRET-7d1e';

// --- a listener that stands for "the network": it must never be contacted -------------------
let connections = 0;
const listener = http.createServer((_req, res) => res.end(`description: ${SECRET}\n`));
listener.on('connection', () => connections++);
let PORT = 0;

/** The base document of every case; `extra` is appended under the 200 response (indent 10). */
const doc = (extra = '', { description = 'A fixture of test/security/untrusted-specs.test.ts.', summary = 'List things' } = {}) =>
  `openapi: 3.1.0
info:
  title: Trust case
  version: v1
  description: ${description}
paths:
  /things:
    get:
      operationId: listThings
      summary: ${summary}
      responses:
        '200':
          description: The things.
${extra}`;

/** `line:col` of the first `needle` in `text`. */
function where(text: string, needle: string): string {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`fixture: ${needle} not in its file`);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

interface Case {
  id: string;
  what: string;
  /** Files under specs/trust/<id>/ (the root is openapi.yaml); a function gets the listener's port. */
  files: Record<string, string | ((port: number) => string)>;
  /** Symlinks under specs/trust/<id>/, to a path relative to the workspace. */
  links?: Record<string, string>;
  /** The finding: its file (under specs/trust/<id>/), the text it points at, its rule and message. */
  at: { file: string; needle: string; shift?: number };
  rule: string;
  message: RegExp;
}

const big = (n: number) => 'x'.repeat(n);
const CASES: Case[] = [
  // --- script and page takeover in the docs (any string of any file) ---
  {
    id: 'img-alt',
    what: 'an <img alt=">" onerror=…> in a description (passes a regex, not a tokenizer)',
    files: { 'openapi.yaml': doc('', { description: `'See <img alt=">" src=x onerror=alert(document.domain)> here.'` }) },
    at: { file: 'openapi.yaml', needle: `'See <img` },
    rule: 'unsafe-html',
    message: /event handler onerror= on <img>/,
  },
  {
    id: 'iframe-srcdoc',
    what: 'an <iframe srcdoc> with an entity-encoded onerror, in a summary',
    files: { 'openapi.yaml': doc('', { summary: `'<iframe srcdoc="&lt;img src=x &#111;nerror=alert(1)&gt;"></iframe>'` }) },
    at: { file: 'openapi.yaml', needle: `'<iframe` },
    rule: 'unsafe-html',
    message: /raw HTML <iframe>/,
  },
  {
    id: 'meta-refresh',
    what: 'a <meta http-equiv=refresh> in a block description',
    files: { 'openapi.yaml': doc('', { description: `|\n    Fine text.\n    <meta http-equiv="refresh" content="0;url=https://attacker.example/">` }) },
    at: { file: 'openapi.yaml', needle: '<meta' },
    rule: 'unsafe-html',
    message: /raw HTML <meta>/,
  },
  {
    id: 'style-tag',
    what: 'a <style> in x-source-gap',
    files: { 'openapi.yaml': doc(`          x-source-gap: "<style>body { display: none }</style>"\n`) },
    at: { file: 'openapi.yaml', needle: '"<style>' },
    rule: 'unsafe-html',
    message: /raw HTML <style>/,
  },
  {
    id: 'javascript-link',
    what: 'an entity-encoded javascript: link in an example value of a referenced file',
    files: {
      'openapi.yaml': doc(
        `          content:\n            application/json:\n              examples:\n                one:\n                  $ref: ./example.yaml\n`,
      ),
      'example.yaml': `summary: One thing\nvalue:\n  note: "[click](java&#115;cript:alert(1))"\n`,
    },
    at: { file: 'example.yaml', needle: '"[click]' },
    rule: 'unsafe-html',
    message: /javascript: URL/,
  },
  {
    id: 'external-docs',
    what: 'a javascript: URL as externalDocs.url (Redoc renders it as a link)',
    files: {
      'openapi.yaml': doc(`          x-unused: true
`).replace('paths:', 'externalDocs:\n  url: " javascript:alert(1)"\npaths:'),
    },
    at: { file: 'openapi.yaml', needle: '" javascript' },
    rule: 'unsafe-html',
    message: /a javascript: URL is not allowed/,
  },
  // --- reading outside specs/ ---
  {
    id: 'ref-outside',
    what: 'a $ref with enough ../ under an x- key',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: ../../../secret.txt\n`) },
    at: { file: 'openapi.yaml', needle: '../../../secret.txt' },
    rule: 'ref-outside-specs',
    message: /"\.\.\/\.\.\/\.\.\/secret\.txt" resolves to secret\.txt, outside specs\//,
  },
  {
    id: 'ref-etc',
    what: 'a $ref to /etc/passwd through ../ chains',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: ../../../../../../../../../../etc/passwd\n`) },
    at: { file: 'openapi.yaml', needle: '../../../../../../../../../../etc/passwd' },
    rule: 'ref-outside-specs',
    message: /resolves to \/etc\/passwd, outside specs\//,
  },
  {
    id: 'symlink-file',
    what: 'a $ref to a committed symlink that points outside specs/',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: ./leak.yaml\n`) },
    links: { 'leak.yaml': 'secret.yaml' },
    at: { file: 'openapi.yaml', needle: './leak.yaml' },
    rule: 'ref-outside-specs',
    message: /resolves through a symlink to secret\.yaml, outside specs\//,
  },
  {
    id: 'symlink-dir',
    what: 'a $ref through a symlinked folder that points outside specs/',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: ./outside/secret.yaml\n`) },
    links: { outside: '.' },
    at: { file: 'openapi.yaml', needle: './outside/secret.yaml' },
    rule: 'ref-outside-specs',
    message: /through a symlink to secret\.yaml, outside specs\//,
  },
  {
    id: 'discriminator',
    what: 'a discriminator mapping that leaves specs/',
    files: {
      'openapi.yaml': doc(
        `          content:\n            application/json:\n              schema:\n                discriminator:\n                  propertyName: kind\n                  mapping:\n                    a: ../../../secret.yaml\n`,
      ),
    },
    at: { file: 'openapi.yaml', needle: '../../../secret.yaml' },
    rule: 'ref-outside-specs',
    message: /outside specs\//,
  },
  // --- the network ---
  {
    id: 'remote-ref',
    what: 'a $ref to http://127.0.0.1 (never fetched)',
    files: { 'openapi.yaml': (port) => doc(`          x-remote:\n            $ref: http://127.0.0.1:${port}/x.yaml\n`) },
    at: { file: 'openapi.yaml', needle: 'http://127.0.0.1' },
    rule: 'ref-not-relative',
    message: /is a http: reference; only relative file references are followed/,
  },
  {
    id: 'remote-external-value',
    what: 'an example externalValue on https (Redocly follows externalValue too)',
    files: {
      'openapi.yaml': (port) =>
        doc(
          `          content:\n            application/json:\n              examples:\n                one:\n                  externalValue: https://127.0.0.1:${port}/x.json\n`,
        ),
    },
    at: { file: 'openapi.yaml', needle: 'https://127.0.0.1' },
    rule: 'ref-not-relative',
    message: /is a https: reference/,
  },
  {
    id: 'file-url',
    what: 'a file: URL',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: file:///etc/passwd\n`) },
    at: { file: 'openapi.yaml', needle: 'file:///etc/passwd' },
    rule: 'ref-not-relative',
    message: /is a file: reference/,
  },
  {
    id: 'absolute-path',
    what: 'an absolute path',
    files: { 'openapi.yaml': doc(`          x-leak:\n            $ref: /etc/passwd\n`) },
    at: { file: 'openapi.yaml', needle: '/etc/passwd' },
    rule: 'ref-not-relative',
    message: /is an absolute path/,
  },
  // --- bounded input ---
  {
    id: 'alias-bomb-example',
    what: 'a 1 KB YAML alias bomb in an example file',
    files: {
      'openapi.yaml': doc(
        `          content:\n            application/json:\n              examples:\n                one:\n                  $ref: ./bomb.yaml\n`,
      ),
      'bomb.yaml': [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
        'value: *i',
        '',
      ].join('\n'),
    },
    at: { file: 'bomb.yaml', needle: '*a' },
    rule: 'yaml-alias',
    message: /YAML alias \*a is not allowed in specs/,
  },
  {
    id: 'alias-bomb-root',
    what: 'a YAML alias bomb in a root document',
    files: { 'openapi.yaml': `x-a: &a [1,1,1,1,1,1,1,1,1,1]\nx-b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nx-c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n${doc()}` },
    at: { file: 'openapi.yaml', needle: '*a' },
    rule: 'yaml-alias',
    message: /YAML alias \*a/,
  },
  {
    id: 'huge-file',
    what: 'a 20 MB description',
    files: { 'openapi.yaml': doc('', { description: big(20 * 1024 * 1024) }) },
    at: { file: 'openapi.yaml', needle: 'openapi' },
    rule: 'size-limit',
    message: /bytes; a spec file may be at most 5242880 bytes \(5 MB\)/,
  },
  {
    id: 'long-string',
    what: 'a 200,000-character description in a small file',
    files: { 'openapi.yaml': doc('', { description: big(200_000) }) },
    at: { file: 'openapi.yaml', needle: 'xxxx' },
    rule: 'size-limit',
    message: /a string of 200000 characters; at most 100000/,
  },
  {
    id: 'deep-nesting',
    what: 'flow collections nested 100,000 deep',
    files: { 'openapi.yaml': doc(`          x-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`) },
    at: { file: 'openapi.yaml', needle: '[[[', shift: 64 }, // the 65th bracket
    rule: 'depth-limit',
    message: /nested more than 64 levels deep/,
  },
];

const CASE_DIR = (id: string) => `specs/trust/${id}`;
const apiName = (id: string) => `trust-${id}@v1`;

let dir: string;
let remove: () => Promise<void>;
let pipeline: any;
let trust: any;
let InputError: any;
const texts = new Map<string, string>();

beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  PORT = (listener.address() as AddressInfo).port;
  ({ dir, remove } = await workspaceCopy('untrusted-specs-'));
  // What a symlink points at: files outside specs/, holding a marker that must never be read.
  await writeFile(join(dir, 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(dir, 'secret.yaml'), `description: ${SECRET}\n`);
  let apis = 'apis:\n';
  for (const c of CASES) {
    const base = join(dir, CASE_DIR(c.id));
    await mkdir(base, { recursive: true });
    for (const [name, content] of Object.entries(c.files)) {
      const text = typeof content === 'function' ? content(PORT) : content;
      texts.set(`${c.id}/${name}`, text);
      await writeFile(join(base, name), text);
    }
    for (const [name, target] of Object.entries(c.links ?? {})) await symlink(join(dir, target), join(base, name));
    apis += `  ${apiName(c.id)}:\n    root: ${CASE_DIR(c.id)}/openapi.yaml\n    output: generated/bundled/trust-${c.id}-v1.yaml\n`;
  }
  // Only the cases are APIs of this workspace: the real documents stay out of the way.
  await writeFile(join(dir, 'redocly.yaml'), (await readFile(join(dir, 'redocly.yaml'), 'utf8')).replace(/^apis:\n(?:  .*\n)+/m, apis));
  ({ createPipeline: pipeline } = await import(join(dir, 'pipeline/engines.mjs')));
  pipeline = await pipeline({ root: dir });
  trust = await import(join(dir, 'pipeline/trust.mjs'));
  ({ InputError } = await import(join(dir, 'lib/findings.mjs')));
}, 60_000);

afterAll(async () => {
  await pipeline?.close();
  listener.close();
  await remove?.();
});

const formatted = (findings: any[]) => findings.map((f) => `${f.file}:${f.line}:${f.col}  ${f.severity}  ${f.rule}  ${f.message}  (${f.tool})`).join('\n');

describe.each(CASES)('$what', (c) => {
  const expected = () => {
    const file = `${CASE_DIR(c.id)}/${c.at.file}`;
    const [l, col] = where(texts.get(`${c.id}/${c.at.file}`)!, c.at.needle)
      .split(':')
      .map(Number);
    const position = `${l}:${col! + (c.at.shift ?? 0)}`;
    return { line: `${file}:${position}  error  ${c.rule}  `, message: c.message };
  };

  it('lint reports it as one file:line:col finding', async () => {
    const api = pipeline.apis.find((a: any) => a.name === apiName(c.id));
    const start = performance.now();
    const output = formatted(await pipeline.lint(api));
    const { line, message } = expected();
    const found = output.split('\n').find((l) => l.startsWith(line));
    expect(found, output).toBeDefined();
    expect(found).toMatch(message);
    expect(output).not.toContain(SECRET);
    expect(performance.now() - start).toBeLessThan(10_000);
  });

  it('the bundle (generate, build, types, docs, watch) refuses it', async () => {
    const api = pipeline.apis.find((a: any) => a.name === apiName(c.id));
    const error = await pipeline.bundled(api).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    const { line } = expected();
    expect(formatted(error.findings)).toContain(line);
  });
});

describe('what a spec may still say', () => {
  it.each([
    'Name of the cached image, as `<name>:<tag>`.',
    'Clients in JavaScript: see the README.',
    'A <b>bold</b> word, <code>x</code> and <a href="https://example.com/a_(b)">a link</a>.',
    'See [the docs](https://example.com/docs) and <https://example.com>.',
    '<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo">',
    'data:application/json;base64,e30=',
    'if a < b && c > d',
  ])('%s passes', (text) => {
    expect(trust.unsafeMarkup(text)).toBeUndefined();
  });
});

describe('the network is never used', () => {
  it('the listener counts connections (control)', async () => {
    const before = connections;
    await new Promise((resolve) => http.get(`http://127.0.0.1:${PORT}/`, (res) => res.resume().on('end', resolve)));
    expect(connections).toBe(before + 1);
    connections = before;
  });

  it('Redocly and Spectral, handed the remote $ref without the pre-flight, fetch nothing', async () => {
    const root = join(dir, CASE_DIR('remote-ref'), 'openapi.yaml');
    const { lint, loadConfig } = await import('@redocly/openapi-core');
    const config = await loadConfig({ configPath: join(dir, 'redocly.yaml') });
    const problems = await lint({ ref: root, config, externalRefResolver: await trust.guardedRedoclyResolver(config.resolve, dir) });
    expect(problems.map((p: any) => p.message).join('\n')).toMatch(/refused to read http:\/\/127\.0\.0\.1:\d+\/x\.yaml: .*remote references are not fetched/);
    const { startSpectralWorker } = await import(join(dir, 'pipeline/spectral-worker.mjs'));
    const spectral = await startSpectralWorker(dir);
    try {
      const findings = await spectral.lint(root);
      expect(formatted(findings)).toMatch(/x\.yaml/);
    } finally {
      await spectral.close();
    }
  });

  it('after every case above, the 127.0.0.1 listener has had zero connections', () => {
    expect(connections).toBe(0);
  });
});

describe('the workspace', () => {
  it('lint lists a symlink in specs/ that points outside, even unreferenced', () => {
    const output = formatted(trust.symlinkFindings(dir));
    expect(output).toMatch(/^specs\/trust\/symlink-file\/leak\.yaml:1:1  error  symlink-outside-specs  is a symlink to secret\.yaml, outside specs\//m);
    expect(output).toMatch(/^specs\/trust\/symlink-dir\/outside:1:1  error  symlink-outside-specs/m);
  });

  it('a folder link in specs/ that loops to its ancestor is one finding, in under a second, on every Node line', async () => {
    // Node 22+'s recursive readdirSync walked such a loop ~40 levels deep (lib/walk.mjs).
    const loop = join(dir, 'specs/trust/loop');
    await mkdir(join(loop, 'a'), { recursive: true });
    await symlink(loop, join(loop, 'a/back')); // absolute, to an ancestor
    await symlink('.', join(loop, 'a/self')); // relative, to its own folder
    try {
      const start = performance.now();
      const findings = trust.symlinkFindings(dir);
      expect(performance.now() - start).toBeLessThan(1000);
      const loops = formatted(findings)
        .split('\n')
        .filter((l) => l.includes('specs/trust/loop'));
      expect(loops).toHaveLength(2);
      expect(loops[0]).toMatch(
        /^specs\/trust\/loop\/a\/(back|self):1:1  error  symlink-loop  is a symlink to specs\/trust\/loop(\/a)?, a folder it is itself inside/,
      );
      expect(loops.map((l) => l.split(':')[0]).sort()).toEqual(['specs/trust/loop/a/back', 'specs/trust/loop/a/self']);
      // The links outside specs/ are still each one finding, not one per level of the loop.
      expect(formatted(findings).match(/symlink-outside-specs/g)).toHaveLength(2);
    } finally {
      await rm(loop, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'output',
      'generated/bundled/trust-img-alt-v1.yaml',
      '../outside.yaml',
      /`output` \.\.\/outside\.yaml resolves to \S*outside\.yaml, outside generated\/; the build writes only inside generated\//,
    ],
    ['output', 'generated/bundled/trust-img-alt-v1.yaml', 'src/index.ts', /`output` src\/index\.ts resolves to src\/index\.ts, outside generated\//],
    [
      'root',
      'specs/trust/img-alt/openapi.yaml',
      'secret.yaml',
      /`root` secret\.yaml resolves to secret\.yaml, outside specs\/; a root document must be in specs\//,
    ],
  ])('redocly.yaml: %s %s -> %s is refused at its line', async (key, from, to, message) => {
    const file = join(dir, 'redocly.yaml');
    const original = await readFile(file, 'utf8');
    const edited = original.replace(`${key}: ${from}`, `${key}: ${to}`);
    expect(edited).not.toBe(original);
    await writeFile(file, edited);
    try {
      const { loadApis } = await import(join(dir, 'model/apis.mjs'));
      const error = (() => {
        try {
          loadApis(dir);
        } catch (e) {
          return e as any;
        }
      })();
      expect(error).toBeInstanceOf(InputError);
      const position = where(edited, `${key}: ${to}`).split(':');
      const line = `redocly.yaml:${position[0]}:${Number(position[1]) + key.length + 2}  error  apis-entry  `;
      const found = formatted(error.findings)
        .split('\n')
        .find((l) => l.startsWith(line));
      expect(found, formatted(error.findings)).toMatch(message);
    } finally {
      await writeFile(file, original);
    }
  });
});

describe('the commands, end to end', () => {
  // Peak memory (kilobytes) and CPU time (microseconds, all threads) of the child, printed
  // as it exits. The time bound is on CPU time: on a machine shared with other work the
  // wall clock measures the neighbours as much as the command.
  const MEASURE = `--import=data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('maxrss='+u.maxRSS+' cpu='+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
  async function cli(script: string, args: string[]) {
    const start = performance.now();
    const result = await run(process.execPath, ['--max-old-space-size=500', MEASURE, script, ...args], { cwd: dir }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: any) => ({ code: error.code as number, output: String(error.stdout) + String(error.stderr) }),
    );
    const maxRss = Number(/maxrss=(\d+)/.exec(result.output)?.[1]) * 1024;
    const cpuMs = Number(/cpu=(\d+)/.exec(result.output)?.[1]) / 1000;
    return { ...result, ms: performance.now() - start, maxRss, cpuMs };
  }

  it.each([
    ['pipeline/lint.mjs', [apiName('alias-bomb-example')]],
    ['pipeline/build.mjs', ['--no-docs', '--no-compile']],
  ])(
    '%s exits 1 on the alias bomb with file:line:col, in < 10 s of CPU and < 500 MB',
    async (script, args) => {
      // The bomb is the workspace's one API for this run (the build lints every API).
      const file = join(dir, 'redocly.yaml');
      const original = await readFile(file, 'utf8');
      const only = apiName('alias-bomb-example');
      await writeFile(
        file,
        original.replace(
          /^apis:\n(?:  .*\n)+/m,
          (apis) =>
            `apis:\n${apis
              .split(/\n(?=  \S)/)
              .filter((entry) => entry.includes(only))
              .join('\n')
              .replace(/^apis:\n/, '')}\n`,
        ),
      );
      const { code, output, ms, maxRss, cpuMs } = await cli(script, args).finally(() => writeFile(file, original));
      expect(code, output).toBe(1);
      const position = where(texts.get('alias-bomb-example/bomb.yaml')!, '*a');
      expect(output).toContain(`specs/trust/alias-bomb-example/bomb.yaml:${position}  error  yaml-alias  `);
      expect(output).not.toMatch(/^\s+at /m);
      expect(output).not.toContain(SECRET);
      expect(cpuMs).toBeGreaterThan(0);
      expect(cpuMs).toBeLessThan(10_000);
      expect(ms).toBeLessThan(45_000); // before the fix: minutes, then an out-of-memory abort
      expect(maxRss).toBeGreaterThan(0);
      expect(maxRss).toBeLessThan(500 * 1024 * 1024);
    },
    60_000,
  );

  it('nothing outside specs/ reached generated/', async () => {
    const { readdir } = await import('node:fs/promises');
    const bundled = join(dir, 'generated', 'bundled');
    for (const name of await readdir(bundled)) expect(await readFile(join(bundled, name), 'utf8')).not.toContain(SECRET);
    expect(connections).toBe(0);
    expect(dirname(bundled)).toBe(join(dir, 'generated'));
  });
});
