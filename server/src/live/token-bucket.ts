/** A token bucket: up to `burst` at once, refilled at `perSecond`. */
export class TokenBucket {
  #tokens: number;
  #refilledAt = Date.now();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {
    this.#tokens = burst;
  }

  /** Takes one token; false when there is none left. */
  take(now = Date.now()): boolean {
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#refilledAt) / 1000) * this.perSecond);
    this.#refilledAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
