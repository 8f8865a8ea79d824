import { Router } from 'express';
import { buildInfo } from '../lib/build-info';
import type { AppContext } from '../lib/context';
import { problem } from '../lib/problem';
import type { ShutdownState } from './shutdown-state';

/**
 * One part the process needs to serve; `check` rejects when it cannot. `disabled` parts are not
 * checked; a `degraded` part is down but the process still serves without it (Redis: REST goes on,
 * the live plane waits for it), so it is reported without taking the process out of rotation.
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<'ok' | 'disabled' | 'degraded'>;
}

const checkTimeoutMs = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** The database answers on both the ORM's pool and the hot-path pool. */
export function databaseCheck({ orm, pool }: AppContext): ReadinessCheck {
  return {
    name: 'database',
    check: async () => {
      await Promise.all([orm.em.getConnection().execute('select 1'), pool.query('select 1')]);
      return 'ok';
    },
  };
}

/**
 * /healthz: the process is up (liveness). /readyz: every part it needs answers (database, the webhook
 * worker, Redis when configured); 503 problem+json naming the failing parts otherwise, and from the
 * moment a shutdown starts. /version: the build.
 */
export function healthRouter(
  ctx: AppContext,
  checks: ReadinessCheck[] = [databaseCheck(ctx)],
  shutdown?: ShutdownState,
): Router {
  const router = Router();
  const build = buildInfo();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/version', (_req, res) => {
    res.json(build);
  });
  router.get('/readyz', async (req, res, next) => {
    // Out of rotation at once on SIGTERM, whatever the parts say: the process still serves what it has.
    if (shutdown?.leavingRotation) {
      next(
        problem('service_unavailable', 'Not ready: the process is shutting down', {
          checks: { shutdown: 'draining' },
        }),
      );
      return;
    }
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          return { name: c.name, state: await withTimeout(c.check(), checkTimeoutMs), error: undefined };
        } catch (err) {
          return { name: c.name, state: 'failing' as const, error: err };
        }
      }),
    );
    const states = Object.fromEntries(results.map((r) => [r.name, r.state]));
    const failing = results.filter((r) => r.state === 'failing');
    if (!failing.length) {
      const status = results.some((r) => r.state === 'degraded') ? 'degraded' : 'ready';
      res.json({ status, checks: states, version: build.version, commit: build.commit });
      return;
    }
    for (const f of failing) req.log.warn({ err: f.error, check: f.name }, 'readiness check failed');
    const names = failing.map((f) => f.name).join(', ');
    // The same problem shape as every other error (rendered by the one error handler).
    next(problem('service_unavailable', `Not ready: ${names} not answering`, { checks: states }));
  });
  return router;
}
