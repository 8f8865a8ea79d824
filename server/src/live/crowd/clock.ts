/**
 * The time the crowd aggregator runs on. Injectable so tests drive the intervals by hand (a small
 * audience's frames per viewer stay bounded while its counts stay exact) without waiting on timers.
 */
export interface CrowdClock {
  now(): number;
  /** Runs `fn` once after `ms`; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: CrowdClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
