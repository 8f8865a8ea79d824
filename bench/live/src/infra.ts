// What the bench starts and must stop again: a database (a scratch one on DATABASE_URL, or an embedded
// PostgreSQL in a temporary directory), server processes, helper processes. Every start registers its
// stop; `stopAll` runs them newest first, and an interrupted bench (Ctrl-C, SIGTERM) runs them too.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../../../server/src/db/embedded';
import { createLogger } from '../../../server/src/logger';
import { createDatabase } from '../../events/src/seed';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../../../server');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const load = () => loadavg().map((x) => +x.toFixed(2));

const stops: (() => Promise<void>)[] = [];
const children = new Set<ChildProcess>();

export function onStop(stop: () => Promise<void>): void {
  stops.push(stop);
}

/** Stops everything started, newest first; a failing stop does not keep the others from running. */
export async function stopAll(): Promise<void> {
  while (stops.length) {
    const stop = stops.pop()!;
    await stop().catch((err) => console.error(`cleanup: ${err instanceof Error ? err.message : err}`));
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping everything the bench started`);
    void stopAll().finally(() => process.exit(130));
  });
}
// Last resort (an uncaught error): no child outlives the bench.
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/**
 * The PostgreSQL server the runs use: DATABASE_URL's (BENCH_DATABASE_URL first), else an embedded
 * PostgreSQL in a temporary directory, stopped and removed at the end. Returns a URL to create
 * databases with.
 */
export async function startPostgres(): Promise<{ adminUrl: string; kind: string }> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (given) return { adminUrl: given, kind: `PostgreSQL at ${new URL(given).host}` };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gc-bench-live-'));
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  onStop(async () => rmSync(dataDir, { recursive: true, force: true }));
  const embedded = await startEmbeddedPostgres(dataDir, createLogger('warn', sink));
  onStop(() => embedded.stop());
  return { adminUrl: embedded.url, kind: 'embedded PostgreSQL' };
}

/** A fresh, empty database for one run (the server migrates it on start), dropped at the end. */
export async function freshDatabase(adminUrl: string): Promise<string> {
  const db = await createDatabase(adminUrl);
  onStop(() => db.drop());
  return db.url;
}

/** A port the OS just handed out. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in KiB (Linux /proc), 0 where unavailable. */
export function rssKb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used (Linux /proc, user + system; clock ticks of 1/100 s), 0 if unknown. */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface CpuUse {
  /** % of one core. */
  server: number;
  loader: number;
  /** CPU seconds the process used. */
  serverSeconds: number;
}

/** CPU used by a process and by this one (the load generator) over a phase. */
export function cpuMeter(pid: number): () => CpuUse {
  const started = performance.now();
  const server = cpuSecondsOf(pid);
  const loader = process.cpuUsage();
  return () => {
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(loader);
    const serverSeconds = cpuSecondsOf(pid) - server;
    return {
      serverSeconds,
      server: (100 * serverSeconds) / wall,
      loader: (100 * (used.user + used.system)) / 1e6 / wall,
    };
  };
}

/** The soft limit on open files of this process (children inherit it), Infinity when unknown. */
export function openFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  /** SIGTERM and wait for the exit (the server drains: its sockets close with 1001). */
  stop(): Promise<void>;
  /** SIGKILL: a crash, nothing drained. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * The real server (`server/src/main.ts` through tsx, as the other benches run it; BENCH_SERVER=dist
 * runs the built `server/dist/main.js`) on the shared database, loopback only.
 */
export async function startServer(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dist = process.env.BENCH_SERVER === 'dist';
  // BENCH_PROFILE=<dir>: a V8 CPU profile per server process, written when it stops (not when killed).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  const entry = dist ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited(child);
    children.delete(child);
  };
  // Interrupted: no drain (it would fire every viewer's participant.left first), just stop.
  onStop(() => stop(interrupted ? 'SIGKILL' : 'SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; ; ) {
    if (child.exitCode !== null)
      throw new Error(`server ${name} exited with ${child.exitCode} while starting`);
    if (Date.now() > until) throw new Error(`server ${name} was not ready within 180 s`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    await sleep(200);
  }
  return { name, url, pid: child.pid!, child, stop: () => stop('SIGTERM'), kill: () => stop('SIGKILL') };
}

/** A helper process of this package (tsx), which sends `{ ready: ... }` over IPC once it listens. */
export async function startHelper<T>(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(path.join(here, script), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  onStop(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
    children.delete(child);
  });
  const ready = await new Promise<T>((resolve, reject) => {
    const onMessage = (m: { ready?: T }) => {
      if (m.ready === undefined) return;
      child.off('message', onMessage);
      resolve(m.ready);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, ready };
}

/** One request/answer over a helper's IPC channel. */
export function ask<T>(child: ChildProcess, request: Record<string, unknown>): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (m: { answer?: T }) => {
      if (m.answer === undefined) return;
      child.off('message', onMessage);
      resolve(m.answer);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}
