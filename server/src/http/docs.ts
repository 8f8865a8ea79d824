import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { buildOpenApiDocument } from './openapi';

const require = createRequire(import.meta.url);

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Gathercast API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/reference.js"></script>
</body>
</html>`;

const boot = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true });`;

/** GET /v1/openapi.json and the reference page at GET /docs, with every asset served locally. */
export function docsRouter(): Router {
  const document = JSON.stringify(buildOpenApiDocument());
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const router = Router();
  router.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/docs/reference.js', (_req, res) => {
    res.type('application/javascript').send(boot);
  });
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  return router;
}
