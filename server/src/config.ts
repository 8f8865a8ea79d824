import { z } from 'zod';
import { parseRedisUrl } from './redis-url';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (what: string) =>
  z.string().refine((v) => URL.canParse(v), { message: `must be a valid ${what} URL` });

const envSchema = z.object({
  PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: url('PostgreSQL').optional(),
  DATABASE_DIRECT_URL: url('PostgreSQL').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  PUBLIC_BASE_URL: url('http(s)').optional(),
  SMTP_URL: url('SMTP').optional(),
  EMAIL_FROM: z.string().min(3).default('Gathercast <no-reply@localhost>'),
  PLATFORM_KEY: z.string().min(1).optional(),
  WEBHOOK_ALLOW_INSECURE_URLS: bool.default('false'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().min(100).max(60_000).default(10_000),
  REDIS_URL: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseRedisUrl(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
  LIVE_RESUME_WINDOW_MS: z.coerce.number({ message: 'must be a number' }).int().min(1000).max(3_600_000).default(120_000),
  LIVE_HISTORY_MAX: z.coerce.number({ message: 'must be a number' }).int().min(0).max(100_000).default(1000),
  LIVE_MAX_SOCKETS_PER_PARTICIPANT: z.coerce.number({ message: 'must be a number' }).int().min(0).default(10),
  LIVE_MAX_SOCKETS_PER_ADDRESS: z.coerce.number({ message: 'must be a number' }).int().min(0).default(1000),
  LIVEKIT_URL: url('LiveKit').default('ws://localhost:7880'),
  LIVEKIT_API_KEY: z.string().min(1).default('devkey'),
  LIVEKIT_API_SECRET: z.string().min(1).default('devsecret_devsecret_devsecret_devsecret'),
  HLS_BASE_URL: url('HLS').optional(),
  OIDC_ISSUER: url('OIDC issuer').optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  LLM_BASE_URL: url('LLM').optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: bool.default('false'),
  METRICS_PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  API_LIMIT_WINDOW_SECONDS: z.coerce.number({ message: 'must be a number' }).int().min(1).max(3600).default(1),
  API_LIMIT_KEY_READS: z.coerce.number({ message: 'must be a number' }).int().min(1).default(100),
  API_LIMIT_KEY_WRITES: z.coerce.number({ message: 'must be a number' }).int().min(1).default(50),
  API_LIMIT_WORKSPACE_READS: z.coerce.number({ message: 'must be a number' }).int().min(1).default(200),
  API_LIMIT_WORKSPACE_WRITES: z.coerce.number({ message: 'must be a number' }).int().min(1).default(100),
  API_TENANT_CONCURRENCY: z.coerce.number({ message: 'must be a number' }).int().min(1).max(1000).default(8),
  API_TENANT_MAX_WAITING: z.coerce.number({ message: 'must be a number' }).int().min(0).max(100_000).default(1000),
  API_TENANT_MAX_WAIT_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(120_000).default(10_000),
  SHUTDOWN_DELAY_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(120_000).default(5000),
  LIVE_DRAIN_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(120_000).default(3000),
  RATE_LIMITS: z.string().default(''),
  RETENTION: z.string().default(''),
  CAP_LOOPBACK_ADDRESSES: bool.default('false'),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number({ message: 'must be a number' }).int().min(1).max(1_000_000).default(256),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number({ message: 'must be a number' }).int().min(100).max(3_600_000).default(30_000),
  SCHEDULED_JOBS_INTERVAL_MS: z.coerce.number({ message: 'must be a number' }).int().min(50).max(60_000).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * Set when DATABASE_URL is a transaction-mode pooler (PgBouncer): what needs a session of its own
   * (listeners, the migrations' advisory lock, the webhook worker) connects here, and the pooled path
   * sends no named prepared statements (docs/deploy.md, "PgBouncer").
   */
  databaseDirectUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  errorsBaseUrl: string;
  smtpUrl: string | undefined;
  emailFrom: string;
  platformKey: string | undefined;
  webhookAllowInsecureUrls: boolean;
  webhookTimeoutMs: number;
  /** REDIS_URL: one server, a Sentinel-watched master or a cluster (the forms: redis-url.ts). */
  redisUrl: string | undefined;
  /** Live event history for resumes: kept for windowMs, at most `max` messages per event (0: none). */
  liveHistory: { windowMs: number; max: number };
  /**
   * Open live sockets per participant and per client address on one process; 0 is no cap. A loopback
   * address counts against the address cap only with `capLoopback` (CAP_LOOPBACK_ADDRESSES).
   */
  liveSockets: { perParticipant: number; perAddress: number; capLoopback: boolean };
  livekit: { url: string; apiKey: string; apiSecret: string };
  hlsBaseUrl: string;
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  corsOrigins: string[];
  trustProxy: boolean;
  logLevel: string;
  /** A second listener serving only GET /metrics, without a key (METRICS_PORT, METRICS_HOST). */
  metrics: { port: number; host: string } | undefined;
  /**
   * Budgets of the management API (docs/limits.md): reads (GET, HEAD) and writes per credential and per
   * workspace, each refilled every `windowSeconds`.
   */
  apiLimits: ApiLimits;
  /**
   * SIGTERM (docs/deploy.md, "Restarts without load-balancer retries"): /readyz answers 503 and
   * everything is served for `delayMs` while balancers notice; then the listener closes and the live
   * sockets move to other processes in slices over `liveMoveMs`.
   */
  shutdown: { delayMs: number; liveMoveMs: number };
  /** Cookies get `Secure` when the public base URL is https. */
  secureCookies: boolean;
  /** RATE_LIMITS: `name.scope=points/seconds,…` replacing defaults of the named limits (docs/limits.md). */
  rateLimitOverrides: string;
  /** RETENTION: `table=duration,…` replacing default retention windows (docs/limits.md). */
  retentionOverrides: string;
  /** The HTTP port's connection caps and header/request deadlines (docs/limits.md). */
  http: {
    maxConnectionsPerAddress: number;
    /** Whether a loopback peer counts against the per-address cap (CAP_LOOPBACK_ADDRESSES). */
    capLoopback: boolean;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
  };
  /** How often each process looks for due reminders, queued registrant emails and attendance reports. */
  scheduledJobsIntervalMs: number;
}

export interface ApiLimits {
  windowSeconds: number;
  key: { read: number; write: number };
  workspace: { read: number; write: number };
  /** Requests of one tenant in progress at once in a process, and its line's bounds (lib/tenant-turns.ts). */
  tenantTurns: { perTenant: number; maxWaiting: number; maxWaitMs: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Reads the configuration variables (README, "Configuration") from the environment; every bad variable gets one line naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}=${JSON.stringify(present[i.path[0] as string])}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const oidcSet = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID].filter(Boolean).length;
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) {
    throw new ConfigError(['DATABASE_DIRECT_URL: set only beside DATABASE_URL (the pooled URL)']);
  }
  if (oidcSet === 1) {
    throw new ConfigError(['OIDC_ISSUER and OIDC_CLIENT_ID: set both or neither']);
  }
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    dataDir: e.DATA_DIR,
    publicBaseUrl,
    errorsBaseUrl: `${publicBaseUrl}/docs/errors`,
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM,
    platformKey: e.PLATFORM_KEY,
    webhookAllowInsecureUrls: e.WEBHOOK_ALLOW_INSECURE_URLS,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    liveHistory: { windowMs: e.LIVE_RESUME_WINDOW_MS, max: e.LIVE_HISTORY_MAX },
    liveSockets: {
      perParticipant: e.LIVE_MAX_SOCKETS_PER_PARTICIPANT,
      perAddress: e.LIVE_MAX_SOCKETS_PER_ADDRESS,
      capLoopback: e.CAP_LOOPBACK_ADDRESSES,
    },
    livekit: { url: e.LIVEKIT_URL, apiKey: e.LIVEKIT_API_KEY, apiSecret: e.LIVEKIT_API_SECRET },
    hlsBaseUrl: (e.HLS_BASE_URL ?? `${publicBaseUrl}/hls`).replace(/\/+$/, ''),
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : undefined,
    llm: e.LLM_BASE_URL
      ? { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL ?? 'gpt-4o-mini' }
      : undefined,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_PORT !== undefined ? { port: e.METRICS_PORT, host: e.METRICS_HOST } : undefined,
    apiLimits: {
      windowSeconds: e.API_LIMIT_WINDOW_SECONDS,
      key: { read: e.API_LIMIT_KEY_READS, write: e.API_LIMIT_KEY_WRITES },
      workspace: { read: e.API_LIMIT_WORKSPACE_READS, write: e.API_LIMIT_WORKSPACE_WRITES },
      tenantTurns: {
        perTenant: e.API_TENANT_CONCURRENCY,
        maxWaiting: e.API_TENANT_MAX_WAITING,
        maxWaitMs: e.API_TENANT_MAX_WAIT_MS,
      },
    },
    shutdown: { delayMs: e.SHUTDOWN_DELAY_MS, liveMoveMs: e.LIVE_DRAIN_MS },
    secureCookies: publicBaseUrl.startsWith('https://'),
    rateLimitOverrides: e.RATE_LIMITS,
    retentionOverrides: e.RETENTION,
    http: {
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      capLoopback: e.CAP_LOOPBACK_ADDRESSES,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    },
    scheduledJobsIntervalMs: e.SCHEDULED_JOBS_INTERVAL_MS,
  };
}
