// Diagnostic: CPU milliseconds the server process spends per request (robust to a busy machine).
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDatabase, seedWorkspace } from './seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
const start = (script: string, dbUrl: string) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve) => {
    const child = fork(path.join(here, script), [], {
      execArgv: ['--import', 'tsx'],
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
const amount = Number(process.env.BENCH_AMOUNT ?? 2000);
for (const method of ['GET', 'POST'] as const) {
  for (const [name, p] of Object.entries(procs)) {
    const run = () =>
      autocannon({
        url: `${p.url}/v1/events`,
        method,
        connections: 8,
        amount,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: method === 'POST' ? '{"type":"b","title":"t"}' : undefined,
      });
    await run();
    const before = cpuMs(p.child.pid!);
    const r = await run();
    console.log(
      `${method} ${name.padEnd(8)} ${((cpuMs(p.child.pid!) - before) / amount).toFixed(3)} ms CPU/request  (${r.requests.average} req/s, non2xx ${r.non2xx})`,
    );
  }
}
for (const p of Object.values(procs)) p.child.kill('SIGKILL');
await db.drop();
