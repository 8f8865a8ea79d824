import { createRequire } from 'node:module';
import path from 'node:path';
import { errorCodes, errorStatus } from '@gathercast/contract';
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
  // Problem `type` URIs ({PUBLIC_BASE_URL}/docs/errors/<code>) resolve to a short explanation.
  router.get('/docs/errors/:code', (req, res) => {
    const code = req.params.code as (typeof errorCodes)[number];
    if (!errorCodes.includes(code)) {
      res.status(404).type('text/plain').send('Unknown error code');
      return;
    }
    res.type('html').send(errorPage(code, errorStatus[code]));
  });
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  return router;
}

const errorMeaning: Record<(typeof errorCodes)[number], string> = {
  bad_request: 'Malformed or missing input. `errors[]` names each invalid field.',
  role_not_on_event: 'The role has no place on this event; the detail lists the accepted roles.',
  unauthorized: 'No credentials, or a key or session that matches nothing (revoked, expired, unknown).',
  invalid_credentials: 'Wrong email or password.',
  sign_in_required: 'A signed-out caller asked for a gateway token for a call (meeting, breakout, rotation).',
  forbidden: 'Authenticated, but not allowed to do this.',
  csrf_rejected: 'A cookie-authenticated write came from a foreign Origin.',
  not_found: 'The resource does not exist, or belongs to another workspace (the two are indistinguishable).',
  conflict: 'The request conflicts with the current state.',
  slug_taken: 'Another workspace already uses this slug.',
  email_taken: 'An account already uses this email.',
  event_full: 'The event has reached its registration capacity.',
  invalid_state: 'The call is not allowed in the current lifecycle state (see the event state table).',
  account_exists: 'The guest JWT email belongs to an account: sign in instead.',
  idempotency_key_reused: 'The Idempotency-Key was used with a different request body.',
  invalid_token: 'The token is unknown, expired or already used.',
  payload_too_large: 'The request body is larger than 1 MiB.',
  rate_limited: 'Too many requests; wait for Retry-After seconds.',
  internal_error: 'A bug on our side; quote the request id.',
  not_implemented: 'This route is not available yet.',
  idp_not_configured: 'Identity-provider sign-in is not configured on this server.',
  service_unavailable: 'A dependency (such as the database) is unavailable.',
};

function errorPage(code: (typeof errorCodes)[number], status: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>${code}</title></head>
<body><h1><code>${code}</code></h1><p>HTTP ${status}</p><p>${errorMeaning[code]}</p>
<p><a href="/docs">API reference</a></p></body></html>`;
}
