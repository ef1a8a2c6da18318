// The Arazzo scenarios in specs/scenarios/: found, linted, and run with `redocly respect`
// against any server (the mock in `npm test`, a real service in `npm run verify`).
//
// Respect runs as a child process (the CLI is a bundle; its engine is not exported), with
// a JSON report in a private temp folder that is read back and deleted. The token travels
// in the child's environment only (SCENARIO_TOKEN, read by the documents as
// `$inputs.env.SCENARIO_TOKEN`, a `format: password` input Respect masks); it is never an
// argument, and every text that leaves this module has it redacted once more.
//
// The workspace is passed in (`root`, the folder of redocly.yaml), and so is the build's
// guard over untrusted specs (pipeline/trust.mjs): the pipeline sits above this room.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { getLineColLocation, lint, loadConfig } from '@redocly/openapi-core';
import { parse } from 'yaml';
import { loadApis } from '../model/apis.mjs';
import { finding } from '../lib/findings.mjs';
import { QUIET_ENV } from '../lib/run.mjs';
import { basePathOf } from '../model/servers.mjs';

/** @typedef {ReturnType<typeof finding>} Finding */
/**
 * What the build refuses in a spec before a tool reads it, handed in by the caller
 * (pipeline/trust.mjs's `checkTree` and `guardedRedoclyResolver`).
 * @typedef {object} SpecGuard
 * @property {(rootFile: string, root: string) => { blocking: Finding[], content: Finding[] }} checkTree
 * @property {(config: any, root: string) => Promise<import('@redocly/openapi-core').BaseResolver>} guardedRedoclyResolver
 */
/** @typedef {{ workflowId: string, stepId: string, ran: true, method: string, url: string, status: number, passed: boolean, problems: string[] }} RanStep */
/** @typedef {RanStep | { workflowId: string, stepId: string, ran: false, reason: 'ended' | 'failed-before' }} StepResult */
/** @typedef {{ file: string, workflowId: string, passed: boolean, steps: StepResult[] }} WorkflowResult */

/** The one environment variable the documents read the token from. */
export const TOKEN_VARIABLE = 'SCENARIO_TOKEN';
const CLI = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

/**
 * Every `*.arazzo.yaml` under the workspace's specs/scenarios/, sorted: no list to keep in step.
 * @param {string} root the workspace
 */
export function scenarioFiles(root) {
  const dir = join(root, 'specs', 'scenarios');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort()
    .map((name) => join(dir, name));
}

/** @type {(file: string) => any} */
export const readScenario = (file) => parse(readFileSync(file, 'utf8'));

/**
 * Lints the Arazzo documents with Redocly's engine and the rules of the workspace's
 * redocly.yaml (its Arazzo rules; the OpenAPI-only tools never see these files). Findings
 * as lint prints them.
 * @param {{ root: string, guard: SpecGuard, files?: string[] }} options
 * @returns {Promise<Finding[]>}
 */
export async function lintScenarios({ root, guard, files = scenarioFiles(root) }) {
  const config = await loadConfig({ configPath: join(root, 'redocly.yaml') });
  const perFile = await Promise.all(
    files.map(async (file) => {
      // An Arazzo document is a spec too: its $refs and sourceDescriptions are checked
      // (pipeline/trust.mjs) before Redocly reads it, and Redocly's resolver refuses the same.
      const { blocking, content } = guard.checkTree(file, root);
      if (blocking.length) return [...blocking, ...content];
      try {
        const externalRefResolver = await guard.guardedRedoclyResolver(config.resolve, root);
        const problems = await lint({ ref: file, config, externalRefResolver });
        return [
          ...content,
          // (Redocly reports no problem of a rule that is off.)
          ...problems.map((p) => {
            const at = p.location[0] ? getLineColLocation(p.location[0]) : undefined;
            const severity = p.severity === 'warn' ? 'warning' : p.severity;
            return finding('redocly', at?.source.absoluteRef ?? file, at?.start.line ?? 1, at?.start.col ?? 1, severity, p.ruleId ?? 'arazzo', p.message, root);
          }),
        ];
      } catch (error) {
        return [finding('redocly', file, 1, 1, 'error', 'tool-error', error?.message?.split('\n')[0] ?? String(error), root)];
      }
    }),
  );
  return perFile.flat();
}

