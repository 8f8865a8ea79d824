// What the bench starts and must stop again: a database (a scratch one on DATABASE_URL, or an embedded
// PostgreSQL in a temporary directory), server processes, helper processes. Every start registers its
// stop; `stopAll` runs them newest first, and an interrupted bench (Ctrl-C, SIGTERM) runs them too.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { productionNodeFlags } from '../../events/src/node-flags';
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

/** A process's memory after a full garbage collection, in KiB. */
export interface SettledMemory {
  rssKb: number;
  /** V8 heap in use plus memory outside it (Buffers: socket and frame buffers). */
  heapAndExternalKb: number;
}

/**
 * Forces a full garbage collection in a process started with `--inspect=<port>` (through the
 * inspector protocol), then reads its `process.memoryUsage()`. Two readings taken this way compare
 * what is alive, not how much garbage happened to be waiting: a collection between two plain RSS
 * readings once made 10,000 sockets cost -3.4 KB each.
 */
export async function settledMemory(inspectPort: number): Promise<SettledMemory> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  type Answer = { id?: number; result?: { result?: { value?: string } } };
  const answers = new Map<number, (m: Answer) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as Answer;
    if (m.id !== undefined) answers.get(m.id)?.(m);
  });
  let next = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Answer>((resolve) => {
      const id = ++next;
      answers.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    // Twice: the first collection's finalizers (closed sockets' handles) free more for the second.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const answer = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const m = JSON.parse(answer.result!.result!.value!) as {
      rss: number;
      heapUsed: number;
      external: number;
    };
    return { rssKb: m.rss / 1024, heapAndExternalKb: (m.heapUsed + m.external) / 1024 };
  } finally {
    ws.close();
  }
}

/** The CPU seconds in a /proc/<pid>/stat line (user + system; clock ticks of 1/100 s). */
function cpuSecondsIn(stat: string): number {
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds a process has used (Linux /proc), 0 if unknown. */
function cpuSecondsOf(pid: number): number {
  try {
    return cpuSecondsIn(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return 0;
  }
}

/** CPU seconds of every process on the machine named `name` (its command), by pid. */
function cpuSecondsByName(name: string): Map<number, number> {
  const found = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return found;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      found.set(Number(pid), cpuSecondsIn(stat));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export interface CpuUse {
  /** % of one core. */
  server: number;
  loader: number;
  /**
   * Every `postgres` process on the machine (the bench's database is on it, or embedded): the share of
   * a join the server hands to PostgreSQL, which the baseline has none of. A backend that exits during
   * the phase is not counted, so this is a floor.
   */
  database: number;
  /** CPU seconds the process used. */
  serverSeconds: number;
  databaseSeconds: number;
}

/** CPU used by a process, by this one (the load generator) and by PostgreSQL over a phase. */
export function cpuMeter(pid: number): () => CpuUse {
  const started = performance.now();
  const server = cpuSecondsOf(pid);
  const database = cpuSecondsByName('postgres');
  const loader = process.cpuUsage();
  return () => {
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(loader);
    const serverSeconds = cpuSecondsOf(pid) - server;
    let databaseSeconds = 0;
    for (const [backend, now] of cpuSecondsByName('postgres'))
      databaseSeconds += now - (database.get(backend) ?? 0);
    return {
      serverSeconds,
      databaseSeconds,
      server: (100 * serverSeconds) / wall,
      loader: (100 * (used.user + used.system)) / 1e6 / wall,
      database: (100 * databaseSeconds) / wall,
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

/** A child's stderr, passed on without the inspector's notices (the bench attaches to read memory). */
function relayStderr(child: ChildProcess): void {
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

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** The inspector's port (loopback), for `settledMemory`. */
  inspectPort: number;
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
  // The production flags (server/package.json's start script), and an inspector for `settledMemory`.
  const inspectPort = await freePort();
  const flags = [...productionNodeFlags(), `--inspect=127.0.0.1:${inspectPort}`];
  const child = spawn(process.execPath, [...flags, ...profile, ...entry], {
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
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  relayStderr(child);
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
  return {
    name,
    url,
    pid: child.pid!,
    inspectPort,
    child,
    stop: () => stop('SIGTERM'),
    kill: () => stop('SIGKILL'),
  };
}

/** A helper process of this package (tsx), which sends `{ ready: ... }` over IPC once it listens. */
export async function startHelper<T>(
  script: string,
  env: Record<string, string>,
  /** Node flags before the loader (the baseline gets the server's, and an inspector). */
  flags: string[] = [],
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(path.join(here, script), [], {
    execArgv: [...flags, '--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  relayStderr(child);
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
