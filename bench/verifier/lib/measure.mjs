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

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Interleaves the cases in many short rounds, so changes in machine load hit all of them alike.
 * Returns each case's rate per round (`rates`) and their median (`opsPerSec`).
 */
export async function measureAll(cases, n, { rounds, sampleMs, warmupMs }) {
  for (const c of cases) await sample(c, n, warmupMs);
  const rates = new Map(cases.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of cases) rates.get(c).push(await sample(c, n, sampleMs));
  }
  return cases.map((c) => ({ ...c, rates: rates.get(c), opsPerSec: median(rates.get(c)) }));
}

/** Median over rounds of a / b measured in the same round: robust to load that drifts between rounds. */
export const pairedRatio = (a, b) => median(a.rates.map((rate, round) => rate / b.rates[round]));
