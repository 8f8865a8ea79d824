/**
 * Fairness of the API budgets, loopback only and bounded: does one tenant hammering the API raise
 * another tenant's latency?
 *
 * One server process (built from source, production mode, the production API budgets unless
 * overridden), two tenants (workspaces) with their own API keys and events. Tenant B sends a steady,
 * open-loop `GET /v1/events` load (a request every 1/BENCH_B_RATE s whatever the answers do). Rounds
 * alternate two phases of BENCH_PHASE_SECONDS each:
 *   - baseline: B alone;
 *   - hammer: B as before, and tenant A, from its own process (hammer.mts) with BENCH_A_KEYS keys,
 *     sending BENCH_A_RATE requests/s open-loop: by default its workspace's full read budget
 *     (200/s); above it, the server answers A's excess with 429;
 *   - elsewhere (the control): the same hammer, aimed at a second server process of the same
 *     deployment (same database, same Redis, same two cores). B's process serves none of A's requests,
 *     so what B loses here is the machine's share (cores, PostgreSQL, the load generator itself), not
 *     the API process's: hammer/elsewhere is what sharing one process costs B.
 * Printed per phase: B's p50/p99 (pooled over the rounds), B's errors, A's 200s and 429s per second,
 * the p99 ratio (target ≤ 1.10) and the load average at the start of every phase: the machine is
 * shared, so read the ratio next to it.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fairness/run.mts
 * Without DATABASE_URL the bench starts an embedded PostgreSQL in a temporary directory (bench/support). With
 * REDIS_URL the budgets are counted in Redis (as a multi-process deployment does).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, load, startPostgres, startServer, stopAll, track } from '../support/src/index.ts';
import { percentile, signUpWithKeys, sleep } from './setup.mts';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const phaseSeconds = env('BENCH_PHASE_SECONDS', 10);
const rounds = env('BENCH_ROUNDS', 2);
const bRate = env('BENCH_B_RATE', 20);
const aKeys = env('BENCH_A_KEYS', 2);
// The production workspace read budget is 200/s (docs/limits.md): A sends at its full budget by default;
// a higher rate shows the excess refused with 429.
const aRate = env('BENCH_A_RATE', 200);
const eventsPerTenant = env('BENCH_EVENTS', 20);

try {
  // ---- the server (bench/support: a scratch database or an embedded PostgreSQL, stopped at the end)
  const postgres = await startPostgres();
  const databaseUrl = (await freshDatabase()).url;
  // Both tenants connect from 127.0.0.1 here, which real tenants never share: the per-address
  // connection cap and sign-up limit (abuse limits, not budgets; the sign-up count lives in Redis
  // across runs) would otherwise refuse B for A's connections and the seeding of a second run.
  const serverEnv = {
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    RATE_LIMITS: 'signup.address=100000/60,signup.target=100000/60',
  };
  const server = await startServer({
    databaseUrl,
    env: serverEnv,
  });
  const base = server.url;
  const other = await startServer({
    name: 'server2',
    databaseUrl,
    env: serverEnv,
  });

  // ---- two tenants ------------------------------------------------------------------------------
  const a = await signUpWithKeys(base, 'hammer', aKeys, eventsPerTenant);
  const b = await signUpWithKeys(base, 'steady', 1, eventsPerTenant);
  console.log(
    `server ${base} (${postgres.kind}${process.env.REDIS_URL ? ', Redis' : ''}); ` +
      `${eventsPerTenant} events per tenant; B ${bRate} req/s; A ${aRate} req/s over ${aKeys} key(s); ` +
      `${rounds} round(s) of ${phaseSeconds} s per phase`,
  );

  /** B's steady load for `seconds`: one request every 1/bRate s, each timed from its scheduled start. */
  async function steady(seconds: number): Promise<{ latencies: number[]; errors: number; limited: number }> {
    const latencies: number[] = [];
    let errors = 0;
    let limited = 0;
    const inFlight: Promise<void>[] = [];
    const start = performance.now();
    const total = Math.round(seconds * bRate);
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / bRate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      inFlight.push(
        fetch(`${base}/v1/events?limit=20`, { headers: { 'x-api-key': b.keys[0]! } })
          .then(async (res) => {
            await res.arrayBuffer();
            // Measured from when the request was due: a late send (a busy bench process) counts too.
            if (res.status === 200) latencies.push(performance.now() - due);
            else if (res.status === 429) limited++;
            else errors++;
          })
          .catch(() => {
            errors++;
          }),
      );
    }
    await Promise.all(inFlight);
    return { latencies, errors, limited };
  }

  /** Tenant A from its own process, so its sending does not delay B's measurements in this one. */
  function hammer(seconds: number, target = base): Promise<{ ok: number; limited: number; other: number }> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'hammer.mts')], {
      env: {
        ...process.env,
        HAMMER_BASE: target,
        HAMMER_KEYS: a.keys.join(','),
        HAMMER_RATE: String(aRate),
        HAMMER_SECONDS: String(seconds),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    track(child);
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
    });
    return new Promise((resolve, reject) =>
      child.once('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`hammer exited ${code}`)),
      ),
    );
  }

  await steady(3); // warm-up: credential cache, prepared statements, JIT
  type Phase = {
    latencies: number[];
    errors: number;
    limited: number;
    loads: number[][];
    ok: number;
    a429: number;
    aOther: number;
  };
  const phase = (): Phase => ({ latencies: [], errors: 0, limited: 0, loads: [], ok: 0, a429: 0, aOther: 0 });
  const phases = { baseline: phase(), hammer: phase(), elsewhere: phase() };
  /** One phase: B's steady load, with A's hammer aimed at `target` (none for the baseline). */
  async function run(into: Phase, target?: string): Promise<void> {
    into.loads.push(load());
    // The hammer process needs a moment to start: B's phase starts once A is sending.
    const aDone = target ? hammer(phaseSeconds + 1.5, target) : undefined;
    if (aDone) await sleep(1000);
    const b = await steady(phaseSeconds);
    into.latencies.push(...b.latencies);
    into.errors += b.errors;
    into.limited += b.limited;
    const a = await aDone;
    if (a) {
      into.ok += a.ok;
      into.a429 += a.limited;
      into.aOther += a.other;
    }
  }
  for (let round = 0; round < rounds; round++) {
    await run(phases.baseline);
    await run(phases.hammer, base);
    await run(phases.elsewhere, other.url);
  }

  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  const stats = (l: number[]) => ({ p50: percentile(l, 50), p99: percentile(l, 99), n: l.length });
  const aSeconds = rounds * (phaseSeconds + 1.5);
  const results = Object.fromEntries(Object.entries(phases).map(([name, p]) => [name, stats(p.latencies)]));
  for (const [name, p] of Object.entries(phases)) {
    const r = results[name]!;
    console.log(
      `${name.padEnd(9)} B p50 ${fmt(r.p50)}  p99 ${fmt(r.p99)}  (${r.n} answers, ${p.errors} errors, ${p.limited} 429)` +
        (name === 'baseline'
          ? ''
          : `  A ${(p.ok / aSeconds).toFixed(0)} answered/s, ${(p.a429 / aSeconds).toFixed(0)} refused/s, ${p.aOther} other`) +
        `  load ${JSON.stringify(p.loads)}`,
    );
  }
  const ratio = results.hammer!.p99 / results.baseline!.p99;
  const machine = results.elsewhere!.p99 / results.baseline!.p99;
  const process_ = results.hammer!.p99 / results.elsewhere!.p99;
  console.log(
    `B p99 ratio hammer/baseline ${ratio.toFixed(2)} (target ≤ 1.10: ${ratio <= 1.1 ? 'met' : 'missed'}); ` +
      `of it, the machine's share (elsewhere/baseline) ${machine.toFixed(2)} and the shared process's (hammer/elsewhere) ${process_.toFixed(2)}; ` +
      `p50 ratio ${(results.hammer!.p50 / results.baseline!.p50).toFixed(2)}; load at the end ${JSON.stringify(load())}`,
  );
} finally {
  await stopAll();
}
