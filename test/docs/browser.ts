// Debian's Chromium driven by playwright-core (never a browser download), with every
// request that is not to the local docs server blocked and counted.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

// CHROMIUM_PATH, when set, is the only candidate (so a wrong value is noticed, not
// silently replaced by another browser).
const CANDIDATES = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const CHROMIUM = CANDIDATES.find((path) => existsSync(path));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // All pages are open at once in tabs of one window: keep the background ones running
  // at full speed (timers, rendering), or every click on them waits for throttled frames.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/** What the pages did: requests that left (or tried to leave) the machine, and errors. */
export interface Traffic {
  outbound: string[];
  local: number;
  errors: string[];
}

export interface Browser {
  context: BrowserContext;
  traffic: Traffic;
  /** A new tab whose console errors and page errors land in traffic.errors. */
  open(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * `localOrigin` (the docs server) is the only origin pages may reach; `localFiles`, a
 * file:// folder URL, is where pages opened from disk may read.
 */
export async function launch(executablePath: string, localOrigin: string, localFiles?: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
  });
  const traffic: Traffic = { outbound: [], local: 0, errors: [] };
  const isLocal = (url: string) => url.startsWith(localOrigin) || (!!localFiles && url.startsWith(localFiles)) || /^(data|blob|about):/.test(url);
  // Route interception sees every HTTP(S) request of every tab, including beacons.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocal(url)) {
      traffic.local += 1;
      return route.continue();
    }
    traffic.outbound.push(`${route.request().method()} ${url}`);
    return route.abort('blockedbyclient');
  });

  return {
    context,
    traffic,
    async open() {
      const page = await context.newPage();
      page.on('websocket', (socket) => traffic.outbound.push(`WS ${socket.url()}`));
      page.on('console', (message) => {
        if (message.type() === 'error') traffic.errors.push(`console: ${message.text()} (${page.url()})`);
      });
      page.on('pageerror', (error) => traffic.errors.push(`pageerror: ${error.message} (${page.url()})`));
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