/** Workflows another workflow reaches by `goto` or a step's `workflowId`: helpers, not entries. */
function reachedWorkflows(document) {
  const reached = new Set();
  for (const workflow of document.workflows ?? []) {
    for (const step of workflow.steps ?? []) {
      const actions = [...(step.onSuccess ?? []), ...(step.onFailure ?? [])];
      for (const target of [step.workflowId, ...actions.map((a) => a.workflowId)]) {
        if (typeof target === 'string' && target !== workflow.workflowId) reached.add(target);
      }
    }
  }
  return reached;
}

/**
 * The workflows a run starts, per file: every workflow no other workflow reaches.
 * @param {string[]} files
 * @returns {{ file: string, workflow: any }[]}
 */
export function entryWorkflows(files) {
  return files.flatMap((file) => {
    const document = readScenario(file);
    const reached = reachedWorkflows(document);
    return (document.workflows ?? []).filter((w) => !reached.has(w.workflowId)).map((w) => ({ file, workflow: w }));
  });
}

/**
 * The server URL of each source description for a base URL: the base plus the document's
 * own prefix (`/api/v2.0` for vendors), read from the bundle as the mock and the clients do.
 * @param {string} root the workspace (errors name files relative to it)
 * @param {string} baseUrl
 * @param {string[]} files
 * @returns {Record<string, string>}
 */
export function serverMap(root, baseUrl, files) {
  const base = baseUrl.replace(/\/+$/, '');
  const apis = loadApis(root);
  /** @type {Record<string, string>} */
  const servers = {};
  for (const file of files) {
    for (const source of readScenario(file).sourceDescriptions ?? []) {
      if (source.type !== 'openapi') continue;
      const document = resolve(dirname(file), source.url);
      const api = apis.find((a) => a.root === document);
      if (!api) throw new Error(`${relative(root, file)}: source ${source.name} (${source.url}) is not an API of redocly.yaml`);
      const prefix = basePathOf(parse(readFileSync(api.bundle, 'utf8')));
      if (servers[source.name] && servers[source.name] !== base + prefix) throw new Error(`source name ${source.name} names two documents`);
      servers[source.name] = base + prefix;
    }
  }
  return servers;
}

/**
 * Replaces every occurrence of the secret in a text (no-op without a secret).
 * @type {(text: unknown, secret: string | undefined) => string}
 */
export const redact = (text, secret) => (secret ? String(text).split(secret).join('********') : String(text));

/**
 * Runs the entry workflows of the given files (all of the workspace's by default) against
 * `server` and returns, per workflow, the steps in document order: each `{ stepId, method,
 * url, status, passed, problems[] }`, or `{ stepId, ran: false }` for a step a failure kept
 * from running. Steps a loop runs several times (paging) appear once per run.
 * @param {{ root: string, server: string, token?: string, inputs?: Record<string, string>, files?: string[], timeoutMs?: number, keepReportIn?: string }} options
 * @returns {Promise<WorkflowResult[]>}
 */
