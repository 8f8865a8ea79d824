import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Walks over sets (a room's sockets), done one after another in the order they were asked for, a
 * large one a slice at a time with the event loop turning between slices. Delivering one message to
 * 10,000 sockets holds the loop for about a tenth of a second: done in one go, every other request of
 * the process (a health check, another event's message) waits for all of it; in slices of `sliceMs` (25)
 * it waits for one slice at most. A slice is timed, not counted: a large frame costs more per socket
 * than a small one, and every extra turn lets other work in before the walk ends (a host's next line
 * waits for it). Order is kept: a walk asked for while an earlier one is still in
 * slices waits for it, however small, so each socket still gets a room's messages in order. A walk
 * over at most `atOnce` items (1000) with none waiting runs at once (a meeting's delivery is unchanged).
 *
 * The set is walked live: an item added while a walk is in slices is visited by it too (a socket that
 * joined meanwhile; the caller skips what it already has), one removed is not.
 */
export class OrderedSlices<T> {
  readonly #waiting: { items: ReadonlySet<T>; visit: (item: T) => void }[] = [];
  #walking = false;

  readonly #atOnce: number;
  readonly #sliceMs: number;
  readonly #checkEvery: number;
  readonly #now: () => number;

  constructor(
    private readonly onError: (err: unknown) => void,
    options: { atOnce?: number; sliceMs?: number; checkEvery?: number; now?: () => number } = {},
  ) {
    this.#atOnce = options.atOnce ?? 1000;
    this.#sliceMs = options.sliceMs ?? 25;
    // The clock is read every `checkEvery` visits: a visit is microseconds.
    this.#checkEvery = options.checkEvery ?? 64;
    this.#now = options.now ?? (() => performance.now());
  }

  walk(items: ReadonlySet<T>, visit: (item: T) => void): void {
    if (!this.#walking && items.size <= this.#atOnce) {
      for (const item of items) this.#visit(visit, item);
      return;
    }
    this.#waiting.push({ items, visit });
    if (!this.#walking) void this.#walkAll();
  }

  async #walkAll(): Promise<void> {
    this.#walking = true;
    try {
      let sliceStart = this.#now();
      for (let job = this.#waiting.shift(); job; job = this.#waiting.shift()) {
        let n = 0;
        for (const item of job.items) {
          this.#visit(job.visit, item);
          if (++n % this.#checkEvery === 0 && this.#now() - sliceStart >= this.#sliceMs) {
            await nextTurn();
            sliceStart = this.#now();
          }
        }
      }
    } finally {
      this.#walking = false;
    }
  }

  #visit(visit: (item: T) => void, item: T): void {
    try {
      visit(item);
    } catch (err) {
      this.onError(err);
    }
  }
}
