import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { errorCodes } from '@gathercast/contract';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorDocs } from '../src/http/docs-errors';
import { guideSources } from '../src/http/docs-sources';
import { chromiumPath } from './support/chromium';
import { startTestServer, type TestServer } from './support/server';

// The docs site in a real browser (headless Chromium): every page reachable from /docs loads without
// a console error or a request leaving the server, every link between pages resolves (anchors
// included), the reference shows every operation, search finds things. Screenshots of the home page,
// a guide and the reference go to server/test-output/docs-screens/ for a person to look at.

const screensDir = path.resolve(__dirname, '../test-output/docs-screens');
const navigationTimeout = 45_000;

interface Visit {
  path: string;
  ids: Set<string>;
  /** Same-origin links: path and optional fragment. */
  links: { path: string; hash: string }[];
  problems: string[];
}

let t: TestServer;
let browser: Browser;
let page: Page;
const visits = new Map<string, Visit>();
let current: string[] = [];

beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  const executablePath = chromiumPath();
  t = await startTestServer();
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(navigationTimeout);
  page.on('console', (m) => {
    if (m.type() === 'error') current.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => current.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // ERR_ABORTED: the previous page's requests cut short by the next navigation, not a failure.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') current.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('request', (r) => {
    if (!/^(blob|data):/.test(r.url()) && !r.url().startsWith(t.url)) current.push(`request off the server: ${r.url()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) current.push(`HTTP ${r.status()} for ${r.url()}`);
  });
}, 660_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function visit(pathname: string): Promise<Visit> {
  current = [];
  await page.goto(`${t.url}${pathname}`, { waitUntil: 'load' });
  const found = await page.evaluate(() => ({
    ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
    hrefs: Array.from(document.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href),
  }));
  const links = found.hrefs
    .filter((href) => href.startsWith(t.url))
    .map((href) => {
      const u = new URL(href);
      return { path: u.pathname, hash: decodeURIComponent(u.hash.slice(1)) };
    });
  const v: Visit = { path: pathname, ids: new Set(found.ids), links, problems: current };
  visits.set(pathname, v);
  return v;
}

describe('the docs site in Chromium', () => {
  it('every page reachable from /docs loads without console errors or requests off the server', async () => {
    const queue = ['/docs'];
    const seen = new Set(queue);
    while (queue.length) {
      const next = queue.shift()!;
      if (next === '/docs/reference') continue; // its own test below: Redoc renders after load
      const v = await visit(next);
      expect(v.problems, next).toEqual([]);
      expect(await page.title(), next).toMatch(/Gathercast Docs$/);
      for (const link of v.links) {
        if (link.path.startsWith('/docs') && !link.path.startsWith('/docs/assets') && !seen.has(link.path)) {
          seen.add(link.path);
          queue.push(link.path);
        }
      }
    }
    // Reachable from the navigation: every guide and every error code has its page.
    for (const g of guideSources()) expect(seen, g.file).toContain(`/docs/guides/${g.slug}`);
    for (const code of errorCodes) expect(seen, code).toContain(`/docs/errors/${code}`);
    expect(seen).toContain('/docs/webhooks');
    await page.goto(`${t.url}/docs/guides/quickstart`, { waitUntil: 'load' });
    await page.screenshot({ path: path.join(screensDir, 'guide-quickstart.png') });
  }, 120_000);

  it('every link between pages resolves, fragments included', { timeout: 60_000 }, async () => {
    expect(visits.size).toBeGreaterThan(20);
    const broken: string[] = [];
    for (const v of visits.values()) {
      for (const link of v.links) {
        if (link.path === '/docs/reference' || link.path.startsWith('/docs/assets')) continue;
        const target = link.path === v.path ? v : visits.get(link.path);
        if (!target) {
          const res = await fetch(`${t.url}${link.path}`);
          if (res.status !== 200) broken.push(`${v.path} → ${link.path} (${res.status})`);
          continue;
        }
        if (link.hash && !target.ids.has(link.hash)) broken.push(`${v.path} → ${link.path}#${link.hash} (no such id)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the home page shows the way in, and search finds a guide section, an error code and an operation', async () => {
    await visit('/docs');
    await page.screenshot({ path: path.join(screensDir, 'home.png') });
    await page.fill('#search-input', 'idempotency');
    await page.waitForSelector('#search-results a.result[href="/docs/errors/idempotency_key_reused"]');
    const results = await page.$$eval('#search-results a.result', (as) => as.map((a) => a.getAttribute('href')));
    expect(results.some((href) => href?.startsWith('/docs/guides/events#'))).toBe(true);
    expect(results).toContain('/docs/errors/idempotency_key_reused');
    await page.fill('#search-input', 'rotate-secret');
    await page.waitForSelector('#search-results a.result[href^="/docs/reference#operation/"]');
    expect(current).toEqual([]);
  }, 90_000);

  it('the reference shows every public operation, and no dev tag', async () => {
    const spec = (await (await fetch(`${t.url}/docs/reference/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const operations = Object.values(spec.paths).flatMap((item) => Object.values(item).filter((o) => o?.operationId));
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => o.tags?.includes('dev'))).toEqual([]);

    current = [];
    await page.goto(`${t.url}/docs/reference`, { waitUntil: 'load' });
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-section-id^="operation/"]').length >= n,
      operations.length,
      { timeout: navigationTimeout },
    );
    const shown = await page.$$eval('[data-section-id^="operation/"]', (els) => els.map((e) => e.getAttribute('data-section-id')));
    for (const o of operations) expect(shown, o.operationId).toContain(`operation/${o.operationId}`);
    expect(await page.$('[data-section-id="tag/dev"]')).toBeNull();
    const first = operations[0]!.operationId!;
    await page.goto(`${t.url}/docs/reference#operation/${first}`, { waitUntil: 'load' });
    await page.waitForSelector(`[data-section-id="operation/${first}"]`);
    // Code samples: curl and the SDK, before the payload sample.
    const tabs = await page.$$eval(`[data-section-id="operation/${first}"] [role="tab"]`, (els) => els.map((e) => e.textContent?.trim()));
    expect(tabs.slice(0, 3)).toEqual(['curl', 'SDK', 'Payload']);
    await page.screenshot({ path: path.join(screensDir, 'reference.png') });
    expect(current).toEqual([]);
  }, 120_000);

  it('every error code has a written explanation', () => {
    expect(errorCodes.filter((c) => !errorDocs[c])).toEqual([]);
  });
});
