import type { Config } from '../config';
import { defaultRetryScheduleMs } from './retry-schedule';

/** Everything the webhook sender is tuned by. Built once from the config (and a few env knobs). */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_INSECURE_URLS: http:// URLs and loopback/private targets (development and tests only). */
  allowInsecure: boolean;
  /** WEBHOOK_TIMEOUT_MS: per-attempt timeout. */
  timeoutMs: number;
  /** Delays before the 2nd, 3rd, … attempt. */
  retryScheduleMs: number[];
  /** Deliveries attempted at once by one process (WEBHOOK_CONCURRENCY, default 32; more only adds contention on the job table). */
  concurrency: number;
  /**
   * Attempts a process starts per second while it serves a burst someone waits on (a crowd joining a
   * live event; WEBHOOK_BUSY_RATE, default 10): the burst keeps the event loop, deliveries keep
   * flowing, slower, and catch up once it passes.
   */
  busyRate: number;
  /**
   * Attempts a process runs at once for `catchUpMs` after a burst (WEBHOOK_CATCH_UP_CONCURRENCY,
   * default 8; WEBHOOK_CATCH_UP_MS, default 10000, 0 turns it off): what a burst left behind catches up
   * at a moderate pace while the audience it let in is listening, then at full concurrency.
   */
  catchUpConcurrency: number;
  catchUpMs: number;
  /** Database connections of the delivery worker (WEBHOOK_DB_POOL_SIZE, default 8): attempts spend their time in HTTP, and claims and records are batched. */
  dbPoolSize: number;
  /** How often idle workers poll for scheduled retries (WEBHOOK_POLL_INTERVAL_MS, default 1000). */
  pollIntervalMs: number;
  /** How often a process looks for deliveries whose attempting process died (WEBHOOK_SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /**
   * Jobs a process fetches (and locks) per query into graphile-worker's local queue
   * (WEBHOOK_LOCAL_QUEUE_SIZE, default = concurrency; 0 or 1 fetches one job per query).
   */
  localQueueSize: number;
  /**
   * How long graphile-worker waits to batch job completions and failures into one statement
   * (WEBHOOK_JOB_BATCH_DELAY_MS, default 10; -1 completes each job on its own).
   */
  jobBatchDelayMs: number;
  /** An endpoint whose attempts have only failed for this long is disabled (3 days). */
  failingDisableMs: number;
  /** How long the old secret keeps signing after rotate-secret (24 h). */
  rotationOverlapMs: number;
  /** Whether this process runs the delivery worker (WEBHOOK_WORKER=false turns it off). */
  runWorker: boolean;
  /** The base URL used in test events' playback URLs. */
  publicBaseUrl: string;
}

const int = (v: string | undefined, fallback: number, min: number) => {
  const n = v === undefined || v === '' ? Number.NaN : Number(v);
  return Number.isInteger(n) && n >= min ? n : fallback;
};

/**
 * `WEBHOOK_RETRY_SCHEDULE_MS` (comma-separated milliseconds) replaces the retry schedule. It exists
 * for tests only, so that retries can be observed in milliseconds; production never sets it.
 */
export function webhookSettings(config: Config, env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_MS?.split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0);
  const concurrency = int(env.WEBHOOK_CONCURRENCY, 32, 1);
  return {
    allowInsecure: config.webhookAllowInsecureUrls,
    timeoutMs: config.webhookTimeoutMs,
    retryScheduleMs: schedule?.length ? schedule : defaultRetryScheduleMs,
    concurrency,
    busyRate: int(env.WEBHOOK_BUSY_RATE, 10, 1),
    catchUpConcurrency: int(env.WEBHOOK_CATCH_UP_CONCURRENCY, 8, 1),
    catchUpMs: int(env.WEBHOOK_CATCH_UP_MS, 10_000, 0),
    dbPoolSize: int(env.WEBHOOK_DB_POOL_SIZE, 8, 2),
    pollIntervalMs: int(env.WEBHOOK_POLL_INTERVAL_MS, 1000, 10),
    sweepIntervalMs: int(env.WEBHOOK_SWEEP_INTERVAL_MS, 10_000, 50),
    localQueueSize: int(env.WEBHOOK_LOCAL_QUEUE_SIZE, concurrency, 0),
    jobBatchDelayMs: int(env.WEBHOOK_JOB_BATCH_DELAY_MS, 10, -1),
    failingDisableMs: 3 * 24 * 3600 * 1000,
    rotationOverlapMs: 24 * 3600 * 1000,
    runWorker: !['false', '0', 'no'].includes((env.WEBHOOK_WORKER ?? '').toLowerCase()),
    publicBaseUrl: config.publicBaseUrl,
  };
}
