import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const validId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (an incoming x-request-id is honoured when sane) and a child logger. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && validId.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    req.log = logger.child({ requestId: req.id });
    // The request line is logged at info; below that level there is nothing to time or write.
    if (!req.log.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Paths can carry one-time secrets (GET /v1/invites/gci_…): never log them.
      const path = req.path.replace(/\b(gc[a-z]|whsec)_[A-Za-z0-9_-]+/g, '$1_[redacted]');
      req.log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
