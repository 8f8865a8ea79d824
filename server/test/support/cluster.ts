import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { aptInstall } from './commands';
import { createTestDatabase } from './database';
import { liftedLimits } from './lifted-limits';
import { startPgbouncer } from './pgbouncer';
import { freePort } from './ports';
import { waitForReady } from './process';
import { testRedisUrl } from './redis';
import { fastWebhookEnv } from './webhook-server';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const serverDir = path.resolve(__dirname, '../..');
export const repoDir = path.resolve(serverDir, '..');
/** The load balancer's configuration, the same file compose.yaml mounts. */
export const haproxyConfig = path.join(repoDir, 'deploy/haproxy.cfg');

/**
 * How the container image starts the server (the Dockerfile's CMD, run in a directory holding the
 * bundle under dist/). The cluster test starts its processes with exactly this command, and
 * ops.deploy.test.ts checks that the Dockerfile says the same.
 */
export const imageStartCommand = ['node', '--max-semi-space-size=16', 'dist/main.js'] as const;

export const clusterPlatformKey = 'cluster-platform-key';

export interface ApiProcess {
  name: string;
  /** Its own address, bypassing the balancer. */
  url: string;
  /** Its METRICS_PORT listener on loopback. */
  metricsUrl: string;
  /** The running child (replaced by a restart). */
  child: ChildProcess;
  output(): string;
  exited: Promise<unknown>;
}

export interface ClusterOptions {
  /** HAProxy's `retries` (deploy/haproxy.cfg's default when unset). */
  retries?: number;
  /** Added to every process's environment. */
  env?: Record<string, string>;
  /**
   * Request traffic through PgBouncer in transaction mode (DATABASE_URL), sessions straight to
   * PostgreSQL (DATABASE_DIRECT_URL), as a managed PostgreSQL deployment runs it.
   */
  pgbouncer?: boolean;
}

export interface Cluster {
  /** The balancer's address: what clients use. */
  url: string;
  databaseUrl: string;
  processes: ApiProcess[];
  /** How long building the bundle, starting the processes and the balancer took. */
  timings: { buildMs: number; processesReadyMs: number; balancerReadyMs: number };
  /** The balancer's log lines for requests that did not end normally (a 5xx, or a cut connection). */
  balancerTrouble(): string[];
  /**
   * A planned restart of one process, as an orchestrator does it: SIGTERM, wait for the exit, start
   * the same command on the same address, wait for /readyz. Resolves with the old process's exit code
   * and how long it took to exit.
   */
  restart(p: ApiProcess): Promise<{ exitCode: unknown; exitMs: number }>;
  /** Stops everything still running (balancer and processes). */
  close(): Promise<void>;
}

/** Debian's haproxy, installed when missing (the test machines run as root with apt). */
export async function ensureHaproxy(): Promise<string> {
  const found = await run('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy']).catch(() => undefined);
  if (found?.stdout.trim()) return found.stdout.trim().split('\n')[0]!;
  const install = await aptInstall(['haproxy']);
  if (install.status !== 0) throw new Error(`apt-get install haproxy failed:\n${install.stderr}`);
  return '/usr/sbin/haproxy';
}

/** Bundles the server as the image does (`pnpm build` → dist/main.js) into a fresh directory; returns it. */
export async function buildImageLayout(): Promise<string> {
  // Inside server/dist (ignored) so the bundle resolves its dependencies from server/node_modules.
  const root = path.join(serverDir, 'dist', `cluster-${randomBytes(4).toString('hex')}`);
  await run(
    process.execPath,
    [require.resolve('tsup/dist/cli-default.js'), '--out-dir', path.join(root, 'dist')],
    {
      cwd: serverDir,
    },
  ).catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`tsup failed:\n${err.stdout}\n${err.stderr}`);
  });
  return root;
}

function started(child: ChildProcess) {
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { output: () => out, exited };
}

/** Waits for `url`/readyz to answer 200; fails with the process's output if it exits first. */
async function readyOrExited(
  name: string,
  url: string,
  proc: { exited: Promise<unknown>; output(): string },
  ms: number,
) {
  let ready = false;
  const exited = proc.exited.then((code) => {
    if (!ready) throw new Error(`exited (${code}) before it was ready`);
  });
  exited.catch(() => undefined);
  await Promise.race([waitForReady(url, ms), exited]).catch((err: Error) => {
    throw new Error(`${name}: ${err.message}\n${proc.output()}`);
  });
  ready = true;
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await exited;
}

/**
 * Three API processes on one fresh database and one Redis, each started with the image's command,
 * behind HAProxy running deploy/haproxy.cfg. The processes trust the balancer's X-Forwarded-For and
 * announce the balancer as their public address, so gateway tokens point clients at it.
 */
