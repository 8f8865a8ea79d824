import { DatabaseSchema, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entities } from '../src/app/entities';
import { ormOptions } from '../src/db/orm';
import { createTestDatabase } from './support/database';

/**
 * Tables the entities do not describe, each for a stated reason. Everything else in the migrated
 * schema must be exactly what the entities declare.
 */
const notOwnedByTheOrm = [
  // Written by rate-limiter-flexible's RateLimiterPostgres in its own shape.
  'rate_limit',
];

let orm: MikroORM;

beforeAll(async () => {
  const options = ormOptions(await createTestDatabase(), entities);
  orm = await MikroORM.init({
    ...options,
    schemaGenerator: { ...options.schemaGenerator, skipTables: notOwnedByTheOrm },
  });
});

afterAll(() => orm?.close());

it('the entities declare the migrated schema exactly: tables, columns, defaults, indexes, uniques and checks', async () => {
  const em = orm.em.fork();
  const fromSchema = await DatabaseSchema.create(
    em.getConnection(),
    em.getPlatform(),
    orm.config,
    'public',
    undefined,
    undefined,
    notOwnedByTheOrm,
  );
  // Foreign keys are scalar ids in the entities (a domain's entities import no other domain's), so
  // their constraints are the one thing the migrations alone declare.
  for (const table of fromSchema.getTables()) {
    const foreignKeys = table.getForeignKeys();
    for (const name of Object.keys(foreignKeys)) delete foreignKeys[name];
  }
  const diff = await orm
    .getSchemaGenerator()
    .getUpdateSchemaSQL({ fromSchema, wrap: false, safe: false, dropTables: true });
  expect(diff).toBe('');
});
