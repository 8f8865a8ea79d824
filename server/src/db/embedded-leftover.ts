import { readFileSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * A PostgreSQL left running on the embedded data directory. A server killed abruptly (SIGKILL, the
 * OOM killer) cannot stop the PostgreSQL it started: the postmaster keeps running, orphaned, and holds
 * the data directory, so every later start would fail. Before starting, the server looks at
 * `postmaster.pid` and decides:
 * - no lock, or its process is gone: nothing to do (PostgreSQL replaces a stale lock itself);
 * - the PID now belongs to an unrelated process (reused after a reboot or container restart): the
 *   lock is stale and removed;
 * - a postmaster on this directory whose parent is a running Node process: another server uses this
 *   DATA_DIR; refuse, naming it;
 * - a postmaster on this directory with no such parent (its server died): stop it (fast shutdown,
 *   which keeps every committed write), then start afresh.
 * Linux only (it reads /proc); elsewhere a running postmaster is reported, not stopped.
 */

const lockFile = (databaseDir: string) => path.join(databaseDir, 'postmaster.pid');

/** The message of a start that cannot go on; main.ts logs it as the one startup failure line. */
export class EmbeddedStartError extends Error {}

function readLockPid(databaseDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile(databaseDir), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const hasProc = () => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
};

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, …]; undefined when gone. */
function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Running (a zombie waiting to be reaped counts as gone: it holds nothing). */
function isRunning(pid: number): boolean {
  if (hasProc()) {
    const s = stat(pid);
    return !!s && s[0] !== 'Z' && s[0] !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function isNodeProcess(pid: number): boolean {
  let exe = '';
  try {
    exe = readlinkSync(`/proc/${pid}/exe`);
  } catch {
    exe = commandLine(pid).split(' ')[0] ?? '';
  }
  return /^node/.test(path.basename(exe));
}

async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isRunning(pid);
}

/** Fast shutdown (SIGINT: committed data is kept), then immediate shutdown (SIGQUIT) if it hangs. */
async function stopPostmaster(pid: number, databaseDir: string): Promise<void> {
  for (const [signal, ms] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new EmbeddedStartError(
        `a PostgreSQL left running on ${databaseDir} (pid ${pid}) cannot be stopped by this user: ${(err as Error).message}`,
      );
    }
    if (await waitUntilGone(pid, ms)) return;
  }
  throw new EmbeddedStartError(`a PostgreSQL left running on ${databaseDir} (pid ${pid}) did not stop within 40 s`);
}

/** Clears the way for the embedded PostgreSQL on `databaseDir` (see above); throws when it cannot. */
export async function releaseLeftoverPostgres(databaseDir: string, logger: Logger): Promise<void> {
  const pid = readLockPid(databaseDir);
  if (pid === undefined || pid === process.pid || !isRunning(pid)) return;
  if (!hasProc()) {
    throw new EmbeddedStartError(
      `a PostgreSQL (pid ${pid}) holds ${databaseDir}; if no server uses it, stop it (kill -INT ${pid}) and start again`,
    );
  }
  const command = commandLine(pid);
  if (!command.includes('postgres') || !command.includes(databaseDir)) {
    logger.warn({ pid, databaseDir }, 'removing a stale embedded PostgreSQL lock (its pid belongs to another process)');
    rmSync(lockFile(databaseDir), { force: true });
    return;
  }
  const parent = Number(stat(pid)?.[1]);
  if (parent > 1 && isRunning(parent) && isNodeProcess(parent)) {
    throw new EmbeddedStartError(
      `the embedded PostgreSQL on ${databaseDir} is in use by another running server (process ${parent}); stop it or give this server its own DATA_DIR`,
    );
  }
  logger.warn({ pid, databaseDir }, 'stopping the embedded PostgreSQL a crashed server left running');
  await stopPostmaster(pid, databaseDir);
  logger.info({ pid }, 'the leftover embedded PostgreSQL stopped');
}
