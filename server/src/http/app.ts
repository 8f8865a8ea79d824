import { contract } from '@gathercast/contract';
import { createExpressEndpoints, type RequestValidationError } from '@ts-rest/express';
import express from 'express';
import type { AppContext } from '../app-context';
import { authenticate } from './auth';
import { cors } from './cors';
import { docsRouter } from './docs';
import { healthRouter } from './health';
import { idempotency } from './idempotency';
import { sendJsonTextVerbatim } from './json-text-responses';
import { errorHandler, fieldErrors, notFoundHandler, problem } from './problem';
import { requestContext } from './request-context';
import { forkEntityManagerOnFirstUse } from './request-entity-manager';
import { withResponseValidation } from './response-validation';
import { buildRouter } from './routes';

const jsonLimit = '1mb';

export interface AppOptions {
  /** Replaces authentication. Benchmarks only (bench/auth); no configuration reaches it. */
  authenticateOverride?: express.RequestHandler;
}

export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const { config, orm, logger } = ctx;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  sendJsonTextVerbatim(app);
  forkEntityManagerOnFirstUse(app, orm);

  app.use(requestContext(logger));
  app.use(cors(config.corsOrigins));
  app.use(healthRouter(ctx));
  app.use(docsRouter());
  app.use(express.json({ limit: jsonLimit, type: ['application/json', 'application/*+json'] }));

  // Tests check every answer against the contract (ts-rest's own check cannot read pre-rendered JSON).
  const router = buildRouter(ctx);
  const handlers = process.env.NODE_ENV === 'test' ? withResponseValidation(contract, router) : router;
  // The completed router has a handler for every contract route (domain or 501), which ts-rest's type cannot see.
  createExpressEndpoints(contract, handlers as never, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    globalMiddleware: [options.authenticateOverride ?? authenticate(config, ctx.pool, ctx.credentialCache), idempotency()],
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

  app.use(notFoundHandler);
  app.use(errorHandler(config.errorsBaseUrl));
  return app;
}
