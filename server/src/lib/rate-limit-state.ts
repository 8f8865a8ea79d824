/**
 * Where a client stands in one window, for the `RateLimit-*` response headers: the window's size, the
 * hits left, and the seconds until the window starts over.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
}
