import type { RequestHandler } from 'express';

const allowHeaders = 'authorization, content-type, idempotency-key, x-api-key, x-workspace-id, x-request-id';
const allowMethods = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';

/**
 * CORS for the browser origins in CORS_ORIGINS only, with credentials (the session cookie). Other
 * origins get no CORS headers, so browsers keep their responses from them; preflights end here.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.header('origin');
    if (!origin) return next();
    res.vary('Origin');
    if (!allowed.has(origin)) {
      return req.method === 'OPTIONS' && req.header('access-control-request-method') ? res.status(204).end() : next();
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', 'x-request-id, retry-after, location, idempotent-replayed, allow, www-authenticate, ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy');
    if (req.method === 'OPTIONS' && req.header('access-control-request-method')) {
      res.setHeader('Access-Control-Allow-Methods', allowMethods);
      res.setHeader('Access-Control-Allow-Headers', allowHeaders);
      res.setHeader('Access-Control-Max-Age', '600');
      return res.status(204).end();
    }
    next();
  };
}
