import { Router } from 'express';
import type { AppContext } from '../app-context';

/** /healthz: the process is up. /readyz: the database answers. */
export function healthRouter({ orm }: AppContext): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      res.json({ status: 'ready' });
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed');
      res.status(503).type('application/problem+json').send(
        JSON.stringify({ type: 'about:blank', code: 'service_unavailable', detail: 'The database is not reachable' }),
      );
    }
  });
  return router;
}
