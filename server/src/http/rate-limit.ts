import type { MikroORM } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { problem } from './problem';

export interface LimitOptions {
  /** Namespaces the counters, e.g. `login_email`. */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/**
 * A named counter window: `consume` counts one hit and refuses past the limit; `check` only reads.
 * Counters live in PostgreSQL (table rate_limit) or Redis, so every server process shares them.
 */
export class RateLimit {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  /** Counts one hit; throws 429 rate_limited (with Retry-After) once the window is full. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (err) {
      throw asProblem(err);
    }
  }

  /** Throws 429 if the window is already full, without counting. */
  async check(key: string): Promise<void> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.limiter.points) throw asProblem(res);
  }

  /** Counts one hit without refusing (e.g. a failed login after it was allowed). */
  async penalize(key: string): Promise<void> {
    await this.limiter.penalty(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

function asProblem(err: unknown) {
  if (err instanceof RateLimiterRes) {
    return problem('rate_limited', 'Too many attempts; try again later', {
      retryAfterSeconds: err.msBeforeNext / 1000,
    });
  }
  return err;
}

/** Builds every limiter of the service on one shared store. */
export interface RateLimitStore {
  limit(options: LimitOptions): RateLimit;
  close(): Promise<void>;
}

export function createRateLimitStore(orm: MikroORM, redisUrl: string | undefined): RateLimitStore {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    return {
      limit: (o) =>
        new RateLimit(
          new RateLimiterRedis({ storeClient: redis, keyPrefix: `gc_rl_${o.keyPrefix}`, points: o.points, duration: o.durationSeconds }),
        ),
      close: async () => {
        redis.disconnect();
      },
    };
  }
  const knex = orm.em.getConnection().getKnex();
  return {
    limit: (o) =>
      new RateLimit(
        new RateLimiterPostgres({
          storeClient: knex,
          storeType: 'knex',
          tableName: 'rate_limit',
          tableCreated: true, // created by the identity migration
          clearExpiredByTimeout: true,
          keyPrefix: o.keyPrefix,
          points: o.points,
          duration: o.durationSeconds,
        }),
      ),
    close: async () => {},
  };
}
