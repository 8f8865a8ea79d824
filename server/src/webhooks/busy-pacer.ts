/**
 * Paces background tasks while the process serves a burst someone waits on: while `busy()`, tasks start
 * at most `perSecond` a second, in arrival order; otherwise at once (the caller bounds concurrency).
 * They never stop, so nothing is starved however long the burst lasts; they only start later.
 */
export class BusyPacer {
  readonly #waiting: (() => void)[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastStart = Number.NEGATIVE_INFINITY;
  readonly #gapMs: number;

  constructor(
    private readonly busy: () => boolean,
    perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#gapMs = 1000 / perSecond;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#waiting.length || !this.#admit()) {
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
        this.#arm();
      });
    }
    return task();
  }

  /** Whether a task may start now (and, when paced, that one did). */
  #admit(): boolean {
    if (!this.busy()) return true;
    const now = this.now();
    if (now - this.#lastStart < this.#gapMs) return false;
    this.#lastStart = now;
    return true;
  }

  #arm(): void {
    // The burst may end at any moment: look again at least every 50 ms.
    const wait = Math.min(50, Math.max(1, this.#lastStart + this.#gapMs - this.now()));
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      while (this.#waiting.length && this.#admit()) this.#waiting.shift()!();
      if (this.#waiting.length) this.#arm();
    }, wait);
  }
}
