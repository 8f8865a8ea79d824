import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { CredentialChanges } from '../db/credential-changes';
import type { EmailQueue } from '../email/queue';
import type { AbuseLimits } from './abuse-limits';
import type { CredentialCache } from './credential-cache';
import type { DomainEventBus } from './domain-events';
import type { ForegroundLoad } from './foreground';
import type { RateLimitStore } from './rate-limits';

/** What every domain gets: configuration, the ORM and the logger. Domains add their own services. */
export interface AppContext {
  config: Config;
  orm: MikroORM;
  /** A plain pool for per-request hot paths (authentication). */
  pool: pg.Pool;
  logger: Logger;
  /** The internal event bus: outbox rows written in the transaction of each change. */
  bus: DomainEventBus;
  /** Every email goes out through this durable queue: `emails.enqueue(tx, email)` in the change's transaction. */
  emails: EmailQueue;
  /** Rate-limit counters shared by every server process (PostgreSQL, or Redis with REDIS_URL). */
  rateLimits: RateLimitStore;
  /** Per client address and per target email on calls that send email or create accounts (lib/abuse-limits.ts). */
  abuseLimits: AbuseLimits;
  /** Credentials resolved on earlier requests; see lib/credential-cache.ts. */
  credentialCache: CredentialCache;
  /** Await `credentialChanges.propagated()` after committing a revocation, before answering. */
  credentialChanges: CredentialChanges;
  /** Bursts someone waits on (a crowd joining a live event); background work (webhook deliveries) yields to them. */
  foreground: ForegroundLoad;
}
