import { createServer, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { entities } from './app/entities';
import { buildRouter } from './app/routes';
import { attendanceJobs } from './attendance/jobs';
import type { Config } from './config';
import { CredentialChanges } from './db/credential-changes';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import { migrate, openOrm } from './db/orm';
import { createPool, warmUp } from './db/pool';
import { retentionCrontab, retentionJob, retentionTask, retentionWindows } from './db/retention';
import { createMailer } from './email/create-mailer';
import { EmailQueue, emailTask } from './email/queue';
import { GatewayTokens } from './gateway/tokens';
import { type AppOptions, createApp } from './http/app';
import { answerClientErrors } from './http/client-errors';
import { limitConnectionsPerAddress } from './http/connection-limits';
import { databaseCheck } from './http/health';
import { startMetricsListener } from './http/metrics';
import { ShutdownState } from './http/shutdown-state';
import { AbuseLimits } from './lib/abuse-limits';
import { buildInfo } from './lib/build-info';
import type { AppContext } from './lib/context';
import { CredentialCache } from './lib/credential-cache';
import { DomainEventBus } from './lib/domain-events';
import { ForegroundLoad } from './lib/foreground';
import { pgPoolStats, setBuildInfo, trackPool } from './lib/metrics';
import { createRateLimitStore } from './lib/rate-limits';
import { startTracing } from './lib/tracing';
import { LiveGateway, type LiveOptions } from './live/gateway';
import { registrantJobs } from './registrations/jobs';
import { startWebhooks, type Webhooks } from './webhooks';

/**
 * Connections the kernel queues before they are accepted (it caps this at net.core.somaxconn). Node's
 * default, 511, overflows when a crashed process's audience reconnects here at once: the kernel then
 * drops their handshakes and each client waits out a SYN retransmit (1, 3, 7, 15 s) before trying
 * again, so a failover's last viewers came back after 11-19 s instead of 5.
 */
const listenBacklog = 4096;

/**
 * How long a client may take to send its headers and its whole request (a slowloris holds a connection
 * by trickling them). Node checks its deadlines every `connectionsCheckingInterval` (30 s by default,
 * which would let a trickle live that long); an expired one is answered 408 request_timeout and closed.
 */
function httpServerOptions(http: Config['http']): ServerOptions {
  const headersTimeout = Math.min(http.headersTimeoutMs, http.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: http.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

export interface RunningServer {
  url: string;
  port: number;
  /** The METRICS_PORT listener's port, when one was asked for. */
  metricsPort: number | undefined;
  ctx: AppContext;
  /** Signs and verifies live-gateway tokens with the keys shared through the database. */
  gatewayTokens: GatewayTokens;
  /** The webhook outbox subscriber and delivery worker of this process. */
  webhooks: Webhooks;
  /**
   * Stops accepting connections, lets in-flight requests finish, then closes the database. With a
   * `plan` (SIGTERM) it first leaves the balancers' rotation and keeps serving for `delayMs`, and moves
   * live sockets away over `liveMoveMs` (docs/deploy.md, "Restarts without load-balancer retries").
   */
  close(plan?: ShutdownPlan): Promise<void>;
}

export interface ShutdownPlan {
  delayMs: number;
  liveMoveMs: number;
}

/** In-flight requests get this long after the listener closes; what is still open then is cut. */
export const requestDrainMs = 10_000;

export async function startServer(
  config: Config,
  logger: Logger,
  appOptions: AppOptions = {},
  liveOptions: LiveOptions = {},
): Promise<RunningServer> {
  // Before anything opens a database connection, so pg statements are traced from the start.
  const stopTracing = await startTracing(logger);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, logger);
    databaseUrl = embedded.url;
  }
  // Sessions (LISTEN, the migrations' advisory lock, the worker) bypass a transaction-mode pooler.
  const directUrl = config.databaseDirectUrl ?? databaseUrl;
  const orm = await openOrm(databaseUrl, entities, logger);
  await migrate(orm, directUrl);
  const rateLimits = createRateLimitStore(orm, config.redisUrl, logger);
  const pool = createPool(databaseUrl, (err) => logger.warn({ err }, 'idle database connection lost'), {
    transactionPooled: !!config.databaseDirectUrl,
  });
  await warmUp(pool);
  const credentialCache = new CredentialCache({ leaseMs: 3000, maxAgeMs: 60_000, maxEntries: 10_000 });
  const credentialChanges = new CredentialChanges(directUrl, credentialCache, pool, logger);
  await credentialChanges.start();
  const ctx: AppContext = {
    config,
    orm,
    pool,
    logger,
    bus: new DomainEventBus(),
    emails: new EmailQueue(createMailer(config, logger)),
    rateLimits,
    abuseLimits: new AbuseLimits(rateLimits, config.rateLimitOverrides),
    credentialCache,
    credentialChanges,
    foreground: new ForegroundLoad(),
  };
  const webhooks = await startWebhooks(ctx, directUrl, {
    tasks: {
      [emailTask]: ctx.emails.task(logger),
      [retentionTask]: retentionJob(pool, retentionWindows(config.retentionOverrides), logger),
    },
    crontab: retentionCrontab,
  });
  const build = buildInfo();
  setBuildInfo(build);
  const untrackPools = [trackPool('api', pgPoolStats(pool)), trackPool('orm', ormPoolStats(orm))];
  const readiness = [
    databaseCheck(ctx),
    { name: 'webhook_worker', check: () => webhooks.worker.readiness() },
    {
      name: 'redis',
      // Degraded, not failing: without Redis, REST serves on (local rate limits) and the live plane
      // reconnects by itself; pulling the process out of rotation would take everything down.
      check: async () => {
        if (!config.redisUrl) return 'disabled' as const;
        return rateLimits.ping().then(
          () => 'ok' as const,
          () => 'degraded' as const,
        );
      },
    },
  ];
  const shutdown = new ShutdownState();
  // The gateway first: the live room's REST routes act through its fan-out and presence.
  const gatewayTokens = await GatewayTokens.load(pool);
  const live = await LiveGateway.start(ctx, gatewayTokens, directUrl, liveOptions);
  const app = createApp(ctx, buildRouter(ctx, live, gatewayTokens), { readiness, shutdown, ...appOptions });
  const scheduledJobs = [registrantJobs(ctx), attendanceJobs(ctx)];
  for (const job of scheduledJobs) job.start();

  // Before the API listener: a metrics port that cannot be bound fails the start before any traffic
  // (or a balancer's readiness check) reaches the process, not after.
  const metricsListener = config.metrics
    ? await startMetricsListener(config.metrics.port, config.metrics.host)
    : undefined;
  const server: Server = await new Promise((resolve, reject) => {
    const s = createServer(httpServerOptions(config.http), app);
    limitConnectionsPerAddress(s, config.http, config.errorsBaseUrl, logger);
    s.listen(config.port, config.host, listenBacklog, () => {
      s.off('error', reject);
      // From now on an accept failure (EMFILE) is logged, not thrown out of the process.
      s.on('error', (err) => logger.error({ err }, 'HTTP server error'));
      resolve(s);
    });
    s.on('error', reject);
    answerClientErrors(s, config.errorsBaseUrl, logger);
  });
  server.keepAliveTimeout = 65_000;
  live.attach(server);
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  logger.info(
    {
      port,
      metricsPort: metricsListener?.port,
      publicBaseUrl: config.publicBaseUrl,
      embeddedDatabase: !!embedded,
      version: build.version,
      commit: build.commit,
    },
    'Gathercast API listening',
  );

  let closing: Promise<void> | undefined;
  const close = (plan: ShutdownPlan = { delayMs: 0, liveMoveMs: 0 }) =>
    (closing ??= (async () => {
      shutdown.leavingRotation = true;
      if (plan.delayMs) {
        logger.info(
          { delayMs: plan.delayMs },
          'shutting down: out of rotation, serving while balancers notice',
        );
        await new Promise((r) => setTimeout(r, plan.delayMs));
      }
      logger.info('shutting down: draining in-flight requests, moving live sockets');
      shutdown.closing = true;
      // Sockets move while requests drain; their participants' presence settles before the database closes.
      await Promise.all([live.close({ moveOverMs: plan.liveMoveMs }), drainRequests(server)]);
      await metricsListener?.close();
      await Promise.all(scheduledJobs.map((job) => job.stop()));
      await webhooks.stop();
      for (const untrack of untrackPools) untrack();
      await credentialChanges.stop();
      await rateLimits.close();
      await orm.close(true);
      await pool.end();
      await embedded?.stop();
      await stopTracing();
      logger.info('stopped');
    })());

  return {
    url: `http://${host}:${port}`,
    port,
    metricsPort: metricsListener?.port,
    ctx,
    gatewayTokens,
    webhooks,
    close,
  };
}

/** Closes the listener and idle keep-alives; answers still owed end their connections (`Connection: close`). */
function drainRequests(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, requestDrainMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The ORM's (knex/tarn) pool counts, for gathercast_db_pool_connections{pool="orm"}. */
function ormPoolStats(orm: MikroORM) {
  const knexPool = () => (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
  return () => {
    const p = knexPool();
    if (!p) return { total: 0, idle: 0, waiting: 0 };
    const used = p.numUsed();
    const idle = p.numFree();
    return { total: used + idle, idle, waiting: p.numPendingAcquires() };
  };
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}
