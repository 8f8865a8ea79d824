import type { Logger } from 'pino';
import { connectRedis, type RedisClient } from '../../lib/redis';
import { longestGapMs, type SlowModeStore } from '../control/slow-mode';

// KEYS: the sender's key. ARGV: the gap (ms), how long a line is kept (ms). Redis's clock decides.
const claimScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local last = tonumber(redis.call('GET', KEYS[1]))
local gap = tonumber(ARGV[1])
if last and now - last < gap then return gap - (now - last) end
redis.call('SET', KEYS[1], now, 'PX', ARGV[2])
return 0`;

/**
 * Slow mode in Redis (REDIS_URL set): per sender a key `gc:live:<namespace>:slow:{<eventId>}:<participantId>`
 * holding when their last line was taken, kept an hour (the longest gap) or the gap if longer.
 */
export class RedisSlowModeStore implements SlowModeStore {
  readonly #redis: RedisClient;

  constructor(
    redisUrl: string,
    logger: Logger,
    private readonly namespace: string,
  ) {
    // The lines of one event-loop turn go out as one write.
    this.#redis = connectRedis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.#redis.on('error', (err) => logger.warn({ err }, 'live slow mode Redis connection error'));
  }

  async claim(line: { eventId: string; participantId: string }, gapMs: number): Promise<number> {
    const key = `gc:live:${this.namespace}:slow:{${line.eventId}}:${line.participantId}`;
    return Number(await this.#redis.eval(claimScript, 1, key, gapMs, Math.max(gapMs, longestGapMs)));
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
