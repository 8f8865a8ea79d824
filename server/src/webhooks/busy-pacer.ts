import type { ForegroundLoad } from '../lib/foreground';

/** How background tasks give way to a burst someone waits on (see `BusyPacer`). */
export interface PacerLimits {
  /** Tasks started per second while the process is busy. */
  busyRate: number;
  /** Tasks in flight at once for `catchUpMs` after the process was last busy. */
  catchUpConcurrency: number;
  catchUpMs: number;
}

/**
 * Paces background tasks around a burst someone waits on (a crowd joining a live event, a message fanned
 * out to a large audience):
 * - while the process is busy, tasks start at most `busyRate` a second, in arrival order;
 * - for `catchUpMs` after it was last busy, at most `catchUpConcurrency` run at once. The backlog the
 *   burst left (a join storm's `participant.joined`) then catches up at a moderate pace instead of
 *   taking the machine at the very moment the audience it just let in starts hearing the host (on
 *   2 cores, catching up at full concurrency made the first message's fan-out take up to twice as long);
 * - otherwise at once (the caller bounds concurrency).
 * Tasks never stop, so nothing is starved however long a burst lasts; they only start later.
 */
export class BusyPacer {
  readonly #waiting: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastStart = Number.NEGATIVE_INFINITY;
  #running = 0;
  readonly #gapMs: number;

  constructor(
    private readonly load: Pick<ForegroundLoad, 'busy' | 'sinceBusy'> | undefined,
    private readonly limits: PacerLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#gapMs = 1000 / limits.busyRate;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A task counts as running from the moment it is admitted (here, or by #startWaiting for a waiter).
    if (this.#waiting.length || !this.#admit()) {
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
        this.#arm();
      });
    } else this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      this.#startWaiting();
    }
  }

  /** Whether a task may start now (and, when paced, that one did). */
  #admit(): boolean {
    if (!this.load) return true;
    if (this.load.busy()) {
      const now = this.now();
      if (now - this.#lastStart < this.#gapMs) return false;
      this.#lastStart = now;
      return true;
    }
    return this.load.sinceBusy() >= this.limits.catchUpMs || this.#running < this.limits.catchUpConcurrency;
  }

  #startWaiting(): void {
    while (this.#waiting.length && this.#admit()) {
      this.#running++;
      this.#waiting.shift()!();
    }
  }

  #arm(): void {
    // The burst (or its catch-up) may end at any moment: look again at least every 50 ms.
    const wait = Math.min(50, Math.max(1, this.#lastStart + this.#gapMs - this.now()));
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#startWaiting();
      if (this.#waiting.length) this.#arm();
    }, wait);
  }
}
