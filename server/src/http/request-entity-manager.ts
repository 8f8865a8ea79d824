import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import { lazyRequestProperty } from './lazy-request-property';

/**
 * `req.em`, the request's own fork of the ORM's entity manager, is made on first use: the hot paths
 * that read and write through the plain pool (listing and creating events with an API key) never
 * need one, and a fork per request is measurable work and garbage.
 */
export function forkEntityManagerOnFirstUse(app: Express, orm: MikroORM): void {
  lazyRequestProperty(app, 'em', () => orm.em.fork());
}
