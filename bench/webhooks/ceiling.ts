/**
 * The ceiling of the delivery rate on this machine and database: graphile-worker 0.17 running a
 * no-op task, one job per delivery, in one process with the server's concurrency, pool size, local
 * queue (batched fetch) and batched completion.
 * Every real delivery pays for the same job fetch and completion, plus its own SQL and HTTP, so
 * deliveries/s can approach this figure but not pass it.
 */
import { Logger, run, runMigrations } from 'graphile-worker';
import pg from 'pg';

const silent = new Logger(() => () => {});

/** Commits that PostgreSQL counted for a database: every autocommit statement is one. */
export async function commits(client: pg.Client, db: string): Promise<number> {
  const { rows } = await client.query(
    `select xact_commit::bigint as n from pg_stat_database where datname = $1`,
    [db],
  );
  return Number(rows[0].n);
}

export async function noopJobRate(
  databaseUrl: string,
  jobs: number,
  opts: {
    concurrency: number;
    poolSize: number;
    localQueueSize?: number;
    jobBatchDelayMs?: number;
    stats: pg.Client;
    db: string;
  },
): Promise<{ jobsPerSecond: number; drainMs: number; commitsPerJob: number }> {
  // The same connection settings as the server's delivery worker (server/src/webhooks/worker.ts).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.poolSize,
    options: '-c synchronous_commit=off',
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  await runMigrations({ pgPool: pool, logger: silent });
  let done = 0;
  let finish!: () => void;
  const all = new Promise<void>((r) => {
    finish = r;
  });
  const runner = await run({
    pgPool: pool,
    concurrency: opts.concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: silent,
    preset: {
      worker: {
        localQueue: { size: opts.localQueueSize ?? opts.concurrency, ttl: 10_000 },
        completeJobBatchDelay: opts.jobBatchDelayMs ?? 10,
        failJobBatchDelay: opts.jobBatchDelayMs ?? 10,
      },
    },
    taskList: {
      bench_noop: async () => {
        if (++done === jobs) finish();
      },
    },
  });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const client = await pool.connect();
    await client.query('begin');
    for (let i = 0; i < jobs; i += 1000) {
      await client.query(
        `select count(*) from graphile_worker.add_jobs(array(
           select row('bench_noop', json_build_object('i', g), null, now(), 25, 'noop-' || g, null, null)::graphile_worker.job_spec
           from generate_series($1::int, $2::int) g))`,
        [i, Math.min(jobs, i + 1000) - 1],
      );
    }
    await client.query('commit');
    client.release();
    const before = await commits(opts.stats, opts.db);
    const t0 = performance.now();
    await all;
    const drainMs = performance.now() - t0;
    const after = await commits(opts.stats, opts.db);
    return {
      jobsPerSecond: Math.round(jobs / (drainMs / 1000)),
      drainMs: Math.round(drainMs),
      commitsPerJob: +((after - before) / jobs).toFixed(2),
    };
  } finally {
    await runner.stop();
    await pool.end();
  }
}
