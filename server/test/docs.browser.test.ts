import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { errorCodes } from '@gathercast/contract';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorDocs } from '../src/docs/errors';
import { guideSources } from '../src/docs/sources';
import { chromiumPath } from './support/chromium';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

// The docs site in a real browser (headless Chromium): every page reachable from /docs loads without
// a console error or a request leaving the server, every link between pages resolves (anchors
// included), the reference's index links into its group pages and a group page shows every operation
// of its document, old one-page anchors are forwarded, search finds things. Screenshots of the home
// page, a guide and a reference group go to server/test-output/docs-screens/ for a person to look at.
// One browser for the whole file; the crawl uses a few tabs at once and visits the reference's index
// (server-rendered) but not its group pages (Redoc: their own test), and one group page loads in its
// own tab while the crawl runs.

const screensDir = path.resolve(__dirname, '../test-output/docs-screens');
const navigationTimeout = 90_000; // generous: the machine may be loaded
const crawlTabs = 2;
const referenceGroup = '/docs/reference/events'; // the largest part: the one the reference test renders
/** Redoc pages (the reference's group pages) and assets: not crawled. */
const notCrawled = (path: string) => path.startsWith('/docs/reference/') || path.startsWith('/docs/assets');

interface Visit {
  path: string;
  ids: Set<string>;
  /** Same-origin links: path and optional fragment. */
  links: { path: string; hash: string }[];
  problems: string[];
}

/** A tab and what went wrong in it since its last navigation. */
interface Tab {
  page: Page;
  problems: string[];
}

let t: TestServer;
let browser: Browser;
let tab: Tab;
let referenceTab: Tab;
let referenceLoaded: Promise<unknown>;
const visits = new Map<string, Visit>();

