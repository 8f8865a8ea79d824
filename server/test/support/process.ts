import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { liftedLimits } from './lifted-limits';
import { freePort } from './ports';
import { fastWebhookEnv } from './webhook-server';

export const serverEntry = path.resolve(__dirname, '../../src/main.ts');

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Runs the real server entry point as a child process: src/main.ts through tsx, or a built bundle
 * (`entry` ending in .js).
 */
const immediateShutdown = { SHUTDOWN_DELAY_MS: '0', LIVE_DRAIN_MS: '0' };

export function spawnServer(env: Record<string, string>, entry = serverEntry): ServerProcess {
  let out = '';
  const args = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
  // The run's own REDIS_URL is not handed down: a child runs on Redis only when its test asks (with
  // testRedisUrl()), so a CI that sets REDIS_URL still tests the PostgreSQL backend too.
  const { REDIS_URL: _runRedis, ...inherited } = process.env;
  const child = spawn(process.execPath, args, {
    // A stopped child exits at once: the drain's balancer delay and live slices are production's
    // (docs/deploy.md); a test of the drain passes its own SHUTDOWN_DELAY_MS and LIVE_DRAIN_MS.
    env: { ...inherited, NODE_ENV: 'production', LOG_LEVEL: 'info', ...immediateShutdown, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Sized for a spawned server (tsx compiling on start) on a loaded 2-core machine. */
export async function waitForReady(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} not ready within ${timeoutMs} ms`);
}

/**
 * A server child process that a crash test kills and starts again at the same URL, against the same
 * database: on a port of its own, with the fast webhook knobs, plain-http receivers allowed and
 * warnings only in its log; `env` adds to (or overrides) that.
 */
export class ChildServer {
  private proc: ServerProcess | undefined;

  private constructor(
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = new ChildServer(url, {
      ...fastWebhookEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      PUBLIC_BASE_URL: url,
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LOG_LEVEL: 'warn',
      ...liftedLimits,
      ...env,
    });
    await server.restart();
    return server;
  }

  /** Starts the process (again, after `kill`) and waits until it answers /readyz. */
  async restart(): Promise<void> {
    this.proc = spawnServer(this.env);
    await waitForReady(this.url);
  }

  /** Sends `signal` without waiting (SIGSTOP and SIGCONT freeze and thaw the process). */
  signal(signal: NodeJS.Signals): void {
    this.proc?.child.kill(signal);
  }

  /** Sends `signal` and waits for the process to exit (at once when it already has). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.proc) return;
    if (this.proc.child.exitCode === null && this.proc.child.signalCode === null)
      this.proc.child.kill(signal);
    await this.proc.exited;
  }
}
