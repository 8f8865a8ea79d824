// One run: GET /v1/events (100 events) and POST /v1/events through the real server, against a bare
// Express + pg baseline on the same database. 32 connections, bounded duration, loopback only.
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { productionNodeFlags } from './node-flags';
import { createDatabase, seedWorkspace } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const roundCount = Number(process.env.BENCH_ROUNDS ?? 3);
const minThroughputRatio = 0.85;
const maxP99Ratio = 1.25;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, script), [], {
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_PROFILE && script === 'server-proc.ts'
          ? ['--cpu-prof', '--cpu-prof-dir=/tmp/gc-prof']
          : []),
        ...productionNodeFlags(),
      ],
      env: { ...process.env, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, url: (m as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function load(url: string, method: 'GET' | 'POST', apiKey: string, seconds: number) {
  const result = await autocannon({
    url: `${url}/v1/events`,
    method,
    connections,
    duration: seconds,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify({ type: 'bench', title: 'Bench event' }) : undefined,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0)
    throw new Error(
      `${method} ${url}: ${bad} failed requests (non2xx ${result.non2xx}, errors ${result.errors})`,
    );
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

async function main() {
  const db = await createDatabase(adminUrl);
  const children: ChildProcess[] = [];
  try {
    const server = await start('server-proc.ts', {
      DATABASE_URL: db.url,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    });
    children.push(server.child);
    const baseline = await start('baseline-proc.ts', { DATABASE_URL: db.url });
    children.push(baseline.child);
    const { apiKey } = await seedWorkspace(db.url);
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${server.url}/v1/events`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'bench', title: `Seeded ${i}` }),
      });
      if (res.status !== 201) throw new Error(`seeding failed: ${res.status}`);
    }
    const listed = (await (
      await fetch(`${server.url}/v1/events`, { headers: { 'x-api-key': apiKey } })
    ).json()) as { events: unknown[] };
    if (listed.events.length !== 100) throw new Error(`expected 100 events, got ${listed.events.length}`);
    // BENCH_AA=1: a second baseline process stands in for the server (same code on both sides), to
    // measure how far the ratios swing from 100 % and 1.0x on this machine at this moment.
    const subject = process.env.BENCH_AA === '1' ? await start('baseline-proc.ts', { DATABASE_URL: db.url }) : server;
    if (subject !== server) children.push(subject.child);

    // Server and baseline take turns in short rounds, so a busy machine weighs on both alike.
    const rows: Record<string, { rps: number; p50: number; p99: number; total: number }> = {};
    for (const method of ['GET', 'POST'] as const) {
      for (const [, target] of [
        ['server', subject.url],
        ['baseline', baseline.url],
      ] as const)
        await load(target, method, apiKey, warmup);
      const rounds: Record<string, Awaited<ReturnType<typeof load>>[]> = { server: [], baseline: [] };
      for (let r = 0; r < roundCount; r++) {
        for (const [name, target] of [
          ['server', subject.url],
          ['baseline', baseline.url],
        ] as const) {
          rounds[name]!.push(await load(target, method, apiKey, duration / roundCount));
        }
      }
      for (const [name, list] of Object.entries(rounds)) {
        console.log(
          `${method} ${name.padEnd(8)} rounds: ${list.map((x) => `${x.rps.toFixed(0)} req/s p99 ${x.p99} ms`).join(' | ')}`,
        );
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        rows[`${method} ${name}`] = {
          rps: list.reduce((a, x) => a + x.rps, 0) / list.length,
          p50: median(list.map((x) => x.p50)),
          p99: Math.max(...list.map((x) => x.p99)),
          total: list.reduce((a, x) => a + x.total, 0),
        };
      }
    }
    console.log(
      `\n${connections} connections, ${duration} s per scenario in ${roundCount} alternating rounds (after ${warmup} s warm-up), loopback; p50 = median of rounds, p99 = worst round\n`,
    );
    console.log('scenario            req/s     p50 ms   p99 ms');
    for (const [k, v] of Object.entries(rows)) {
      console.log(
        `${k.padEnd(18)} ${v.rps.toFixed(0).padStart(6)}   ${String(v.p50).padStart(6)}   ${String(v.p99).padStart(6)}`,
      );
    }
    // The target is relative to the bare baseline measured in the same run, so it holds on any machine:
    // throughput at least 85 % of the baseline's and p99 at most 1.25 times the baseline's p99.
    let ok = true;
    for (const method of ['GET', 'POST']) {
      const s = rows[`${method} server`]!;
      const b = rows[`${method} baseline`]!;
      const throughput = s.rps / b.rps;
      const tail = s.p99 / Math.max(b.p99, 1);
      const pass = throughput >= minThroughputRatio && tail <= maxP99Ratio;
      ok &&= pass;
      console.log(
        `${method}: throughput ${(throughput * 100).toFixed(0)} % of baseline (${s.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s), ` +
          `p99 ${tail.toFixed(2)}x baseline (${s.p99} vs ${b.p99} ms) -> ${pass ? 'PASS' : 'FAIL'} ` +
          `(target >= ${minThroughputRatio * 100} %, <= ${maxP99Ratio}x)`,
      );
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await db.drop();
  }
}

await main();