export async function runScenarios({ root, server, token, inputs = {}, files = scenarioFiles(root), timeoutMs = 120_000, keepReportIn }) {
  const entries = entryWorkflows(files);
  // Paging follows nextLinks on the server's own origin only (the token goes nowhere else).
  inputs = { nextLinkPattern: `${new URL(server).origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.*`, ...inputs };
  const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
  const report = join(dir, 'respect.json');
  const args = [CLI, 'respect', ...files, '-S', JSON.stringify(serverMap(root, server, files)), '-J', report, '--max-steps', '200'];
  for (const { workflow } of entries) args.push('-w', workflow.workflowId);
  if (Object.keys(inputs).length) args.push('-i', JSON.stringify(inputs));
  // A minimal environment: the user's own variables (their token among them) stay out.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...QUIET_ENV, ...(token ? { [TOKEN_VARIABLE]: token } : {}) };
  try {
    /** @type {{ code: number | null, output: string }} */
    const { code, output } = await new Promise((done) => {
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', (code) => done({ code, output }));
    });
    let json;
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      // No report: Respect stopped before running (a broken document, a bad argument).
      const lines = redact(output, token)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/[╔║╚]/.test(l));
      throw new Error(`redocly respect exited with ${code} and no report:\n  ${lines.slice(-12).join('\n  ')}`);
    }
    return JSON.parse(redact(JSON.stringify(collect(json, entries, root)), token));
  } finally {
    // keepReportIn: tests look at what Respect wrote (the token must not be in it).
    if (keepReportIn) cpSync(dir, keepReportIn, { recursive: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Respect's report (its files keyed relative to `root`, the run's folder) as the results of the entry workflows.
 * @param {any} json
 * @param {{ file: string, workflow: any }[]} entries
 * @param {string} root
 * @returns {WorkflowResult[]}
 */
function collect(json, entries, root) {
  const results = [];
  for (const { file, workflow } of entries) {
    const executed = (json.files?.[relative(root, file)] ?? json.files?.[file])?.executedWorkflows?.find((w) => w.workflowId === workflow.workflowId);
    const steps = executed ? flattenSteps(executed) : [];
    const ranIds = new Set(steps.map((s) => s.stepId));
    // A step retried by its onFailure `retry` (a wait: polling until a state is reached)
    // is judged by its last attempt; the earlier attempts stay in the list.
    const last = new Map(steps.map((s) => [s.stepId, s]));
    const passed = Boolean(executed) && executed.status !== 'error' && [...last.values()].every((s) => s.passed);
    // A step left out after a failure did not run; after success, an `end` action made it unneeded.
    const notRun = (workflow.steps ?? [])
      .filter((s) => !ranIds.has(s.stepId))
      .map((s) => ({ workflowId: workflow.workflowId, stepId: s.stepId, ran: false, reason: passed ? 'ended' : 'failed-before' }));
    results.push({ file: relative(root, file), workflowId: workflow.workflowId, passed, steps: [...steps, ...notRun] });
  }
  return results;
}

/**
 * @param {any} workflow an executed workflow of Respect's report
 * @returns {RanStep[]}
 */
function flattenSteps(workflow) {
  return (workflow.executedSteps ?? []).flatMap((step) => {
    if (Array.isArray(step.executedSteps)) return flattenSteps(step);
    const failed = (step.checks ?? []).filter((c) => !c.passed && c.severity === 'error');
    return [
      {
        workflowId: step.workflowId,
        stepId: step.stepId,
        ran: true,
        method: String(step.request?.method ?? '').toUpperCase(),
        url: step.request?.url ?? '',
        status: step.response?.statusCode ?? 0,
        passed: failed.length === 0,
        problems: failed.map((c) => describeCheck(c, step.response)),
      },
    ];
  });
}

/**
 * One line per failed check: what was expected and what came, without Respect's boilerplate.
 * @param {any} check
 * @param {{ statusCode?: number, body?: unknown }} [response]
 */
function describeCheck(check, response = {}) {
  const condition = check.condition ? String(check.condition) : '';
  if (condition) return `${check.name}: ${condition}  (got ${actualOf(condition, response)})`;
  const message = String(check.message ?? '')
    .replace(/\nThis could be because[\s\S]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `${check.name}${message ? `: ${message}` : ''}`;
}

/**
 * What the answer held where a condition looked: the status, a body field, or the body.
 * @param {string} condition
 * @param {{ statusCode?: number, body?: any }} response
 */
function actualOf(condition, { statusCode, body }) {
  if (/^\$statusCode\b/.test(condition)) return `status ${statusCode}`;
  const pointer = /^\$response\.body#(\/\S*)/.exec(condition)?.[1];
  const text = (value) => (value === undefined ? 'nothing' : JSON.stringify(value)).slice(0, 160);
  if (!pointer) return `status ${statusCode}, body ${text(body)}`;
  let value = body;
  for (const key of pointer
    .split('/')
    .slice(1)
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~')))
    value = value?.[key];
  return `${pointer} = ${text(value)}`;
}
