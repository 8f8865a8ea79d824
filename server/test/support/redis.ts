import { inject } from 'vitest';

/** The run's Redis (REDIS_URL when set; see test/setup/redis.ts), for servers started with the Redis backend. */
export const testRedisUrl = (): string => inject('redisUrl');
