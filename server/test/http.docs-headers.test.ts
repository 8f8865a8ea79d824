import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/** The docs site's pages and assets carry a Content-Security-Policy and X-Content-Type-Options: nosniff. */
let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

describe('docs security headers', () => {
  for (const path of [
    '/docs',
    '/docs/reference',
    '/docs/reference/events',
    '/docs/reference/events/openapi.json',
    '/docs/assets/reference-index.js',
    '/docs/errors/not_found',
    '/docs/assets/site.js',
    '/v1/openapi.json',
  ]) {
    it(`${path} sends a script-tight Content-Security-Policy and nosniff`, async () => {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
    });
  }

  it('no docs page carries an inline script the policy would block', async () => {
    for (const path of ['/docs', '/docs/reference', '/docs/reference/events', '/docs/guides/quickstart']) {
      const html = await (await fetch(`${t.url}${path}`)).text();
      expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [], path).toEqual([]);
      expect(html, path).not.toMatch(/\son[a-z]+="/);
    }
  });
});
