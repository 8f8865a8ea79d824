import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express, Request } from 'express';

/**
 * `req.em`, the request's own fork of the ORM's entity manager, is made on first use: the hot paths
 * that read and write through the plain pool (listing and creating events with an API key) never
 * need one, and a fork per request is measurable work and garbage.
 */
export function forkEntityManagerOnFirstUse(app: Express, orm: MikroORM): void {
  const own = (req: Request, value: Request['em']) =>
    Object.defineProperty(req, 'em', { value, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(app.request, 'em', {
    configurable: true,
    get(this: Request) {
      const em = orm.em.fork();
      own(this, em);
      return em;
    },
    set(this: Request, value: Request['em']) {
      own(this, value);
    },
  });
}
