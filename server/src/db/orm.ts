import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import { type EntitySchema, MikroORM, type Options, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { migrationsList } from './migrations';

/** The entity list comes from the composition root (`app/entities.ts`): db/ knows no domain. */
export function ormOptions(clientUrl: string, entities: EntitySchema[], logger?: Logger): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl,
    entities,
    extensions: [Migrator],
    discovery: { disableDynamicFileAccess: true, requireEntitiesArray: true },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    schemaGenerator: { ignoreSchema: ['graphile_worker'] },
    pool: { min: 0, max: 10 },
    forceUtcTimezone: true,
    debug: false,
    logger: (message: string) => logger?.debug({ orm: true }, message),
    // Entities are plain objects mapped to responses by hand; no implicit serialization.
    serialization: { forceObject: true },
    allowGlobalContext: false,
  };
}

export async function openOrm(clientUrl: string, entities: EntitySchema[], logger?: Logger): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, entities, logger));
}

/**
 * Applies every pending migration. Several processes may start at once on one database, so the
 * migrator runs under a session advisory lock held on a dedicated connection.
 */
export async function migrate(orm: MikroORM, clientUrl: string): Promise<void> {
  const lock = new pg.Client({ connectionString: clientUrl });
  // A connection lost mid-migration fails the migration's own query; the event must not also crash.
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(727274)');
    await orm.getMigrator().up();
  } finally {
    await lock.end();
  }
}
