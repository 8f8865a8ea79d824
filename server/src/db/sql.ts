import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs one SQL statement on the entity manager's connection, inside its transaction when it has one
 * (`em.transactional(tx => sql(tx, ...))`; a bare `getConnection().execute` would silently run outside it).
 * Bindings are `?`.
 */
export function sql<T = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
}

export const iso = (d: Date | string | null): string | null =>
  d === null ? null : new Date(d).toISOString();

/** A PostgreSQL error of one SQLSTATE, optionally on one named constraint or index. */
function isViolation(err: unknown, sqlState: string, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== sqlState) return false;
  return !constraint || e.constraint === constraint || !!e.message?.includes(constraint);
}

/** PostgreSQL's unique_violation, optionally on one named constraint or index. */
export const isUniqueViolation = (err: unknown, constraint?: string): boolean =>
  isViolation(err, '23505', constraint);

/** PostgreSQL's foreign_key_violation, optionally on one named constraint. */
export const isForeignKeyViolation = (err: unknown, constraint?: string): boolean =>
  isViolation(err, '23503', constraint);
