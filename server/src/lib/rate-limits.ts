import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import {
  type RateLimiterAbstract,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { countRateLimitRefusal } from './metrics';
import { localFallbackLimiter, sharedCounterRedisOptions } from './rate-limit-fallback';
import { connectRedis } from './redis';
import { problem } from './problem';
import type { RateLimitState } from './rate-limit-state';

export type { RateLimitState };

export interface LimitOptions {
  /** Namespaces the counters, e.g. `login_email`. */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/**
 * A named counter window: `consume` counts one hit and refuses past the limit; `check` only reads.
 * Counters live in PostgreSQL (table rate_limit) or Redis, so every server process shares them.
 * Every method answers the client's standing after it, and a refusal carries it too (`extra.rateLimit`).
 */
export class RateLimit {
  constructor(
    private readonly limiter: RateLimiterAbstract,
    /** The limit's name (its key prefix), the label of the refusals metric. */
    private readonly name: string,
  ) {}

  /** Counts one hit; throws 429 rate_limited (with Retry-After) once the window is full. */
  async consume(key: string): Promise<RateLimitState> {
    try {
      return this.stateOf(await this.limiter.consume(key));
    } catch (err) {
      throw this.asProblem(err);
    }
  }

  /** Throws 429 if the window is already full, without counting. */
  async check(key: string): Promise<RateLimitState> {
    const res = await this.limiter.get(key);
    if (res && res.consumedPoints >= this.limiter.points) throw this.asProblem(res);
    return this.stateOf(res);
  }

  /** Counts one hit without refusing (e.g. a failed login after it was allowed). */
  async penalize(key: string): Promise<RateLimitState> {
    return this.stateOf(await this.limiter.penalty(key, 1));
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }

  private stateOf(res: RateLimiterRes | null): RateLimitState {
    const limit = this.limiter.points;
    const windowSeconds = this.limiter.duration;
    if (!res) return { limit, remaining: limit, resetSeconds: windowSeconds, windowSeconds };
    const resetSeconds = res.msBeforeNext > 0 ? Math.ceil(res.msBeforeNext / 1000) : windowSeconds;
    return { limit, remaining: Math.max(0, limit - res.consumedPoints), resetSeconds, windowSeconds };
  }

  private asProblem(err: unknown) {
    if (err instanceof RateLimiterRes) {
      countRateLimitRefusal(this.name);
      return problem('rate_limited', 'Too many attempts; try again later', {
        retryAfterSeconds: err.msBeforeNext / 1000,
        rateLimit: this.stateOf(err),
      });
    }
    return err;
  }
}

/** Of several windows that apply to one call, the one closest to refusing. */
export function tightest(states: RateLimitState[]): RateLimitState {
  return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

/** Builds every limiter of the service on one shared store. */
export interface RateLimitStore {
  limit(options: LimitOptions): RateLimit;
  /** The store's own server answers: Redis PING with REDIS_URL (readiness); PostgreSQL is checked elsewhere. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimitStore(
  orm: MikroORM,
  redisUrl: string | undefined,
  logger?: Pick<Logger, 'warn'>,
): RateLimitStore {
  if (redisUrl) {
    // The checks of one event-loop turn (a crowd taking gateway tokens) leave as one write; while Redis
    // is away every limit counts locally (rate-limit-fallback.ts) instead of failing the request.
    const redis = connectRedis(redisUrl, sharedCounterRedisOptions);
    // ioredis reconnects by itself; a lost connection goes to the log, not to raw stderr.
    redis.on('error', (err) => logger?.warn({ err }, 'rate limit Redis connection error'));
    return {
      limit: (o) =>
        new RateLimit(
          new RateLimiterRedis({
            storeClient: redis,
            keyPrefix: `gc_rl_${o.keyPrefix}`,
            points: o.points,
            duration: o.durationSeconds,
            insuranceLimiter: localFallbackLimiter(o),
          }),
          o.keyPrefix,
        ),
      ping: async () => {
        await redis.ping();
      },
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
        o.keyPrefix,
      ),
    ping: async () => {},
    close: async () => {},
  };
}