export async function startCluster(size = 3, options: ClusterOptions = {}): Promise<Cluster> {
  const began = Date.now();
  const [haproxy, layout, databaseUrl] = await Promise.all([
    ensureHaproxy(),
    buildImageLayout(),
    createTestDatabase(),
  ]);
  const timings = { buildMs: Date.now() - began, processesReadyMs: 0, balancerReadyMs: 0 };
  const pooler = options.pgbouncer ? await startPgbouncer(databaseUrl) : undefined;
  const balancerPort = await freePort();
  const url = `http://127.0.0.1:${balancerPort}`;
  const processes: ApiProcess[] = [];
  let balancer: { child: ChildProcess; exited: Promise<unknown>; output(): string } | undefined;
  const close = async () => {
    await Promise.all([
      ...(balancer ? [stop(balancer.child, balancer.exited)] : []),
      ...processes.map((p) => stop(p.child, p.exited)),
    ]);
    await pooler?.close();
    rmSync(layout, { recursive: true, force: true });
  };
  const launch = (port: string, metricsPort: string) => {
    const [command, ...args] = imageStartCommand;
    const child = spawn(command === 'node' ? process.execPath : command, args, {
      cwd: layout,
      env: {
        ...process.env,
        ...fastWebhookEnv,
        NODE_ENV: 'production',
        PORT: port,
        HOST: '127.0.0.1',
        DATABASE_URL: pooler?.url ?? databaseUrl,
        ...(pooler ? { DATABASE_DIRECT_URL: databaseUrl } : {}),
        REDIS_URL: testRedisUrl(),
        PUBLIC_BASE_URL: url,
        TRUST_PROXY: 'true',
        PLATFORM_KEY: clusterPlatformKey,
        METRICS_PORT: metricsPort,
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        LOG_LEVEL: 'warn',
        // A test's burst of calls through one address is not a tenant's traffic (support/lifted-limits.ts).
        ...liftedLimits,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { child, ...started(child) };
  };
  const restart = async (p: ApiProcess) => {
    const stoppedAt = Date.now();
    p.child.kill('SIGTERM');
    const exitCode = await p.exited;
    const exitMs = Date.now() - stoppedAt;
    Object.assign(p, launch(new URL(p.url).port, new URL(p.metricsUrl).port));
    // As long as a first start is given: a loaded 2-core machine may take most of it.
    await readyOrExited(p.name, p.url, p, 180_000);
    return { exitCode, exitMs };
  };
  try {
    for (let i = 1; i <= size; i++) {
      const [port, metricsPort] = [await freePort(), await freePort()];
      processes.push({
        name: `api${i}`,
        url: `http://127.0.0.1:${port}`,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
        ...launch(String(port), String(metricsPort)),
      });
    }
    await Promise.all(processes.map((p) => readyOrExited(p.name, p.url, p, 180_000)));
    timings.processesReadyMs = Date.now() - began - timings.buildMs;
    const child = spawn(haproxy, ['-db', '-f', haproxyConfig], {
      env: {
        ...process.env,
        LISTEN: `127.0.0.1:${balancerPort}`,
        CHECK_INTERVAL: '250ms',
        HAPROXY_LOG_LEVEL: 'info',
        ...(options.retries === undefined ? {} : { RETRIES: String(options.retries) }),
        ...Object.fromEntries(processes.map((p) => [p.name.toUpperCase(), p.url.replace('http://', '')])),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    balancer = { child, ...started(child) };
    await readyOrExited('haproxy', url, balancer, 30_000);
    timings.balancerReadyMs = Date.now() - began - timings.buildMs - timings.processesReadyMs;
  } catch (err) {
    await close();
    throw err;
  }
  // httplog: `… backend/server Tq/Tw/Tc/Tr/Ta status bytes - - ---- …`; four dashes end a request normally.
  const normal = / [1-4]\d\d \d+ - - ---- /;
  const balancerTrouble = () =>
    (balancer?.output() ?? '')
      .split('\n')
      .filter((l) => l.includes('api_processes/') && !normal.test(l))
      .map((l) => l.slice(0, 200));
  return { url, databaseUrl, processes, timings, balancerTrouble, restart, close };
}

/**
 * One process's metrics text from its METRICS_PORT. A refused or cut connection is tried again for a
 * moment (a loaded machine), then reported with its cause and the process's last output: "fetch failed"
 * alone says nothing about which process or why.
 */
export async function metricsText(p: ApiProcess): Promise<string> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await (await fetch(p.metricsUrl)).text();
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const cause = (lastError as { cause?: { code?: string; message?: string } }).cause;
  throw new Error(
    `${p.name}'s metrics at ${p.metricsUrl} unreachable (${cause?.code ?? cause?.message ?? String(lastError)}); ` +
      `process ${p.child.exitCode === null ? 'running' : `exited ${p.child.exitCode}`}, last output:\n` +
      p.output().slice(-2000),
  );
}

/** One process's metric value (series name with its exact label text), read from its METRICS_PORT. */
export async function metricOf(p: ApiProcess, series: string): Promise<number> {
  const text = await metricsText(p);
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
