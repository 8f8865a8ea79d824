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

/** PostgreSQL's unique_violation, optionally on one named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || !!e.message?.includes(constraint);
}
