import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { RequestAuth } from './lib/actor';

declare global {
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
      auth: RequestAuth;
      /** A request-scoped fork of the ORM's entity manager. */
      em: EntityManager;
    }
  }
}
