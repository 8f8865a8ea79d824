// Time-boxed throughput measurement. Every loop is bounded by both time and count.
import { Worker } from 'node:worker_threads';
//
// Rates are calls per CPU-second of this process (process.cpuUsage, user + system), not per
// wall-clock second: on a shared machine, time spent descheduled would otherwise be charged to
// whichever case happened to be running. For these CPU-bound loops the two agree on an idle box.
// Only one case's worker runs at a time, so the process's CPU time is that case's.

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

/** Starts one worker per case (see case-worker.mjs); resolves once each has checked its deliveries. */
async function startWorkers(cases, payloadCount) {
  return Promise.all(
    cases.map(
      (c) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL('./case-worker.mjs', import.meta.url), {
            workerData: { name: c.name, payloadCount },
          });
          worker.once('message', () => resolve(worker));
          worker.once('error', reject);
        }),
    ),
  );
}

function timed(worker, ms) {
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (rate) => {
      worker.off('error', reject);
      resolve(rate);
    });
    worker.postMessage({ ms });
  });
}

/**
 * Interleaves the cases in many short rounds, one case running at a time, so changes in machine
 * load hit all of them alike. Returns each case's rate per round (`rates`) and their median (`opsPerSec`).
 */
export async function measureAll(cases, payloadCount, { rounds, sampleMs, warmupMs }) {
  const workers = await startWorkers(cases, payloadCount);
  try {
    for (const w of workers) await timed(w, warmupMs);
    const rates = cases.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < workers.length; i++) rates[i].push(await timed(workers[i], sampleMs));
    }
    return cases.map((c, i) => ({ ...c, rates: rates[i], opsPerSec: median(rates[i]) }));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Median over rounds of a / b measured in the same round: robust to load that drifts between rounds. */
export const pairedRatio = (a, b) => median(a.rates.map((rate, round) => rate / b.rates[round]));
