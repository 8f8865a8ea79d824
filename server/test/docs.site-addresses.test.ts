import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { guideSources } from '../src/docs/sources';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

// The docs as a reader of one server meets them: the guides address that server, the reference reads
// in people's words with the site's grouping, and nothing on the reference page blocks its first paint.
// (How long that paint takes is measured by bench/docs, not here: timings do not belong in tests.)

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

const html = async (path: string) => (await fetch(`${t.url}${path}`)).text();

describe('addresses in the docs', () => {
  it('the guides’ Markdown addresses the API where `pnpm start` listens by default', () => {
    const port = loadConfig({}).port;
    // The deployment guide addresses a container, which listens where its image says.
    for (const g of guideSources().filter((g) => g.file !== 'docs/deploy.md')) {
      for (const m of g.markdown.matchAll(/localhost:(\d+)(\/v1|\/readyz|\/docs)/g)) {
        expect(Number(m[1]), `${g.file}: ${m[0]}`).toBe(port);
      }
    }
  });

  it('the served guides and home page show this server’s address instead', async () => {
    const problem = (await (await fetch(`${t.url}/v1/events/nope`)).json()) as { type: string };
    const base = problem.type.replace(/\/docs\/errors\/.*$/, '');
    for (const path of ['/docs', '/docs/guides/quickstart', '/docs/guides/embed']) {
      const page = await html(path);
      expect(page, path).not.toContain('localhost:3000');
      expect(page, path).toContain(base);
    }
  });
});

describe('the API reference page', () => {
  it('shows every tag by a human name, in navigation groups that cover every tag', async () => {
    const doc = (await (await fetch(`${t.url}/docs/reference/openapi.json`)).json()) as {
      tags: { name: string; 'x-displayName'?: string }[];
      'x-tagGroups': { name: string; tags: string[] }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const tag of doc.tags) {
      // Capitalised words, not an identifier: `API keys`, not `apiKeys`.
      expect(tag['x-displayName'], tag.name).toMatch(/^[A-Z][A-Za-z]*( [a-zA-Z-]+)*$/);
      expect(tag['x-displayName'], tag.name).not.toMatch(/[a-z][A-Z]/);
    }
    const grouped = doc['x-tagGroups'].flatMap((g) => g.tags);
    const used = new Set(
      Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((o) => o.tags ?? [])),
    );
    for (const tag of used) expect(grouped, tag).toContain(tag);
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('the index and every group page load no script that blocks the first paint and keep the site’s top bar', async () => {
    const index = await html('/docs/reference');
    const groupPages = [...index.matchAll(/<h2 id="[^"]+"><a href="(\/docs\/reference\/[^"#]+)">/g)].map(
      (m) => m[1]!,
    );
    expect(groupPages.length).toBeGreaterThan(1);
    for (const path of ['/docs/reference', ...groupPages]) {
      const page = await html(path);
      const scripts = [...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const s of scripts) expect(s, path).toMatch(/\bdefer\b|\basync\b/);
      expect(page, path).toMatch(/class="topbar"/);
      const styles = [...page.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)];
      expect(styles.length, path).toBeLessThanOrEqual(1);
    }
  });
});

describe('the API reference in parts', () => {
  type Doc = {
    'x-tagGroups': { name: string; tags: string[] }[];
    paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  };
  const operationIds = (doc: Doc) =>
    Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((o) => (o.operationId ? [o.operationId] : [])),
    );

  it('the index is a page of the site: its navigation, every group linked, every operation linked into its group', async () => {
    const whole = (await (await fetch(`${t.url}/docs/reference/openapi.json`)).json()) as Doc;
    const index = await html('/docs/reference');
    expect(index).toMatch(/class="sidebar"/);
    const groupLinks = [...index.matchAll(/<h2 id="[^"]+"><a href="(\/docs\/reference\/[^"#]+)">/g)].map(
      (m) => m[1]!,
    );
    expect(groupLinks).toHaveLength(whole['x-tagGroups'].length);
    const linked = [...index.matchAll(/href="(\/docs\/reference\/[^"#]+)#operation\/([^"]+)"/g)];
    expect(linked.map((m) => m[2]).sort()).toEqual(operationIds(whole).sort());
    for (const path of groupLinks) {
      const page = await html(path);
      expect(page, path).toContain(`data-spec="${path}/openapi.json"`);
      const part = (await (await fetch(`${t.url}${path}/openapi.json`)).json()) as Doc;
      expect(part['x-tagGroups'], path).toHaveLength(1);
      // The index links each operation to the page whose document holds it.
      const here = linked.filter((m) => m[1] === path).map((m) => m[2]);
      expect(operationIds(part).sort(), path).toEqual(here.sort());
    }
  });

  it('old one-page anchors are forwarded by a script of this server (no inline script)', async () => {
    const index = await html('/docs/reference');
    expect(index).toContain('<script src="/docs/assets/reference-index.js" defer></script>');
    const res = await fetch(`${t.url}/docs/assets/reference-index.js`);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(await res.text()).toContain('location.replace');
  });

  it('an unknown group answers 404', async () => {
    expect((await fetch(`${t.url}/docs/reference/no-such-part/openapi.json`)).status).toBe(404);
    expect(
      (await fetch(`${t.url}/docs/reference/no-such-part`, { headers: { accept: 'text/html' } })).status,
    ).toBe(404);
  });
});
