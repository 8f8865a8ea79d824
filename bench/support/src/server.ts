// The real server as a child process: a port the OS hands out, the production node flags, and a wait
// for /readyz. The server runs with its own defaults (limits included) unless the caller's env says
// otherwise: each bench names what it lifts and why.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionNodeFlags } from '../../events/src/node-flags';
import { exited, interrupted, onStop, stopChild, track } from './stops';

const here = path.dirname(fileURLToPath(import.meta.url));
export const serverDir = path.resolve(here, '../../../server');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port the OS just handed out (a chosen one can collide with other work on the machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A child's stderr, passed on without the inspector's notices (a bench may attach to read memory). */
export function relayStderr(child: ChildProcess): void {
  let rest = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop()!;
    for (const line of lines)
      if (!/^(Debugger (listening|attached|ending)|For help, see: https:\/\/nodejs\.org)/.test(line))
        process.stderr.write(`${line}\n`);
  });
  child.stderr?.on('end', () => {
    if (rest) process.stderr.write(`${rest}\n`);
  });
}

export interface ServerOptions {
  /** For messages ("server a"). */
  name?: string;
  /** The database (see `freshDatabase`). */
  databaseUrl: string;
  /** Added to (and overriding) the bench's environment and the defaults below. */
  env?: Record<string, string>;
  /** Open an inspector on a free loopback port (for reading settled memory). */
  inspect?: boolean;
}

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** The inspector's port, when asked for. */
  inspectPort?: number;
  child: ChildProcess;
  /** SIGTERM and wait for the exit (the server drains). */
  stop(): Promise<void>;
  /** SIGKILL: a crash, nothing drained. */
  kill(): Promise<void>;
}

/**
 * Starts `server/src/main.ts` through tsx (BENCH_SERVER=dist: the built `server/dist/main.js`) in
 * production mode on loopback, and waits until /readyz answers 200. BENCH_PROFILE=<dir> writes a V8
 * CPU profile per server process when it stops. Stopped (SIGTERM; SIGKILL when interrupted) by `stopAll`.
 */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const name = options.name ?? 'server';
  const port = await freePort();
  const inspectPort = options.inspect ? await freePort() : undefined;
  const entry = process.env.BENCH_SERVER === 'dist' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  const inspector = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  // BENCH_NODE_FLAGS: extra node flags for the server only (say `--trace-gc`), space-separated.
  const extra = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...productionNodeFlags(), ...extra, ...inspector, ...profile, ...entry],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_BASE_URL: url,
        DATABASE_URL: options.databaseUrl,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
  relayStderr(child);
  track(child);
  // Interrupted: no drain (it would close every socket gracefully first), just stop.
  onStop(() => stopChild(child, interrupted() ? 'SIGKILL' : 'SIGTERM'));
  await waitReady(name, url, child);
  return {
    name,
    url,
    pid: child.pid!,
    inspectPort,
    child,
    stop: () => stopChild(child, 'SIGTERM'),
    kill: () => stopChild(child, 'SIGKILL'),
  };
}

async function waitReady(name: string, url: string, child: ChildProcess): Promise<void> {
  const gone = exited(child).then(() => 'exited' as const);
  for (const until = Date.now() + 180_000; ; ) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) while starting`);
    if (Date.now() > until) throw new Error(`${name} was not ready within 180 s`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {}
    await Promise.race([sleep(200), gone]);
  }
}
