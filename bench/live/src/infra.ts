// What the live bench starts and must stop again, on top of bench/support (database, server processes,
// cleanup on exit and on Ctrl-C): the live server's settings, helper processes, and the readings the
// figures need (settled memory through the inspector, CPU from /proc).
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import * as support from '../../support/src/index';

export { freePort, load, sleep, startPostgres, stopAll } from '../../support/src/index';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A fresh database for one run (dropped at the end); its URL. */
export async function freshDatabase(adminUrl: string): Promise<string> {
  return (await support.freshDatabase(adminUrl)).url;
}

export interface ServerProcess extends support.ServerProcess {
  /** The inspector's port (loopback), for `settledMemory`. */
  inspectPort: number;
}

/**
 * The real server (bench/support's `startServer`: production mode, loopback, BENCH_SERVER=dist for the
 * built one) with an inspector, on `env.DATABASE_URL`.
 */
export async function startServer(
  name: string,
  env: Record<string, string> & { DATABASE_URL: string },
): Promise<ServerProcess> {
  const server = await support.startServer({
    name: `server ${name}`,
    databaseUrl: env.DATABASE_URL,
    inspect: true,
    env: {
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      // Every simulated viewer connects from 127.0.0.1. The per-address caps do not count loopback
      // peers by default (CAP_LOOPBACK_ADDRESSES); lifted too, so the bench holds whatever that says.
      LIVE_MAX_SOCKETS_PER_ADDRESS: '0',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000000',
      ...env,
    },
  });
  return { ...server, inspectPort: server.inspectPort! };
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
  support.relayStderr(child);
  support.track(child);
  support.onStop(() => support.stopChild(child));
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
