/**
 * Webhook delivery benchmark, loopback only and bounded:
 *   1. latency: single changes committed one at a time, commit-to-receipt p50/p99 (1 process);
 *   2. throughput: a backlog of deliveries committed at once, drained by 1 and then 4 server
 *      processes sharing one database, into a local receiver (deliveries per second);
 *   3. ceiling: graphile-worker running a no-op task for the same number of jobs on the same
 *      database, one process with the server's settings: the most one process could deliver here.
 * The machine's load average is printed with every figure: the 2 cores are shared with other work.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pnpm --filter @gathercast/bench-webhooks bench
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { addJobsSql } from '../../server/src/webhooks/queue';
import {
  freshDatabase,
  load,
  onStop,
  type ServerProcess,
  sleep,
  startServer,
  stopAll,
} from '../support/src/index';
import { commits, noopJobRate } from './ceiling';

const backlog = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const latencySamples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 300);
// The server's defaults unless overridden (server/src/webhooks/settings.ts).
const concurrency = process.env.WEBHOOK_CONCURRENCY ?? '32';
const poolSize = process.env.WEBHOOK_DB_POOL_SIZE ?? '8';

// ---- receiver -------------------------------------------------------------------------------
const received = new Map<string, number>();
let receivedCount = 0;
/** Ids still awaited by waitReceived (checked per request, not by polling: the bench shares the CPU). */
let awaited = new Set<string>();
let onAllReceived: (() => void) | undefined;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['x-gc-event-id']);
    if (!received.has(id)) received.set(id, performance.timeOrigin + performance.now());
    receivedCount++;
    if (awaited.delete(id) && awaited.size === 0) onAllReceived?.();
    res.writeHead(200, { 'content-length': '2' }).end('ok');
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// ---- database and servers (bench/support: a scratch database, or an embedded PostgreSQL) ---------
onStop(async () => {
  receiver.close();
  receiver.closeAllConnections();
});
const { url: databaseUrl, name: dbName, adminUrl } = await freshDatabase();
const db = new pg.Client({ connectionString: databaseUrl });

const servers: ServerProcess[] = [];
async function startServers(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    servers.push(
      await startServer({
        name: `server ${servers.length + 1}`,
        databaseUrl,
        env: {
          WEBHOOK_ALLOW_INSECURE_URLS: 'true',
          WEBHOOK_CONCURRENCY: concurrency,
          WEBHOOK_DB_POOL_SIZE: poolSize,
          LOG_LEVEL: 'warn',
        },
      }),
    );
  }
}
async function stopServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
}

const body = (id: string, ws: string) =>
  JSON.stringify({
    id,
    type: 'event.published',
    workspaceId: ws,
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
  });

/** The outbox statement the server's fan-out runs (same bulk job enqueue), for `n` changes in one transaction. */
async function commitDeliveries(
  client: pg.Client,
  endpointId: string,
  workspaceId: string,
  n: number,
): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  await client.query('begin');
  for (let i = 0; i < n; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    await client.query(
      `with d as (
         insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
         select gen_random_uuid(), $1, $2, x.id::uuid, 'event.published', x.body, 'pending', now()
         from unnest($3::text[], $4::text[]) as x(id, body)
         returning id, workspace_id
       )
       select (select count(*) from d), (select count(*) from ${addJobsSql('select id, workspace_id from d')})`,
      [endpointId, workspaceId, chunk, chunk.map((id) => body(id, workspaceId))],
    );
  }
  await client.query('commit');
  return ids;
}

async function waitReceived(ids: string[], timeoutMs: number): Promise<void> {
  awaited = new Set(ids.filter((id) => !received.has(id)));
  if (awaited.size === 0) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`only ${ids.length - awaited.size}/${ids.length} arrived`)),
      timeoutMs,
    );
    onAllReceived = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

