import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

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
export function spawnServer(env: Record<string, string>, entry = serverEntry): ServerProcess {
  let out = '';
  const args = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
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
