import pg from 'pg';

/** What the hot-path readers need from a pool (a pg.Pool, or a client in tests). */
export type Queryable = Pick<pg.Pool, 'query'>;

/**
 * A plain pg pool beside the ORM, for the queries every request makes (authentication): named
 * prepared statements with no query-builder work in between.
 */
export function createPool(connectionString: string, onError: (err: Error) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 10, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', onError);
  return pool;
}
