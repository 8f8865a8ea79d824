// How fast the docs' pages paint in headless Chromium, against a running server (GATHERCAST_URL,
// default http://localhost:3000). For each page, RUNS fresh loads (no cache): first contentful paint,
// and for the API reference's index and each of its group pages also the moment the first operation is
// on screen (the index's server-rendered list; on a group page, Redoc has rendered its document). Both
// are read from the page's own clock (milliseconds since navigation start). The group pages are found
// from the index's links, so a new group is measured without touching this file.
// Baseline, in the same run: the first group page made to load the whole public document (what the
// one-page reference rendered before the split), its document swapped in by the browser.
// Usage: GATHERCAST_URL=http://127.0.0.1:3000 RUNS=5 node bench/docs/first-paint.mjs
// Needs Chromium (CHROMIUM_PATH, else /usr/bin/chromium) and the server's playwright-core.
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../server/package.json'));
const { chromium } = require('playwright-core');

const base = (process.env.GATHERCAST_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const runs = Number(process.env.RUNS ?? 5);
const index = '/docs/reference';
const indexHtml = await (await fetch(`${base}${index}`)).text();
const groupPages = [...new Set([...indexHtml.matchAll(/<h2 id="[^"]+"><a href="(\/docs\/reference\/[^"#]+)">/g)].map((m) => m[1]))];
if (!groupPages.length) throw new Error(`no group pages linked from ${base}${index}`);
const baseline = `${groupPages[0]} (baseline: whole document)`;
const wholeDocument = await (await fetch(`${base}${index}/openapi.json`)).text();
const pages = ['/docs', '/docs/guides/quickstart', index, ...groupPages, baseline];
/** What "an operation on screen" is: a link in the index's list; an operation section Redoc rendered. */
const operationSelector = (p) =>
  p === index ? '.operations a' : p.startsWith(`${index}/`) ? '[data-section-id*="operation/"]' : undefined;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}, ${os.cpus().length} cores, ${runs} runs`);
for (const p of pages) {
  const fcp = [];
  const content = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    let address = p;
    if (p === baseline) {
      address = groupPages[0];
      await page.route(`${base}${address}/openapi.json`, (route) =>
        route.fulfill({ contentType: 'application/json', body: wholeDocument }),
      );
    }
    await page.goto(`${base}${address}`, { waitUntil: 'load', timeout: 120_000 });
    const selector = operationSelector(p);
    if (selector) {
      const shown = await page.waitForFunction(
        (sel) => {
          const el = document.querySelector(sel);
          return el && el.getBoundingClientRect().height > 0 ? performance.now() : false;
        },
        selector,
        { timeout: 120_000, polling: 'raf' },
      );
      content.push(await shown.jsonValue());
    }
    // The paint entry may come after `load`: wait for it (buffered), up to 30 s.
    fcp.push(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint', buffered: true });
            setTimeout(() => resolve(Number.NaN), 30_000);
          }),
      ),
    );
    await context.close();
  }
  const line = [`${p}: first contentful paint median ${median(fcp).toFixed(0)} ms (max ${Math.max(...fcp).toFixed(0)})`];
  if (content.length) line.push(`first operation on screen median ${median(content).toFixed(0)} ms (max ${Math.max(...content).toFixed(0)})`);
  console.log(line.join('; '));
}
await browser.close();
