import { Logger as GraphileLogger, type Runner, run, runMigrations, type TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ForegroundLoad } from '../lib/foreground';
import { countWebhookAttempt, pgPoolStats, trackPool } from '../lib/metrics';
import { traced } from '../lib/tracing';
import { AttemptStore } from './attempt-store';
import { BusyPacer } from './busy-pacer';
import { attemptDelivery } from './deliver';
import { WebhookHttpClient } from './http-sender';
import { addJobSql, deliverTask, pendingRankSql } from './queue';
import type { WebhookSettings } from './settings';
import { sql } from '../db/sql';

/** Other background jobs the same runner takes (emails, retention), and their schedule in crontab form. */
export interface OtherJobs {
  tasks: TaskList;
  crontab?: string;
}

/**
 * The delivery worker: graphile-worker jobs (LISTEN/NOTIFY, so an attempt starts within
 * milliseconds of the commit), one attempt per job, shared by every server process on the database.
 * Jobs are fetched in batches into graphile-worker's local queue and completed in batches.
 * A sweeper re-queues deliveries whose attempting process died, including the jobs that sat in its
 * local queue (graphile-worker itself would only release such locked jobs after 4 hours).
 */
export class WebhookWorker {
  private runner: Runner | undefined;
  /** Set when the runner stopped on its own (not through stop()): the process no longer delivers. */
  private crashed: unknown;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly pool: pg.Pool;
  private readonly http: WebhookHttpClient;
  private readonly untrackPool: () => void;
  /** Attempts start at once, or paced while the process serves a burst and catches up after it. */
  private readonly attempts: BusyPacer;

