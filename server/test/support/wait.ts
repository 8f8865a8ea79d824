import { eventBudgetMs } from './budgets';

/**
 * Polls `check` until `ok` holds or the budget runs out, and returns the last value: the caller's
 * `expect` then says what was wanted, with the value that came instead. Cross-process and
 * background effects (a delivery settling, a cache dropping) arrive asynchronously; a test waits
 * for them with this, never with a fixed sleep.
 */
export async function eventually<T>(
  check: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = eventBudgetMs,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Lets `ms` pass before a check that nothing more arrived (no second delivery, no retry): the one
 * kind of check with no event to wait for, so the one place a test waits a fixed time.
 */
export const quietFor = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
