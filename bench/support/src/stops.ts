// Everything a bench starts registers its stop here; `stopAll` runs them newest first, and an
// interrupted bench (Ctrl-C, SIGTERM) runs them too, so no database, directory or process outlives it.
import type { ChildProcess } from 'node:child_process';

const stops: (() => Promise<void>)[] = [];
const children = new Set<ChildProcess>();
let interruptedBy: NodeJS.Signals | undefined;

export function onStop(stop: () => Promise<void>): void {
  stops.push(stop);
}

/** Whether a signal is stopping the bench (a stop may then skip a graceful drain). */
export function interrupted(): boolean {
  return interruptedBy !== undefined;
}

/** Stops everything started, newest first; a failing stop does not keep the others from running. */
export async function stopAll(): Promise<void> {
  while (stops.length) {
    const stop = stops.pop()!;
    await stop().catch((err) => console.error(`cleanup: ${err instanceof Error ? err.message : err}`));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interruptedBy) process.exit(130);
    interruptedBy = signal;
    console.error(`\n${signal}: stopping everything the bench started`);
    void stopAll().finally(() => process.exit(130));
  });
}

/** A child process to kill if the bench dies without stopping it (an uncaught error). */
export function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Resolves when `child` has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Sends `signal` unless the child already exited, and waits for the exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited(child);
}
