// Time-boxed throughput measurement. Every loop is bounded by both time and count.
//
// Rates are calls per CPU-second of this process (process.cpuUsage, user + system), not per
// wall-clock second: on a shared machine, time spent descheduled would otherwise be charged to
// whichever case happened to be running. For these CPU-bound loops the two agree on an idle box.

const MAX_CALLS_PER_SAMPLE = 2_000_000;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Calls `fn(i % n)` until `ms` milliseconds of wall time have passed; returns calls per CPU-second. */
export async function sample({ fn, kind }, n, ms) {
  const deadline = performance.now() + ms;
  const cpuStart = cpuMs();
  let calls = 0;
  while (calls < MAX_CALLS_PER_SAMPLE) {
    // Batches of 64 keep the clock out of the measurement.
    if (kind === 'async') for (let j = 0; j < 64; j++) await fn((calls + j) % n);
    else for (let j = 0; j < 64; j++) fn((calls + j) % n);
    calls += 64;
    if (performance.now() >= deadline) break;
  }
  return (calls * 1000) / Math.max(cpuMs() - cpuStart, 0.001);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Interleaves the cases round by round, so drift in machine state hits all of them alike,
 * and keeps each case's median rate.
 */
export async function measureAll(cases, n, { rounds, sampleMs, warmupMs }) {
  for (const c of cases) await sample(c, n, warmupMs);
  const rates = new Map(cases.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) rates.get(c).push(await sample(c, n, sampleMs));
  }
  return cases.map((c) => ({
    ...c,
    opsPerSec: median(rates.get(c)),
    bestOpsPerSec: Math.max(...rates.get(c)),
  }));
}
