import { spawnSync } from 'node:child_process';
import { aptInstall } from '../support/commands';
import { freePort } from '../support/ports';
import { RedisServer, redisAnswers } from '../support/redis-server';

/** The Redis the run's Redis-backed tests use, and how to stop it if the run started it. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const localRedis = 'redis://127.0.0.1:6379';
const hasRedisServer = () => spawnSync('redis-server', ['--version']).status === 0;

/**
 * `REDIS_URL` when set; else a Redis already answering on 127.0.0.1:6379; else one started for the run
 * from `redis-server` (Debian's package, installed when missing), nothing kept on disk, stopped at the
 * end. When none can be had the run stops at once and says why, rather than failing the Redis-backed
 * tests one by one.
 */
export async function testRedis(): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given) return { url: given, stop: async () => {} };
  if (await redisAnswers(localRedis)) return { url: localRedis, stop: async () => {} };
  if (!hasRedisServer()) {
    // As the browser and load-balancer tests do for theirs: Debian's package when the machine has apt.
    const install = await aptInstall(['redis-server']);
    if (install.status !== 0 || !hasRedisServer()) {
      throw new Error(
        `The Redis-backed tests need a Redis: set REDIS_URL, run one on 127.0.0.1:6379, or install redis-server (apt-get install -y redis-server failed).\n${install.stderr}`,
      );
    }
  }
  const server = await RedisServer.start(await freePort(), ['--save', '', '--appendonly', 'no']);
  return { url: server.url, stop: () => server.stop() };
}
