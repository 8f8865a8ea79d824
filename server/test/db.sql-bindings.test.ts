import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../src/app/entities';
import { openOrm } from '../src/db/orm';
import { positional, sql } from '../src/db/sql';
import { createTestDatabase } from './support/database';
import { withDb } from './support/fixtures';

/**
 * `sql()` runs the same `?`-bound statement in an ORM transaction or on a plain pg client (the live
 * join group's), with the same result: every `?` is a binding, and a bound value is never SQL.
 */
let databaseUrl: string;
let orm: MikroORM;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  orm = await openOrm(databaseUrl, entities);
});
afterAll(async () => {
  await orm?.close(true);
});

const statement = 'select ?::text as a, ?::int + 1 as b, ?::jsonb as c';
const params = ["it's ? $1", 2, JSON.stringify({ q: "'?'" })];
const expected = [{ a: "it's ? $1", b: 3, c: { q: "'?'" } }];

describe('sql() bindings', () => {
  it('numbers the bindings for a pg client', () => {
    expect(positional(statement)).toBe('select $1::text as a, $2::int + 1 as b, $3::jsonb as c');
  });

  it('gives the same rows on a pg client as in an ORM transaction', async () => {
    const onClient = await withDb(databaseUrl, (db) => sql(db, statement, params));
    const inOrm = await orm.em.fork().transactional((tx) => sql(tx, statement, params));
    expect(onClient).toEqual(expected);
    expect(inOrm).toEqual(expected);
  });
});
