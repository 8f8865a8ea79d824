import { execFile } from 'node:child_process';

export interface CommandResult {
  /** The exit code; null when the command was killed (its timeout, or a signal). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without blocking this test worker. A worker must stay responsive:
 * vitest's worker has to hear back from its runner within 60 s, and a synchronous build, linter
 * or `apt-get install` on a loaded 2-core machine takes longer than that; the run then fails with
 * "Timeout calling onTaskUpdate" although every test passed. Never rejects: callers read `status`.
 */
export function runCommand(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env,
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        const code = (err as { code?: unknown } | null)?.code;
        resolve({ status: err ? (typeof code === 'number' ? code : null) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * Installs Debian packages a test needs when they are missing (the test machines run as root with
 * apt). One install at a time across the suite's workers: apt refuses a second apt-get while one
 * holds its lock rather than waiting, and a fresh machine's first run installs haproxy and chromium
 * from two workers at once.
 */
export async function aptInstall(packages: string[]): Promise<CommandResult> {
  const wait = '-o DPkg::Lock::Timeout=600';
  const script = `apt-get ${wait} update -qq && apt-get ${wait} install -y -qq ${packages.join(' ')}`;
  return runCommand('flock', ['/tmp/gathercast-test-apt.lock', 'sh', '-c', script], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeoutMs: 900_000,
  });
}
