import type { NextFunction, Request, Response } from 'express';
import { countRateLimitRefusal } from '../lib/metrics';
import { problem } from '../lib/problem';
import type { TenantTurns } from '../lib/tenant-turns';

/**
 * Takes the request's turn among its tenant's requests in progress (lib/tenant-turns.ts,
 * docs/limits.md) on every route that resolved a credential: the tenant is the workspace, or the
 * credential where none is resolved. Past the line's bounds, 429 `rate_limited` with `Retry-After: 1`.
 * A request whose client left while it waited is dropped without being handled.
 */
export function tenantTurns(turns: TenantTurns) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const { auth } = req;
    const tenant = auth.workspaceId ?? auth.apiKey?.id ?? auth.session?.id;
    if (!tenant) return next();
    const turn = await turns.take(tenant);
    if (!turn.ok) {
      countRateLimitRefusal('tenant_concurrency');
      return next(
        problem('rate_limited', 'Too many requests of this workspace in progress; try again shortly', {
          retryAfterSeconds: 1,
        }),
      );
    }
    if (res.writableEnded || req.socket.destroyed) return turn.end();
    res.once('finish', turn.end);
    res.once('close', turn.end);
    next();
  };
}
