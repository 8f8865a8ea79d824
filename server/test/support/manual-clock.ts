import type { CrowdClock } from '../../src/live/crowd/clock';

/** A clock that moves only when the test says: timers fire in `advance`, in time order. */
export class ManualClock implements CrowdClock {
  #now = 0;
  #timers: { at: number; fn: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.#now + ms, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Moves time on by `ms`, running every timer due meanwhile. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = until;
  }
}