try {
  // The first server migrates the database (and graphile-worker's schema).
  await startServers(1);
  await db.connect();
  const workspaceId = randomUUID();
  await db.query(`insert into workspace (id, name, slug) values ($1, 'bench', $2)`, [
    workspaceId,
    `bench-${workspaceId.slice(0, 8)}`,
  ]);
  const endpointId = randomUUID();
  await db.query(`insert into webhook_endpoint (id, workspace_id, url, secret) values ($1, $2, $3, $4)`, [
    endpointId,
    workspaceId,
    receiverUrl,
    `whsec_${createHash('sha256').update(endpointId).digest('base64url')}`,
  ]);

  const results: Record<string, unknown> = {
    cores: (await import('node:os')).cpus().length,
    loadAverageAtStart: load(),
    deliveries: backlog,
    workerConcurrencyPerProcess: Number(concurrency),
    workerDbPoolPerProcess: Number(poolSize),
  };
  const stats = new pg.Client({ connectionString: adminUrl });
  await stats.connect();

  // Latency first, on an idle single process: one change at a time.
  await waitReceived(await commitDeliveries(db, endpointId, workspaceId, 50), 30_000); // warm-up
  const lat: number[] = [];
  for (let i = 0; i < latencySamples; i++) {
    const [id] = await commitDeliveries(db, endpointId, workspaceId, 1);
    const committed = performance.timeOrigin + performance.now();
    await waitReceived([id!], 10_000);
    lat.push(received.get(id!)! - committed);
    await sleep(5);
  }
  lat.sort((a, b) => a - b);
  results.latencyMs = {
    p50: +pct(lat, 50).toFixed(1),
    p99: +pct(lat, 99).toFixed(1),
    samples: lat.length,
    loadAverage: load(),
  };

  for (const processes of [1, 4]) {
    if (servers.length < processes) await startServers(processes - servers.length);
    await sleep(500);
    const t0 = performance.timeOrigin + performance.now();
    const ids = await commitDeliveries(db, endpointId, workspaceId, backlog);
    const committed = performance.timeOrigin + performance.now();
    const before = await commits(stats, dbName);
    await waitReceived(ids, 180_000);
    const last = Math.max(...ids.map((id) => received.get(id)!));
    // Let the last attempts' records commit before counting statements.
    await sleep(300);
    const after = await commits(stats, dbName);
    results[`throughput${processes}p`] = {
      deliveriesPerSecond: Math.round(backlog / ((last - committed) / 1000)),
      commitMs: Math.round(committed - t0),
      drainMs: Math.round(last - committed),
      commitsPerDelivery: +((after - before) / backlog).toFixed(2),
      loadAverage: load(),
    };
  }
  await stopServers();

  // The ceiling: the same number of graphile-worker jobs doing nothing, one process, same settings.
  const ceiling = await noopJobRate(databaseUrl, backlog, {
    concurrency: Number(concurrency),
    poolSize: Number(poolSize),
    // The server's defaults (settings.ts) unless overridden, as the spawned servers inherit the env.
    localQueueSize: process.env.WEBHOOK_LOCAL_QUEUE_SIZE
      ? Number(process.env.WEBHOOK_LOCAL_QUEUE_SIZE)
      : undefined,
    jobBatchDelayMs: process.env.WEBHOOK_JOB_BATCH_DELAY_MS
      ? Number(process.env.WEBHOOK_JOB_BATCH_DELAY_MS)
      : undefined,
    stats,
    db: dbName,
  });
  results.noopJobCeiling1p = { ...ceiling, loadAverage: load() };
  const r1 = (results.throughput1p as { deliveriesPerSecond: number }).deliveriesPerSecond;
  results.deliveriesVsCeiling1p = +(r1 / ceiling.jobsPerSecond).toFixed(2);
  await stats.end();
  const { rows } = await db.query(`select status, count(*)::int as n from webhook_delivery group by status`);
  results.statuses = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  results.requestsReceived = receivedCount;
  results.loadAverageAtEnd = load();
  console.log(JSON.stringify(results, null, 2));
} finally {
  await db.end().catch(() => {});
  await stopAll();
}
