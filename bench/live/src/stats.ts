/** Nearest-rank percentile of unsorted samples (0 when there are none). */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return 0;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs `task(i)` for i in 0..n-1 with at most `concurrency` under way at once. */
export async function inPool(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, worker));
}

export const ms = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`;
export const seconds = (x: number) => `${(x / 1000).toFixed(2)} s`;
