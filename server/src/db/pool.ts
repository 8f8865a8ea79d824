import pg from 'pg';

/** What the hot-path readers need from a pool (a pg.Pool, or a client in tests). */
export type Queryable = Pick<pg.Pool, 'query'>;

/** Connections the pool opens at start and keeps through idle periods (see `warmUp`). */
const warmConnections = 4;

/**
 * A plain pg pool beside the ORM, for the queries every request makes (authentication): named
 * prepared statements with no query-builder work in between. `transactionPooled` (DATABASE_URL is a
 * transaction-mode PgBouncer): every statement goes unnamed, since a name prepared on one server
 * connection is unknown, or already exists, on the next one the pooler hands out.
 */
export function createPool(
  connectionString: string,
  onError: (err: Error) => void,
  options: { transactionPooled?: boolean } = {},
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 10, min: warmConnections, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', onError);
  if (options.transactionPooled) pool.on('connect', unnameStatements);
  return pool;
}

/** Drops `name` from every query config this client runs (pool.query runs on such a client too). */
function unnameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && 'name' in config) {
      const { name: _unnamed, ...unnamed } = config as Record<string, unknown>;
      return query(unnamed, ...rest);
    }
    return query(config, ...rest);
  };
}

/**
 * Opens the pool's first connections before the server listens: a connection costs a backend
 * process and tens of milliseconds, which the first requests (and a live event's first joins, whose
 * presence group and reads run here at once) would otherwise wait for one after another.
 */
export async function warmUp(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: warmConnections }, () => pool.connect()));
  for (const client of clients) client.release();
}

/** Runs `fn` in a transaction on one pooled connection; commits, or rolls back and rethrows; always returns the connection. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * `withTransaction` holding a transaction-scoped advisory lock on `lockKey` (serializing every caller
 * with the same key across processes).
 */
export function withLockedTransaction<T>(
  pool: pg.Pool,
  lockKey: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [lockKey]);
    return fn(client);
  });
}