async function openTab(): Promise<Tab> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(navigationTimeout);
  const opened: Tab = { page, problems: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') opened.problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => opened.problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // ERR_ABORTED: the previous page's requests cut short by the next navigation, not a failure.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED')
      opened.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('request', (r) => {
    if (!/^(blob|data):/.test(r.url()) && !r.url().startsWith(t.url))
      opened.problems.push(`request off the server: ${r.url()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) opened.problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  return opened;
}

useTestServer({}, (started) => {
  t = started;
});

beforeAll(async () => {
  mkdirSync(screensDir, { recursive: true });
  const executablePath = await chromiumPath();
  browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  tab = await openTab();
  referenceTab = await openTab();
  referenceLoaded = referenceTab.page.goto(`${t.url}${referenceGroup}`, { waitUntil: 'load' });
  referenceLoaded.catch(() => {}); // awaited (and reported) by the reference test
}, 660_000);

// Registered after the server's hooks: the browser closes before the server does.
afterAll(() => browser?.close());

async function visit(pathname: string, on: Tab = tab): Promise<Visit> {
  on.problems = [];
  await on.page.goto(`${t.url}${pathname}`, { waitUntil: 'load' });
  const found = await on.page.evaluate(() => ({
    ids: Array.from(document.querySelectorAll('[id]'), (e) => e.id),
    hrefs: Array.from(document.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href),
    title: document.title,
  }));
  const links = found.hrefs
    .filter((href) => href.startsWith(t.url))
    .map((href) => {
      const u = new URL(href);
      return { path: u.pathname, hash: decodeURIComponent(u.hash.slice(1)) };
    });
  if (!/Gathercast Docs$/.test(found.title)) on.problems.push(`title: ${found.title}`);
  const v: Visit = { path: pathname, ids: new Set(found.ids), links, problems: on.problems };
  visits.set(pathname, v);
  return v;
}

describe('the docs site in Chromium', () => {
  it('every page reachable from /docs loads without console errors or requests off the server', async () => {
    const started = Date.now();
    const queue = ['/docs'];
    const seen = new Set(queue);
    const failures: string[] = [];
    const crawl = async (on: Tab) => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const v = await visit(next, on);
        failures.push(...v.problems.map((p) => `${next}: ${p}`));
        for (const link of v.links) {
          if (link.path.startsWith('/docs') && !notCrawled(link.path) && !seen.has(link.path)) {
            seen.add(link.path);
            queue.push(link.path);
          }
        }
      }
    };
    const tabs = [tab, ...(await Promise.all(Array.from({ length: crawlTabs - 1 }, openTab)))];
    // The tabs share the queue. A tab may find it empty while another is still loading a page that adds
    // to it (at first only /docs is queued): go round until every tab ends on an empty queue.
    while (queue.length) await Promise.all(tabs.map(crawl));
    await Promise.all(tabs.slice(1).map((other) => other.page.close()));
    console.log(
      `crawled ${visits.size} pages in ${((Date.now() - started) / 1000).toFixed(1)} s with ${crawlTabs} tabs`,
    );
    expect(failures).toEqual([]);
    // Reachable from the navigation: every guide and every error code has its page.
    for (const g of guideSources()) expect(seen, g.file).toContain(`/docs/guides/${g.slug}`);
    for (const code of errorCodes) expect(seen, code).toContain(`/docs/errors/${code}`);
    expect(seen).toContain('/docs/webhooks');
    expect(seen).toContain('/docs/reference');
    await tab.page.goto(`${t.url}/docs/guides/quickstart`, { waitUntil: 'load' });
    await tab.page.screenshot({ path: path.join(screensDir, 'guide-quickstart.png') });
  }, 300_000);

  it('every link between pages resolves, fragments included', { timeout: 60_000 }, async () => {
    expect(visits.size).toBeGreaterThan(20);
    const broken: string[] = [];
    const statuses = new Map<string, Promise<number>>(); // pages outside the crawl, fetched once each
    for (const v of visits.values()) {
      for (const link of v.links) {
        if (link.path.startsWith('/docs/assets')) continue;
        const target = link.path === v.path ? v : visits.get(link.path);
        if (!target) {
          if (!statuses.has(link.path)) {
            statuses.set(
              link.path,
              fetch(`${t.url}${link.path}`).then(async (r) => {
                await r.arrayBuffer();
                return r.status;
              }),
            );
          }
          const status = await statuses.get(link.path)!;
          if (status !== 200) broken.push(`${v.path} → ${link.path} (${status})`);
          continue;
        }
        if (link.hash && !target.ids.has(link.hash) && !notCrawled(link.path))
          broken.push(`${v.path} → ${link.path}#${link.hash} (no such id)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the home page shows the way in, and search finds a guide section, an error code and an operation', async () => {
    const { page } = tab;
    await visit('/docs');
    await page.screenshot({ path: path.join(screensDir, 'home.png') });
    await page.fill('#search-input', 'idempotency');
    await page.waitForSelector('#search-results a.result[href="/docs/errors/idempotency_key_reused"]');
    const results = await page.$$eval('#search-results a.result', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(results.some((href) => href?.startsWith('/docs/guides/events#'))).toBe(true);
    expect(results).toContain('/docs/errors/idempotency_key_reused');
    await page.fill('#search-input', 'rotate-secret');
    await page.waitForSelector('#search-results a.result[href^="/docs/reference/integrations#operation/"]');
    expect(tab.problems).toEqual([]);
  }, 180_000);

  it('search snippets read as the page does (no entities, no code-block labels), and "registrants" finds registration', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/docs`);
    for (const query of ['registrants', 'quick start sdk', "event's"]) {
      await page.fill('#search-input', query);
      await page.waitForSelector('#search-results a.result .result-text');
      const snippets = await page.$$eval('#search-results a.result .result-text', (spans) =>
        spans.map((s) => s.textContent ?? ''),
      );
      for (const text of snippets) {
        expect(text, query).not.toMatch(/&(#x?[0-9a-f]+|amp|quot|lt|gt);/i);
        expect(text, query).not.toMatch(/\b(ts|sh|json|http|text)Copy\b|\bCopy(import|const|curl)\b/);
      }
      if (query === 'registrants') expect(snippets.some((text) => /registration/i.test(text))).toBe(true);
    }
    await page.close();
  }, 120_000);

  it('a /docs address that is no page answers a 404 page with the site navigation; API clients still get problem+json', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${t.url}/docs/no-such-page`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()['content-type']).toContain('text/html');
    expect((await page.textContent('h1'))?.trim()).toBe('Page not found');
    expect(await page.$('.nav-group a[href="/docs/reference"]')).not.toBeNull();
    await page.close();
    const api = await fetch(`${t.url}/docs/no-such-page`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/problem+json');
  }, 120_000);

  it('a reference group page shows every operation of its document, and no dev tag', async () => {
    const whole = (await (await fetch(`${t.url}/docs/reference/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const all = Object.values(whole.paths).flatMap((item) =>
      Object.values(item).filter((o) => o?.operationId),
    );
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((o) => o.tags?.includes('dev'))).toEqual([]);
    const spec = (await (await fetch(`${t.url}${referenceGroup}/openapi.json`)).json()) as typeof whole;
    const operations = Object.values(spec.paths).flatMap((item) =>
      Object.values(item).filter((o) => o?.operationId),
    );
    expect(operations.length).toBeGreaterThan(10);

    const { page } = referenceTab; // loading since the file started (beforeAll)
    await referenceLoaded;
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-section-id*="operation/"]').length >= n,
      operations.length,
      { timeout: navigationTimeout },
    );
    const shown = await page.$$eval('[data-section-id*="operation/"]', (els) =>
      els.map((e) => e.getAttribute('data-section-id')),
    );
    for (const o of operations)
      expect(
        shown.some((id) => id?.endsWith(`operation/${o.operationId}`)),
        o.operationId,
      ).toBe(true);
    expect(await page.$('.topbar')).not.toBeNull();
    expect(await page.$('.reference-parts a[href="/docs/reference"]')).not.toBeNull();
    // A link from the one-page reference lands on the operation (one with a body), in its group page.
    const first = (operations.find((o) => 'requestBody' in o) ?? operations[0])!.operationId!; // has a payload
    await page.goto(`${t.url}/docs/reference#operation/${first}`, { waitUntil: 'load' });
    await page.waitForURL(`${t.url}${referenceGroup}#operation/${first}`);
    const section = `[data-section-id$="operation/${first}"]`;
    await page.waitForSelector(section);
    // Code samples: curl and the SDK, before the payload sample.
    const tabs = await page.$$eval(`${section} [role="tab"]`, (els) => els.map((e) => e.textContent?.trim()));
    expect(tabs.slice(0, 3)).toEqual(['curl', 'SDK', 'Payload']);
    await page.screenshot({ path: path.join(screensDir, 'reference.png') });
    expect(referenceTab.problems).toEqual([]);
  }, 180_000);

  it('every error code has a written explanation', () => {
    expect(errorCodes.filter((c) => !errorDocs[c])).toEqual([]);
  });
});
