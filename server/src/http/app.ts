import { contract } from '@gathercast/contract';
import { createExpressEndpoints, type RequestValidationError } from '@ts-rest/express';
import express from 'express';
import type { AppContext } from '../lib/context';
import { apiLimits } from './api-limits';
import { TenantTurns } from '../lib/tenant-turns';
import { tenantTurns } from './tenant-turns';
import { authenticate } from './auth';
import { cors } from './cors';
import { docsRouter } from '../docs/router';
import { healthRouter, type ReadinessCheck } from './health';
import type { ShutdownState } from './shutdown-state';
import { idempotency } from './idempotency';
import { checkInput, jsonMediaTypes } from './input-rules';
import { metricsRouter } from './metrics';
import { sendJsonDirectly } from './json-responses';
import { fieldErrors, problem } from '../lib/problem';
import { errorHandler } from './problem';
import { requestContext } from './request-context';
import { traceRequests } from './tracing';
import { onlyUnder, routeTable } from './route-table';
import { unmatchedRoute } from './unmatched-route';
import { forkEntityManagerOnFirstUse } from './request-entity-manager';
import { withResponseValidation } from './response-validation';

const jsonLimit = '1mb';

export interface AppOptions {
  /** Replaces authentication. Benchmarks only (bench/auth); no configuration reaches it. */
  authenticateOverride?: express.RequestHandler;
  /** false leaves HTTP requests out of /metrics. Benchmarks only (bench/events metrics-cost); no configuration reaches it. */
  httpMetrics?: boolean;
  /** What /readyz checks (the composition root adds the webhook worker and Redis); the database alone if unset. */
  readiness?: ReadinessCheck[];
  /** The graceful shutdown's state: /readyz and `Connection: close` follow it. */
  shutdown?: ShutdownState;
}

/** The HTTP edge around a completed router (one handler per contract route, built by `app/routes.ts`). */
export function createApp(ctx: AppContext, router: Record<string, unknown>, options: AppOptions = {}) {
  const { config, orm, logger } = ctx;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  sendJsonDirectly(app);
  forkEntityManagerOnFirstUse(app, orm);

  if (options.shutdown) app.use(options.shutdown.closeConnections());
  app.use(requestContext(app, logger, options.httpMetrics !== false));
  const tracing = traceRequests();
  if (tracing) app.use(tracing);
  app.use(cors(config.corsOrigins));
  app.use(onlyUnder(['/healthz', '/readyz', '/version'], healthRouter(ctx, options.readiness, options.shutdown)));
  app.use(onlyUnder(['/metrics'], metricsRouter(config)));
  app.use(onlyUnder(['/docs', '/v1/openapi.json'], docsRouter(config.errorsBaseUrl)));
  app.use(express.json({ limit: jsonLimit, type: jsonMediaTypes }));

  // Tests check every answer against the contract (ts-rest's own check cannot read pre-rendered JSON).
  const handlers = process.env.NODE_ENV === 'test' ? withResponseValidation(contract, router) : router;
  const routes = routeTable(app);
  app.use(routes.dispatch);
  // The completed router has a handler for every contract route (domain or 501), which ts-rest's type cannot see.
  createExpressEndpoints(contract, handlers as never, routes.sink, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    globalMiddleware: [
      options.authenticateOverride ?? authenticate(config, ctx.pool, ctx.credentialCache),
      apiLimits(ctx.rateLimits, config.apiLimits),
      tenantTurns(new TenantTurns(config.apiLimits.tenantTurns)),
      checkInput(),
      idempotency(),
    ],
    requestValidationErrorHandler: (err: RequestValidationError, _req, _res, next) => {
      if (err.pathParams) return next(problem('not_found', 'Resource not found'));
      const errors = [
        ...(err.headers ? fieldErrors(err.headers.issues, 'headers') : []),
        ...(err.query ? fieldErrors(err.query.issues, 'query') : []),
        ...(err.body ? fieldErrors(err.body.issues, 'body') : []),
      ];
      const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      next(problem('bad_request', `Invalid request: ${summary}`, { errors }));
    },
  });

  app.use(unmatchedRoute(app));
  app.use(errorHandler(config.errorsBaseUrl));
  return app;
}
