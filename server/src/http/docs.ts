import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';
import { favicon, siteScript } from './docs-client';
import { publicDocument, referencePage, referenceScript } from './docs-reference';
import { buildSite, type DocsSite } from './docs-site';
import { siteStyle } from './docs-style';
import { buildOpenApiDocument } from './openapi';

const require = createRequire(import.meta.url);
const redocCdnLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const redocLogo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#dc2626"/><path d="M5 4h4a2.5 2.5 0 0 1 0 5H7l3 3H8L5 9z" fill="#fff"/></svg>`;

/**
 * GET /v1/openapi.json and the docs site under /docs: home, guides, API reference (Redoc), webhook
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
  router.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(documentJson);
  });
  router.get('/docs/reference/openapi.json', (_req, res) => {
    res.type('application/json').send(publicDoc());
  });
  router.get('/docs/reference', (_req, res) => {
    res.type('html').send(referencePage());
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
    const html = siteOnce().pages.get(req.path.replace(/\/+$/, '') || '/docs');
    if (html === undefined) return next();
    res.type('html').send(html);
  });
  return router;
}
