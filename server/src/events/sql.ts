import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs SQL on the entity manager's connection, inside its transaction when it has one
 * (`em.transactional(tx => sql(tx, ...))`). Bindings are `?`.
 */
export function sql<T = Record<string, unknown>>(
  em: EntityManager,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  return em.getConnection().execute<T[]>(query, params, 'all', em.getTransactionContext());
}

export const iso = (d: Date | string | null): string | null =>
  d === null ? null : new Date(d).toISOString();
