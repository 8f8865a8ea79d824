/** PostgreSQL's codes for a transaction it aborted to break a lock cycle or a serialization conflict. */
const retryableCodes = new Set(['40P01', '40001']);

function isRetryable(err: unknown): boolean {
  let e: unknown = err;
  // The ORM may wrap the driver's error; look one level down as well.
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if ((typeof code === 'string' && retryableCodes.has(code)) || name === 'DeadlockException') return true;
    e = (e as { cause?: unknown; previous?: unknown }).cause ?? (e as { previous?: unknown }).previous;
  }
  return false;
}

/**
 * Runs a transaction again when PostgreSQL chose it as the victim of a deadlock (or a serialization
 * conflict): the other side has gone on, so a fresh try normally succeeds. Anything else is thrown.
 */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 10 * attempt + Math.random() * 40));
    }
  }
}
