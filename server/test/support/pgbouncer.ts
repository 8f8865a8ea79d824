import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { aptInstall } from './commands';
import { freePort } from './ports';

const run = promisify(execFile);

/** Debian's pgbouncer, installed when missing (the test machines run as root with apt). */
async function ensurePgbouncer(): Promise<string> {
  const found = await run('sh', ['-c', 'command -v pgbouncer || ls /usr/sbin/pgbouncer']).catch(
    () => undefined,
  );
  if (found?.stdout.trim()) return found.stdout.trim().split('\n')[0]!;
  const install = await aptInstall(['pgbouncer']);
  if (install.status !== 0) throw new Error(`apt-get install pgbouncer failed:\n${install.stderr}`);
  return '/usr/sbin/pgbouncer';
}

export interface Pooler {
  /** `databaseUrl` as reached through the pooler. */
  url: string;
  close(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of `databaseUrl`'s server, as managed PostgreSQL offers it:
 * each transaction may run on another server connection, so nothing session-scoped (named prepared
 * statements, LISTEN, session advisory locks) survives between two of them.
 */
export async function startPgbouncer(databaseUrl: string): Promise<Pooler> {
  const binary = await ensurePgbouncer();
  const upstream = new URL(databaseUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'gc-pgbouncer-'));
  chmodSync(dir, 0o755);
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      // auth_type any: the pooler logs in upstream as this user, with its password where the server
      // asks for one (the embedded PostgreSQL of a run without DATABASE_URL does).
      `* = host=${upstream.hostname} port=${upstream.port || 5432} user=${decodeURIComponent(upstream.username || 'postgres')}${upstream.password ? ` password=${decodeURIComponent(upstream.password)}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 60',
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n'),
    { mode: 0o644 },
  );
  // PgBouncer refuses to run as root: it drops to `nobody` when started so.
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const pooled = new URL(databaseUrl);
  pooled.hostname = '127.0.0.1';
  pooled.port = String(port);
  const url = pooled.toString();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`pgbouncer did not answer: ${(err as Error).message}\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
