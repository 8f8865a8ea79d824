import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { AppContext } from './app-context';
import type { Config } from './config';
import { CredentialChanges } from './db/credential-changes';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import { migrate, openOrm } from './db/orm';
import { createPool } from './db/pool';
import { createMailer } from './email/create-mailer';
import { GatewayTokens } from './gateway/gateway-tokens';
import { type AppOptions, createApp } from './http/app';
import { CredentialCache } from './http/credential-cache';
import { createRateLimitStore } from './http/rate-limit';
import { DomainEventBus } from './lib/domain-events';
import { LiveGateway, type LiveOptions } from './live/gateway';
import { startWebhooks } from './webhooks';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
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
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, logger);
    databaseUrl = embedded.url;
  }
  const orm = await openOrm(databaseUrl, logger);
  await migrate(orm, databaseUrl);
  const rateLimits = createRateLimitStore(orm, config.redisUrl);
  const pool = createPool(databaseUrl, (err) => logger.warn({ err }, 'idle database connection lost'));
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
  };
  const webhooks = await startWebhooks(ctx, databaseUrl);
  const app = createApp(ctx, appOptions);
  const live = await LiveGateway.start(ctx, databaseUrl, liveOptions);

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.on('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  live.attach(server);
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  logger.info(
    { port, publicBaseUrl: config.publicBaseUrl, embeddedDatabase: !!embedded },
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
      await webhooks.stop();
      await credentialChanges.stop();
      await rateLimits.close();
      await orm.close(true);
      await pool.end();
      await embedded?.stop();
      logger.info('stopped');
    })());

  return { url: `http://${host}:${port}`, port, ctx, close };
}
