import type { NextFunction, Request, Response } from 'express';
import type { ApiLimits } from '../config';
import { type RateLimit, type RateLimitStore, tightest } from '../lib/rate-limits';
import { setRateLimitHeaders } from './rate-limit-headers';

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The management API's budgets (docs/limits.md), applied to every route that resolved a credential:
 * one bucket per credential (API key or session) and one per workspace, each with a read and a write
 * budget, so no key and no tenant can take the server from the others. The counters live in the
 * shared rate-limit store (every process counts against the same buckets). Every answer carries the
 * tighter bucket's `RateLimit-*` headers; past either budget, 429 `rate_limited` with `Retry-After`.
 */
export function apiLimits(store: RateLimitStore, limits: ApiLimits) {
  const bucket = (keyPrefix: string, points: number): RateLimit =>
    store.limit({ keyPrefix, points, durationSeconds: limits.windowSeconds });
  const buckets = {
    read: {
      key: bucket('api_key_read', limits.key.read),
      workspace: bucket('api_ws_read', limits.workspace.read),
    },
    write: {
      key: bucket('api_key_write', limits.key.write),
      workspace: bucket('api_ws_write', limits.workspace.write),
    },
  };
  return async (req: Request, res: Response, next: NextFunction) => {
    const { auth } = req;
    const credential = auth.apiKey?.id ?? auth.session?.id;
    if (!credential) return next();
    const kind = readMethods.has(req.method) ? buckets.read : buckets.write;
    try {
      const states = await Promise.all([
        kind.key.consume(credential),
        ...(auth.workspaceId ? [kind.workspace.consume(auth.workspaceId)] : []),
      ]);
      setRateLimitHeaders(res, tightest(states));
      next();
    } catch (err) {
      next(err);
    }
  };
}
