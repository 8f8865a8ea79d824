/**
 * Bursts of work that someone is waiting on right now (a crowd joining a live event), which background
 * work (webhook deliveries) makes room for. The bursty side reports each unit with `note()`; the
 * background side asks `busy()` (and `sinceBusy()`, to catch up gently after) and meanwhile runs with
 * less concurrency. It never stops: it only takes longer, so nothing it owes is starved however long
 * the burst lasts.
 */
export class ForegroundLoad {
  #bucket = 0;
  #count = 0;
  #previous = 0;
  #lastBusyAt = Number.NEGATIVE_INFINITY;

  /**
   * Busy while `threshold` units were noted within the current and the previous `windowMs` (about
   * 32 joins a second by default: a meeting filling up is not a burst, a broadcast's audience is).
   */
  constructor(
    private readonly threshold = 16,
    private readonly windowMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `units` of burst work just arrived (a join is one). */
  note(units = 1): void {
    this.#roll();
    this.#count += units;
    if (this.#overThreshold()) this.#lastBusyAt = this.now();
  }

  /** Milliseconds since the process was last busy (Infinity if it never was). */
  sinceBusy(): number {
    return this.now() - this.#lastBusyAt;
  }

  busy(): boolean {
    this.#roll();
    return this.#overThreshold();
  }

  #overThreshold(): boolean {
    return this.#count + this.#previous >= this.threshold;
  }

  #roll(): void {
    const bucket = Math.floor(this.now() / this.windowMs);
    if (bucket === this.#bucket) return;
    this.#previous = bucket === this.#bucket + 1 ? this.#count : 0;
    this.#count = 0;
    this.#bucket = bucket;
  }
}
