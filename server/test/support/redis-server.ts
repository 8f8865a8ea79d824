import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';

/** Whether a Redis answers PING at `url` within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
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

/** A `redis-server` this process started on `port` (extra `args` appended, `leading` before them: a config file); stopped with SIGTERM. */
export class RedisServer {
  private constructor(
    readonly url: string,
    private child: ChildProcess,
  ) {}

  static async start(port: number, args: string[] = [], leading: string[] = []): Promise<RedisServer> {
    const child = spawn(
      'redis-server',
      [...leading, '--port', String(port), '--bind', '127.0.0.1', ...args],
      {
        stdio: 'ignore',
      },
    );
    const url = `redis://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(url, 200))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server on port ${port} did not answer within 10 s`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return new RedisServer(url, child);
  }

  /** SIGTERM and wait for the exit (Redis saves its data first when it was started with a save point). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}
