import { Writable } from 'node:stream';
import { Logger, run, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { webhookSettings } from '../src/webhooks/settings';
import { WebhookWorker } from '../src/webhooks/worker';
import { waitUntil } from './support/budgets';
import { createTestDatabase } from './support/database';

/*
 * The delivery worker fetches jobs in batches into a local queue. Stopping it while every worker is busy
 * and jobs still wait in that queue must hand those jobs back to the database at once, without an
 * error: another process delivers them straight away instead of after the lost-attempt sweep.
 */
describe('stopping the job runner with jobs waiting in its local queue', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 4 });
    await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
  });
  afterAll(() => pool.end());

  it('returns the waiting jobs unlocked and logs no error', async () => {
    const errors: string[] = [];
    const logger = new Logger(() => (level, message) => {
      if (level === 'error') errors.push(message);
    });
    let started = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const jobs = 5;
    for (let i = 0; i < jobs; i++)
      await pool.query(`select graphile_worker.add_job('slow', json_build_object('i', $1::int))`, [i]);
    const runner = await run({
      pgPool: pool,
      concurrency: 1,
      noHandleSignals: true,
      pollInterval: 100,
      logger,
      // Completions batched as the delivery worker batches them (WEBHOOK_JOB_BATCH_DELAY_MS): stop() then
      // waits for the finished job's completion. Unbatched, graphile-worker sends it without awaiting
      // it, and the rows read below raced it (the finished job still there, locked).
      preset: { worker: { localQueue: { size: jobs, ttl: 60_000 }, completeJobBatchDelay: 10 } },
      taskList: {
        slow: async () => {
          started++;
          await gate;
        },
      },
    });
    // One job runs; the others were fetched with it and wait in the local queue.
    await waitUntil(() => started === 1, 'the first job started');
    const locked = async () => {
      const sql = 'select count(*) as n from graphile_worker._private_jobs where locked_at is not null';
      return Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);
    };
    expect(await locked()).toBe(jobs);
    const stopped = runner.stop();
    finish();
    await stopped;
    expect(errors).toEqual([]);
    expect(started).toBe(1);
    // The finished job is gone; the four that waited are back in the queue, locked by no one.
    const { rows } = await pool.query<{ locked: boolean }>(
      'select locked_at is not null as locked from graphile_worker._private_jobs',
    );
    expect(rows).toHaveLength(jobs - 1);
    expect(rows.every((r) => !r.locked)).toBe(true);
  });
});

describe('stopping the delivery worker', () => {
  it('succeeds when its job runner had already stopped on its own, and closes its connections', async () => {
    const databaseUrl = await createTestDatabase();
    const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
    const logs: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, cb) => cb(void logs.push(String(chunk))) });
    const worker = new WebhookWorker(databaseUrl, webhookSettings(config), createLogger('info', sink));
    await worker.migrate();
    await worker.start();
    // What the runner does when its worker pool exits: it stops itself, and refuses a second stop.
    const runner = (worker as unknown as { runner: { stop(): Promise<void> } }).runner;
    await runner.stop();
    await expect(worker.stop()).resolves.toBeUndefined();
    const errors = logs.filter((l) => l.includes('"level":50'));
    expect(errors.every((l) => l.includes('the webhook worker stopped unexpectedly'))).toBe(true);
    // Its pool is ended: using it again fails.
    const pool = (worker as unknown as { pool: pg.Pool }).pool;
    await expect(pool.query('select 1')).rejects.toThrow();
  });

  it('starts its job runner again when it stopped on its own, and is ready again', async () => {
    const databaseUrl = await createTestDatabase();
    const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
    const worker = new WebhookWorker(databaseUrl, webhookSettings(config), createLogger('silent'));
    await worker.migrate();
    await worker.start();
    const runnerOf = () => (worker as unknown as { runner: { stop(): Promise<void> } }).runner;
    const first = runnerOf();
    await first.stop();
    await waitUntil(() => runnerOf() !== first, 'the runner to be started again');
    await expect(worker.readiness()).resolves.toBe('ok');
    await worker.stop();
  });
});
