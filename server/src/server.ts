import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppContext } from './lib/context';
import { ForegroundLoad } from './lib/foreground';
import type { Config } from './config';
import { CredentialChanges } from './db/credential-changes';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import { entities } from './app/entities';
import { buildRouter } from './app/routes';
import { migrate, openOrm } from './db/orm';
import { createPool, warmUp } from './db/pool';
import { createMailer } from './email/create-mailer';
import { GatewayTokens } from './lib/gateway-tokens';
import { type AppOptions, createApp } from './http/app';
import { answerClientErrors } from './http/client-errors';
import { databaseCheck } from './http/health';
import { startMetricsListener } from './http/metrics';
import { buildInfo } from './lib/build-info';
import { startTracing } from './lib/tracing';
import { pgPoolStats, setBuildInfo, trackPool } from './lib/metrics';
import { CredentialCache } from './lib/credential-cache';
import { createRateLimitStore } from './lib/rate-limits';
import { DomainEventBus } from './lib/domain-events';
import { LiveGateway, type LiveOptions } from './live/gateway';
import { startWebhooks, type Webhooks } from './webhooks';

/**
 * Connections the kernel queues before they are accepted (it caps this at net.core.somaxconn). Node's
 * default, 511, overflows when a crashed process's audience reconnects here at once: the kernel then
 * drops their handshakes and each client waits out a SYN retransmit (1, 3, 7, 15 s) before trying
 * again, so a failover's last viewers came back after 11-19 s instead of 5.
 */
const listenBacklog = 4096;

export interface RunningServer {
  url: string;
  port: number;
  /** The METRICS_PORT listener's port, when one was asked for. */
  metricsPort: number | undefined;
  ctx: AppContext;
  /** The webhook outbox subscriber and delivery worker of this process. */
  webhooks: Webhooks;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

const drainTimeoutMs = 10_000;

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
  const orm = await openOrm(databaseUrl, entities, logger);
  await migrate(orm, databaseUrl);
  const rateLimits = createRateLimitStore(orm, config.redisUrl, logger);
  const pool = createPool(databaseUrl, (err) => logger.warn({ err }, 'idle database connection lost'));
  await warmUp(pool);
  const credentialCache = new CredentialCache({ leaseMs: 3000, maxAgeMs: 60_000, maxEntries: 10_000 });
  const credentialChanges = new CredentialChanges(databaseUrl, credentialCache, pool, logger);
  await credentialChanges.start();
  const ctx: AppContext = {
    config,
    orm,
    pool,
    logger,
    bus: new DomainEventBus(),
    mailer: createMailer(config, logger),
    rateLimits,
    credentialCache,
    credentialChanges,
    gatewayTokens: await GatewayTokens.load(pool),
    foreground: new ForegroundLoad(),
  };
  const webhooks = await startWebhooks(ctx, databaseUrl);
  const build = buildInfo();
  setBuildInfo(build);
  const untrackPools = [trackPool('api', pgPoolStats(pool)), trackPool('orm', ormPoolStats(orm))];
  const readiness = [
    databaseCheck(ctx),
    { name: 'webhook_worker', check: () => webhooks.worker.readiness() },
    {
      name: 'redis',
      check: async () => {
        if (!config.redisUrl) return 'disabled' as const;
        await rateLimits.ping();
        return 'ok' as const;
      },
    },
  ];
  const app = createApp(ctx, buildRouter(ctx), { readiness, ...appOptions });
  const live = await LiveGateway.start(ctx, databaseUrl, liveOptions);

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, listenBacklog, () => {
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
  const metricsListener = config.metrics
    ? await startMetricsListener(config.metrics.port, config.metrics.host)
    : undefined;
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
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down: draining in-flight requests');
      // Sockets first: their participants leave (participant.left) while the database is still open.
      await live.close();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, drainTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      await metricsListener?.close();
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

  return { url: `http://${host}:${port}`, port, metricsPort: metricsListener?.port, ctx, webhooks, close };
}

/** The ORM's (knex/tarn) pool counts, for gathercast_db_pool_connections{pool="orm"}. */
function ormPoolStats(orm: MikroORM) {
  const knexPool = () =>
    (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
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