  constructor(
    databaseUrl: string,
    private readonly settings: WebhookSettings,
    private readonly logger: Logger,
    foreground?: Pick<ForegroundLoad, 'busy' | 'sinceBusy'>,
    /** The process's one graphile-worker runner also runs these (one queue, one LISTEN, one pool). */
    private readonly otherJobs: OtherJobs = { tasks: {} },
  ) {
    this.attempts = new BusyPacer(foreground, settings);
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: settings.dbPoolSize,
      // Everything this pool writes is progress that is safe to lose: the outbox rows and their jobs
      // are committed durably by the change's own transaction (the ORM's connections). A database
      // crash can only forget the last few hundred ms of job locks, leases, attempt rows and
      // completions, which makes those deliveries pending again and re-sent: at least once still
      // holds. Not waiting for a WAL flush on each of the ~2.5 commits per delivery is what lets
      // the queue keep up on a small machine.
      options: '-c synchronous_commit=off',
    });
    this.pool.on('error', (err) => logger.warn({ err }, 'webhook worker pool error'));
    // An idle client's error (a dropped connection) must not crash the process; graphile-worker 0.17
    // checks for this handler too.
    this.pool.on('connect', (client) => {
      client.on('error', (err) => logger.warn({ err }, 'webhook worker connection error'));
    });
    this.http = new WebhookHttpClient(settings.allowInsecure);
    this.untrackPool = trackPool('webhook_worker', pgPoolStats(this.pool));
  }

  private graphileLogger() {
    const log = this.logger.child({ component: 'graphile-worker' });
    return new GraphileLogger(() => (level, message) => {
      // Fewer pool connections than concurrent attempts is deliberate: leases and records are batched.
      if (message.includes('smaller than concurrency')) return log.debug(message);
      if (level === 'error') log.error(message);
      else if (level === 'warning') log.warn(message);
      else log.debug(message);
    });
  }

  /** Installs or upgrades the job-queue schema (every process, so API-only processes can enqueue). */
  async migrate(): Promise<void> {
    await runMigrations({ pgPool: this.pool, logger: this.graphileLogger() });
  }

  /**
   * How long a pending delivery must be overdue, unleased and without a recently locked job before the
   * sweeper re-queues it. A live process holds a job in its local queue for at most
   * `localQueueTtlMs()` (then returns it to the database) and leases it as soon as it starts it.
   */
  private sweepGraceMs(): number {
    return Math.max(2 * this.settings.sweepIntervalMs, 1000);
  }

  private localQueueTtlMs(): number {
    return Math.floor(this.sweepGraceMs() / 2);
  }

  async start(): Promise<void> {
    await this.migrate();
    if (!this.settings.runWorker) return;
    await this.startRunner();
    this.scheduleSweep();
  }

  private async startRunner(): Promise<void> {
    const store = new AttemptStore(this.pool, this.settings.timeoutMs + 5000);
    const deps = { pool: this.pool, store, http: this.http, settings: this.settings, logger: this.logger };
    this.runner = await run({
      pgPool: this.pool,
      concurrency: this.settings.concurrency,
      noHandleSignals: true,
      pollInterval: this.settings.pollIntervalMs,
      logger: this.graphileLogger(),
      preset: {
        worker: {
          ...(this.settings.localQueueSize > 1
            ? { localQueue: { size: this.settings.localQueueSize, ttl: this.localQueueTtlMs() } }
            : {}),
          completeJobBatchDelay: this.settings.jobBatchDelayMs,
          failJobBatchDelay: this.settings.jobBatchDelayMs,
        },
      },
      ...(this.otherJobs.crontab ? { crontab: this.otherJobs.crontab } : {}),
      taskList: {
        ...this.otherJobs.tasks,
        [deliverTask]: async (payload) => {
          const id = (payload as { id: string }).id;
          const attempt = () =>
            traced('webhook.attempt', { 'gathercast.delivery.id': id }, async (span) => {
              const o = await attemptDelivery(deps, id);
              span?.setAttribute('gathercast.webhook.outcome', o);
              return o;
            });
          const outcome = await this.attempts.run(attempt);
          countWebhookAttempt(outcome);
        },
      },
    });
    const runner = this.runner;
    this.crashed = undefined;
    runner.promise.then(
      () => this.restartAfter(runner, new Error('the webhook worker stopped')),
      (err: unknown) => this.restartAfter(runner, err ?? new Error('the webhook worker failed')),
    );
  }

  /**
   * A runner that ended on its own (its pool lost the database, a pooler broke its session) is started
   * again after a pause that doubles up to 30 s; /readyz fails until it runs. A process never lives on
   * without delivering while it says it does.
   */
  private restartAfter(runner: Runner, err: unknown, pauseMs = 1000): void {
    if (this.runner !== runner) return;
    this.crashed = err;
    this.logger.error({ err, pauseMs }, 'the webhook worker stopped unexpectedly: restarting it');
    this.restartTimer = setTimeout(() => {
      if (this.runner !== runner) return;
      this.startRunner().catch((again: unknown) => this.restartAfter(runner, again, Math.min(pauseMs * 2, 30_000)));
    }, pauseMs);
  }

  /** For /readyz: running, turned off by WEBHOOK_WORKER=false, or throws when it stopped unexpectedly. */
  async readiness(): Promise<'ok' | 'disabled'> {
    if (!this.settings.runWorker) return 'disabled';
    if (this.crashed) throw this.crashed;
    if (!this.runner) throw new Error('the webhook worker is not running');
    // The worker's own connections, not the API's: a worker pool that cannot connect delivers nothing.
    await this.pool.query('select 1');
    return 'ok';
  }

  private scheduleSweep(): void {
    const delay = this.settings.sweepIntervalMs * (0.75 + Math.random() / 2);
    this.sweepTimer = setTimeout(() => {
      this.sweeping = this.sweep()
        .then(() => undefined)
        .catch((err) => this.logger.warn({ err }, 'webhook sweep failed'))
        .finally(() => {
          this.sweeping = undefined;
          if (this.runner) this.scheduleSweep();
        });
    }, delay);
  }

  /**
   * Re-queues pending deliveries that are overdue, not leased by a live attempt, and have neither a
   * waiting job nor one locked within the grace period: their job was locked (running, or waiting in
   * the local queue) by a process that died. Returns how many were re-queued.
   */
  async sweep(): Promise<number> {
    const grace = this.sweepGraceMs();
    const rows = await sql<{ n: string }>(
      this.pool,
      `select count(${addJobSql('d.id::text', 'now()', pendingRankSql('d.workspace_id'))}) as n
       from (
         select d.id, d.workspace_id from webhook_delivery d
         where d.status = 'pending' and d.next_attempt_at < now() - ? * interval '1 millisecond'
           and (d.lease_until is null or d.lease_until < now())
           and not exists (
             select 1 from graphile_worker._private_jobs j where j.key = d.id::text
               and (j.locked_at is null or j.locked_at > now() - ? * interval '1 millisecond')
           )
         order by d.next_attempt_at
         limit 500
       ) d`,
      [grace, grace],
    );
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) this.logger.info({ requeued: n }, 'webhook deliveries re-queued after a lost attempt');
    return n;
  }

  /**
   * Stops taking jobs, lets running attempts finish, then closes connections. Jobs waiting in the local
   * queue go back to the database unlocked at once (graphile-worker 0.17.3 failed that when every worker
   * was busy, leaving them to the lost-attempt sweep: `patches/graphile-worker@0.17.3.patch`).
   */
  async stop(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.sweeping;
    try {
      if (runner) await runner.stop().catch(ignoreAlreadyStopped);
    } finally {
      this.http.close();
      this.untrackPool();
      await this.pool.end();
    }
  }
}

/**
 * The runner stops itself when its worker pool exits (an error there, or a shutdown begun inside it);
 * stopping it again is refused with "Runner is already stopped", which for a shutdown is success.
 */
function ignoreAlreadyStopped(err: unknown): void {
  if (!(err instanceof Error && err.message === 'Runner is already stopped')) throw err;
}
