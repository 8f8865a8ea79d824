import { RateLimiterMemory } from 'rate-limiter-flexible';

/**
 * The local policy while the shared Redis cannot be reached (docs/deploy.md, "When Redis is down"):
 * each process counts in its own memory, with the same points and window as the shared limit, and
 * goes back to the shared counters as soon as Redis answers again. During an outage a client spread
 * over N processes can therefore get up to N times the limit; a request is never refused, nor
 * answered 500, because the counters are away.
 */
export function localFallbackLimiter(limit: { keyPrefix: string; points: number; durationSeconds: number }) {
  return new RateLimiterMemory({
    keyPrefix: limit.keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
  });
}

/**
 * The shared counters' Redis client settings: a command fails at once while the connection is down
 * (no offline queue) or after `commandTimeoutMs` on a hung server, so the local policy answers instead.
 */
export const sharedCounterRedisOptions = {
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  commandTimeout: 500,
  enableAutoPipelining: true,
} as const;
