import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Queryable } from './pool';

/**
 * Where a statement runs: the ORM's entity manager (inside its transaction when it has one), or a
 * plain pg client (the hot paths that write in bulk: a live join group, whose transaction is on the
 * pool with no query-builder work in between), or the pool itself for a single statement outside any
 * transaction.
 */
export type SqlTx = EntityManager | pg.ClientBase | pg.Pool | Queryable;

/**
 * Runs one SQL statement where `tx` says, inside its transaction when it has one
 * (`em.transactional(tx => sql(tx, ...))`; a bare `getConnection().execute` would silently run outside
 * it). Bindings are `?` (every `?`), whichever runs it: on a pg client they are sent as `$n`
 * parameters (the ORM inlines them as escaped literals, which for a group's JSON of a few hundred
 * rows is measurable).
 */
export async function sql<T = Record<string, unknown>>(
  tx: SqlTx,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if ('getConnection' in tx)
    return tx.getConnection().execute<T[]>(text, params, 'all', tx.getTransactionContext());
  const { rows } = await tx.query(positional(text), params);
  return rows as T[];
}

const positionalTexts = new Map<string, string>();

/**
 * `?` bindings as `$1`, `$2`, … Every `?` is a binding, as the ORM reads them (no `?` operators, not
 * even inside a quoted literal). Statement texts are a small fixed set, so each is converted once.
 */
export function positional(text: string): string {
  let converted = positionalTexts.get(text);
  if (converted === undefined) {
    let n = 0;
    converted = text.replace(/\?/g, () => `$${++n}`);
    if (positionalTexts.size < 1000) positionalTexts.set(text, converted);
  }
  return converted;
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
