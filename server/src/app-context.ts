import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from './config';

/** What every domain gets: configuration, the ORM and the logger. Domains add their own services. */
export interface AppContext {
  config: Config;
  orm: MikroORM;
  logger: Logger;
}
