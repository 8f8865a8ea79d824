import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { observeHttpRequest } from '../lib/metrics';
import { lazyRequestProperty } from './lazy-request-property';

const validId = /^[A-Za-z0-9._:-]{1,128}$/;
/** One-time secrets a path can carry (`gci_…` invites, `whsec_…`): every such token contains `_`. */
const secretInPath = /\b(gc[a-z]|whsec)_[A-Za-z0-9_-]+/g;

/** The problem code of a refused request, set by the error renderer (`problem.ts`) for the request log. */
export function noteProblemCode(res: Response, code: string): void {
  res.locals.problemCode = code;
}

/**
 * The route template that served the request (`/v1/events/:eventId`), so metrics have one series per
 * route and never one per id; `unmatched` when no route took it (404s for unknown paths).
 */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? req.baseUrl + path : 'unmatched';
}

/**
 * `req.log`, a child logger carrying the request id, is made on first use: most requests log nothing
 * but their request line, and a child per request is measurable work and garbage on the hot path.
 */
function childLoggerOnFirstUse(app: Express, logger: Logger): void {
  lazyRequestProperty(app, 'log', (req) => logger.child({ requestId: req.id }));
}

/**
 * Gives every request an id (an incoming x-request-id is honoured when sane) and a child logger (made
 * when first used); when it finishes, records its metrics and writes the request line: the problem
 * code, the workspace and credential ids (never a secret), and the caller's address (`req.ip`, which
 * follows TRUST_PROXY).
 */
export function requestContext(app: Express, logger: Logger, metrics = true): RequestHandler {
  childLoggerOnFirstUse(app, logger);
  // The request line is built below from known fields, none of them a secret: redaction (which
  // walks and clones every line) would cost several microseconds a request and find nothing.
  const lines = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && validId.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    const logged = lines.isLevelEnabled('info');
    // Neither metrics nor the request line: nothing to time or write.
    if (!metrics && !logged) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (metrics) observeHttpRequest(req.method, routeTemplate(req), res.statusCode, seconds);
      // The request line is logged at info; below that level there is nothing more to write.
      if (!logged) return;
      // Paths can carry one-time secrets (GET /v1/invites/gci_…): never log them.
      const path = req.path.includes('_') ? req.path.replace(secretInPath, '$1_[redacted]') : req.path;
      const auth = req.auth;
      lines.info(
        {
          requestId: req.id,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(seconds * 10_000) / 10,
          ip: req.ip,
          code: res.locals.problemCode,
          workspaceId: auth?.workspaceId ?? auth?.apiKey?.workspaceId ?? auth?.session?.workspaceId ?? undefined,
          credential: auth?.apiKey
            ? { kind: 'api_key', id: auth.apiKey.id }
            : auth?.session
              ? { kind: `${auth.session.kind}_session`, id: auth.session.id }
              : auth?.platform
                ? { kind: 'platform_key' }
                : undefined,
        },
        'request',
      );
    });
    next();
  };
}
