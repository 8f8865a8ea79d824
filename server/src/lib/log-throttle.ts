/**
 * At most one log line per kind every `everyMs`, for things an attacker can repeat at will (a socket
 * refused over a cap): the first occurrence is logged at once, the rest of the interval only counted,
 * and the next line carries how many were left out. Metrics count every occurrence; the log only
 * shows that it is happening.
 */
export class LogThrottle {
  readonly #kinds = new Map<string, { loggedAt: number; skipped: number }>();

  constructor(
    private readonly everyMs = 10_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Whether to log this occurrence of `kind`, and how many since the last line were not logged. */
  take(kind: string): { log: true; skipped: number } | { log: false } {
    const at = this.now();
    const seen = this.#kinds.get(kind);
    if (seen && at - seen.loggedAt < this.everyMs) {
      seen.skipped++;
      return { log: false };
    }
    this.#kinds.set(kind, { loggedAt: at, skipped: 0 });
    return { log: true, skipped: seen?.skipped ?? 0 };
  }
}
