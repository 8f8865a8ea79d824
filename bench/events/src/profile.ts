// Profiling helper: the real server under one scenario only (BENCH_METHOD=GET|POST), CPU profile in /tmp/gc-prof.
// BENCH_NODE_FLAGS adds flags to the server's node (e.g. --trace-gc, or --no-cpu-prof to leave the profiler out).
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { productionNodeFlags } from './node-flags';
import { createDatabase, seedWorkspace } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const method = (process.env.BENCH_METHOD ?? 'POST') as 'GET' | 'POST';
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = await createDatabase(adminUrl);
const child: ChildProcess = fork(path.join(here, process.env.BENCH_TARGET ?? 'server-proc.ts'), [], {
  execArgv: [
    '--import',
    'tsx',
    ...productionNodeFlags(),
    ...(process.env.BENCH_NODE_FLAGS?.includes('--no-cpu-prof')
      ? []
      : ['--cpu-prof', '--cpu-prof-dir=/tmp/gc-prof']),
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f && f !== '--no-cpu-prof'),
  ],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await new Promise<string>((r) => child.once('message', (m) => r((m as { url: string }).url)));
const { apiKey } = await seedWorkspace(db.url);
for (let i = 0; i < 100; i++) {
  await fetch(`${url}/v1/events`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: '{"type":"b","title":"t"}',
  });
}
const r = await autocannon({
  url: `${url}/v1/events`,
  method,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  duration: Number(process.env.BENCH_DURATION ?? 8),
  headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
  body: method === 'POST' ? '{"type":"b","title":"t"}' : undefined,
});
console.log(
  method,
  'rps',
  r.requests.average,
  'p50',
  r.latency.p50,
  'p90',
  r.latency.p90,
  'p99',
  r.latency.p99,
  'p99.9',
  r.latency.p99_9,
  'max',
  r.latency.max,
  'non2xx',
  r.non2xx,
);
child.kill('SIGTERM');
await new Promise((res) => child.once('exit', res));
await db.drop();
