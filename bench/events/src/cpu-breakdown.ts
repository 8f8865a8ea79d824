// Diagnostic: CPU milliseconds per request in the server process, in PostgreSQL (all its processes) and in
// the load generator (this process), at 32 connections; where a 2-core machine's time goes.
import { type ChildProcess, execSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { productionNodeFlags } from './node-flags';
import { createDatabase, seedWorkspace } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const stat = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
const ticks = (pid: number) => {
  const f = stat(pid);
  return Number(f[11]) + Number(f[12]);
};
const systemTicks = (pid: number) => Number(stat(pid)[12]);
const postgresPids = () =>
  execSync('pgrep -x postgres || true', { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
const postgresTicks = () => {
  const out = new Map<number, number>();
  for (const pid of postgresPids()) {
    try {
      out.set(pid, ticks(pid));
    } catch {
      // exited meanwhile
    }
  }
  return out;
};
/** Ticks spent by PostgreSQL processes between two snapshots (new processes count from zero). */
const postgresDelta = (before: Map<number, number>) => {
  let sum = 0;
  for (const [pid, t] of postgresTicks()) sum += t - (before.get(pid) ?? 0);
  return sum;
};
const start = (script: string, dbUrl: string) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve) => {
    const child = fork(path.join(here, script), [], {
      execArgv: ['--import', 'tsx', ...productionNodeFlags()],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: dbUrl,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, url: (m as { url: string }).url }));
  });
const db = await createDatabase(adminUrl);
const procs = {
  server: await start('server-proc.ts', db.url),
  baseline: await start('baseline-proc.ts', db.url),
};
const { apiKey } = await seedWorkspace(db.url);
for (let i = 0; i < 100; i++) {
  await fetch(`${procs.server.url}/v1/events`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: '{"type":"b","title":"t"}',
  });
}
const seconds = Number(process.env.BENCH_DURATION ?? 5);
for (const method of (process.env.BENCH_METHODS ?? 'GET,POST').split(',') as ('GET' | 'POST')[]) {
  for (const [name, p] of Object.entries(procs)) {
    const run = () =>
      autocannon({
        url: `${p.url}/v1/events`,
        method,
        connections: 32,
        duration: seconds,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: method === 'POST' ? '{"type":"b","title":"t"}' : undefined,
      });
    await run();
    const before = {
      node: ticks(p.child.pid!),
      sys: systemTicks(p.child.pid!),
      pg: postgresTicks(),
      self: process.cpuUsage(),
    };
    const r = await run();
    const self = process.cpuUsage(before.self);
    const n = r.requests.total;
    const per = (t: number) => ((t * 10) / n).toFixed(3);
    console.log(
      `${method} ${name.padEnd(8)} ${r.requests.average.toFixed(0).padStart(5)} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} | CPU ms/request: node ${per(ticks(p.child.pid!) - before.node)} (kernel ${per(systemTicks(p.child.pid!) - before.sys)}), postgres ${per(postgresDelta(before.pg))}, load generator ${((self.user + self.system) / 1000 / n).toFixed(3)}`,
    );
  }
}
for (const p of Object.values(procs)) p.child.kill('SIGKILL');
await db.drop();
