import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { observeHttpRequest } from '../lib/metrics';

const validId = /^[A-Za-z0-9._:-]{1,128}$/;

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
 * Gives every request an id (an incoming x-request-id is honoured when sane) and a child logger; when it
 * finishes, records its metrics and writes the request line: the problem code, the workspace and
 * credential ids (never a secret), and the caller's address (`req.ip`, which follows TRUST_PROXY).
 */
export function requestContext(logger: Logger, metrics = true): RequestHandler {
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && validId.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    req.log = logger.child({ requestId: req.id });
    const logged = req.log.isLevelEnabled('info');
    // Neither metrics nor the request line: nothing to time or write.
    if (!metrics && !logged) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (metrics) observeHttpRequest(req.method, routeTemplate(req), res.statusCode, seconds);
      // The request line is logged at info; below that level there is nothing more to write.
      if (!logged) return;
      // Paths can carry one-time secrets (GET /v1/invites/gci_…): never log them.
      const path = req.path.replace(/\b(gc[a-z]|whsec)_[A-Za-z0-9_-]+/g, '$1_[redacted]');
      const auth = req.auth;
      req.log.info(
        {
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
