import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';
import { favicon, siteScript } from './client';
import { publicDocument, referenceScript } from './reference';
import { buildSite, type DocsSite } from './site';
import { siteStyle } from './style';
import { buildOpenApiDocument } from './openapi';

const require = createRequire(import.meta.url);
const redocCdnLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const redocLogo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#dc2626"/><path d="M5 4h4a2.5 2.5 0 0 1 0 5H7l3 3H8L5 9z" fill="#fff"/></svg>`;

/**
 * What the docs pages may load: scripts only from this server's files (no inline script, no eval), so
 * injected markup cannot run; styles from this server plus inline ones, because Redoc writes its styles
 * into the page at run time and pages use style attributes (styles cannot run code); Redoc's search
 * runs in a blob: worker. Nothing may frame the docs, and no form posts off the server.
 */
export const docsContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /v1/openapi.json and the docs site under /docs: home, guides, API reference (an index and one
 * Redoc page per tag group, each over its own document; the whole public document stays at
 * /docs/reference/openapi.json), webhook
 * catalog, one page per error code (problem `type` URIs point there), search index. Everything is
 * served from this process and its packages: the site works offline. Pages are rendered on the first
 * docs request, so servers that never show the docs (tests, API-only replicas) pay nothing.
 */
export function docsRouter(errorsBase: string): Router {
  const document = buildOpenApiDocument();
  const documentJson = JSON.stringify(document);
  let publicJson: string | undefined;
  let site: DocsSite | undefined;
  const baseUrl = errorsBase.replace(/\/docs\/errors$/, '');
  const publicDoc = () => (publicJson ??= JSON.stringify(publicDocument(document, baseUrl)));
  const siteOnce = () => (site ??= buildSite(JSON.parse(publicDoc()) as Record<string, unknown>, errorsBase));
  let redocBundle: string | undefined;
  // Redoc's attribution loads its logo from a CDN; the site is offline, so the bundle points at a local copy.
  const redoc = () =>
    (redocBundle ??= readFileSync(
      path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js'),
      'utf8',
    ).replaceAll(redocCdnLogo, '/docs/assets/redoc-logo.svg'));

  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', docsContentSecurityPolicy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(documentJson);
  });
  router.get('/docs/reference/openapi.json', (_req, res) => {
    res.type('application/json').send(publicDoc());
  });
  router.get('/docs/reference/:group/openapi.json', (req, res, next) => {
    const json = siteOnce().referenceDocuments.get(req.params.group);
    if (json === undefined) return next();
    res.type('application/json').send(json);
  });
  router.get('/docs/search-index.json', (_req, res) => {
    res.json(siteOnce().searchIndex);
  });
  router.get('/docs/quickstart', (_req, res) => res.redirect(301, '/docs/guides/quickstart'));
  router.get('/docs/assets/site.css', (_req, res) => {
    res.type('text/css').set('cache-control', 'public, max-age=300').send(siteStyle);
  });
  router.get('/docs/assets/site.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'public, max-age=300').send(siteScript);
  });
  router.get('/docs/assets/reference.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'public, max-age=300').send(referenceScript);
  });
  router.get('/docs/assets/reference-index.js', (_req, res) => {
    res
      .type('application/javascript')
      .set('cache-control', 'public, max-age=300')
      .send(siteOnce().referenceIndexScript);
  });
  router.get('/docs/assets/favicon.svg', (_req, res) => {
    res.type('image/svg+xml').set('cache-control', 'public, max-age=86400').send(favicon);
  });
  router.get('/docs/assets/redoc.standalone.js', (_req, res) => {
    res.type('application/javascript').set('cache-control', 'public, max-age=86400').send(redoc());
  });
  router.get('/docs/assets/redoc-logo.svg', (_req, res) => {
    res.type('image/svg+xml').set('cache-control', 'public, max-age=86400').send(redocLogo);
  });
  router.get(/^\/docs(\/.*)?$/, (req, res, next) => {
    const site = siteOnce();
    const html = site.pages.get(req.path.replace(/\/+$/, '') || '/docs');
    if (html !== undefined) return res.type('html').send(html);
    // A browser gets a page with the site's navigation; API clients get the usual problem+json 404.
    if (req.accepts(['json', 'html']) === 'html') return res.status(404).type('html').send(site.notFoundPage);
    next();
  });
  return router;
}
