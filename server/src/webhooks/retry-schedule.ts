const s = 1000;
const min = 60 * s;
const h = 60 * min;

/** Delays before each retry after the first attempt: 11 attempts over about 28 h. */
export const defaultRetryScheduleMs = [5 * s, 30 * s, 2 * min, 10 * min, 30 * min, 1 * h, 2 * h, 4 * h, 8 * h, 12 * h];

/** Each delay is varied by up to ±10 % so that retries of many deliveries do not arrive in lockstep. */
export const jitterFraction = 0.1;

/**
 * The delay before the next attempt, after `attemptsMade` attempts have failed, or null when the
 * schedule is exhausted and the delivery is `failed`.
 */
export function nextRetryDelayMs(
  attemptsMade: number,
  schedule: readonly number[] = defaultRetryScheduleMs,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined || attemptsMade < 1) return null;
  const factor = 1 + jitterFraction * (2 * random() - 1);
  return Math.round(base * factor);
}
