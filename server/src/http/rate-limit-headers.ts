import type { Response } from 'express';
import type { RateLimitState } from '../lib/rate-limit-state';

/**
 * The IETF rate-limit header fields (draft-ietf-httpapi-ratelimit-headers): the window's quota, what is
 * left of it, the seconds until it starts over, and the policy (`<quota>;w=<window seconds>`).
 */
export function setRateLimitHeaders(res: Response, state: RateLimitState): void {
  res.setHeader('RateLimit-Limit', String(state.limit));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(Math.max(0, state.resetSeconds)));
  res.setHeader('RateLimit-Policy', `${state.limit};w=${state.windowSeconds}`);
}
