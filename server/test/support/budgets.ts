/**
 * How long a test waits for something it expects to happen (a delivery, a message, a state).
 *
 * Waits return as soon as the thing happens, so a generous budget costs nothing on a green run; it
 * only decides how long a broken run takes to say so. The budget is sized for CI's loaded 2-core
 * machine (the suite's own processes, PostgreSQL and a CPU hog beside it), where an event that takes
 * 50 ms on a quiet laptop can take several seconds. Never use it to wait for something NOT to happen.
 */
export const eventBudgetMs = 20_000;

/** Waits until `check` holds, polling; fails naming `what` once `budgetMs` has passed. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  budgetMs = eventBudgetMs,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${budgetMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A test that repeats a race several times, or starts a server of its own inside the test. */
export const repeatedRaceBudgetMs = 120_000;
