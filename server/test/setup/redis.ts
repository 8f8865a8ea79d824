import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { aptInstall } from '../support/commands';
import { freePort } from '../support/ports';

/** The Redis the run's Redis-backed tests use, and how to stop it if the run started it. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const localRedis = 'redis://127.0.0.1:6379';
const hasRedisServer = () => spawnSync('redis-server', ['--version']).status === 0;

async function answers(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * `REDIS_URL` when set; else a Redis already answering on 127.0.0.1:6379; else one started for the run
 * from `redis-server` (Debian's package, installed when missing), nothing kept on disk, stopped at the
 * end. When none can be had the run stops at once and says why, rather than failing the Redis-backed
 * tests one by one.
 */
export async function testRedis(): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given) return { url: given, stop: async () => {} };
  if (await answers(localRedis)) return { url: localRedis, stop: async () => {} };
  if (!hasRedisServer()) {
    // As the browser and load-balancer tests do for theirs: Debian's package when the machine has apt.
    const install = await aptInstall(['redis-server']);
    if (install.status !== 0 || !hasRedisServer()) {
      throw new Error(
        `The Redis-backed tests need a Redis: set REDIS_URL, run one on 127.0.0.1:6379, or install redis-server (apt-get install -y redis-server failed).\n${install.stderr}`,
      );
    }
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await answers(url, 200))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer within 10 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
