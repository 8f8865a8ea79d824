import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../lib/context';
import type { SlowModeStore } from '../control/slow-mode';
import type { Fanout } from '../fanout';
import type { PresenceStore, PresenceTiming } from '../presence-store';
import { timedFanout } from './fanout-metrics';
import { PgFanout } from './fanout-pg';
import { RedisFanout } from './fanout-redis';
import { PgPresenceStore } from './presence-pg';
import { RedisPresenceStore } from './presence-redis';
import { PgSlowModeStore } from './slow-mode-pg';
import { RedisSlowModeStore } from './slow-mode-redis';

/** What the processes of a deployment share: the event streams (fan-out), presence and slow mode. */
export interface LiveBackends {
  fanout: Fanout;
  store: PresenceStore;
  slowMode: SlowModeStore;
}

/**
 * PostgreSQL by default; Redis for all three with REDIS_URL. The fan-out is not started here: it starts
 * with the function that delivers its envelopes.
 */
export async function liveBackends(
  ctx: AppContext,
  databaseUrl: string,
  timing: PresenceTiming,
): Promise<LiveBackends> {
  // Presence entries are per process: a restarted process starts afresh, its old entries expire.
  const processId = randomUUID();
  const redisUrl = ctx.config.redisUrl;
  // Redis keys and channels are per deployment, i.e. per database, so deployments can share a Redis.
  const { rows } = await ctx.pool.query<{ db: string }>('select current_database() as db');
  const namespace = rows[0]!.db;
  let store: PresenceStore;
  if (redisUrl) {
    const redisStore = new RedisPresenceStore(redisUrl, processId, timing, ctx.logger, namespace);
    await redisStore.start();
    store = redisStore;
  } else store = new PgPresenceStore(ctx.pool, processId, timing);
  const limits = ctx.config.liveHistory;
  const fanout = timedFanout(
    redisUrl
      ? new RedisFanout(redisUrl, ctx.logger, namespace, limits)
      : new PgFanout(databaseUrl, ctx.pool, ctx.logger, limits),
  );
  const slowMode = redisUrl
    ? new RedisSlowModeStore(redisUrl, ctx.logger, namespace)
    : new PgSlowModeStore(ctx.pool);
  return { fanout, store, slowMode };
}
