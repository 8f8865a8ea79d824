/**
 * Express middleware: `express.raw()` for the route, then `verifySync`.
 * Express is passed in, so it is never a dependency of this package.
 */
import { WebhookVerificationError } from './errors';
import { verifySync } from './node';
import type { VerifyOptions, WebhookEvent, WebhookHeaders, WebhookSecret } from './types';

declare global {
  namespace Express {
    interface Request {
      /** Set by `@gathercast/webhook-verifier/express` once the delivery verified. */
      webhookEvent?: WebhookEvent;
    }
  }
}

type Next = (error?: unknown) => void;

export interface WebhookRequest {
  headers: WebhookHeaders;
  body?: unknown;
  webhookEvent?: WebhookEvent;
}

export interface WebhookResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

type Handler<Req, Res> = (req: Req, res: Res, next: Next) => void;

/** The `express` module, or anything with a body-parser-compatible `raw()`. */
export interface ExpressLike {
  raw(options: { type: string; limit?: string | number }): Handler<never, never>;
}

export interface WebhookMiddlewareOptions extends VerifyOptions {
  secret: WebhookSecret;
  /** Largest accepted body (body-parser syntax). Default '1mb'. */
  limit?: string | number;
  /**
   * Answers a delivery that does not verify. Default: 400 with
   * `{"error":{"code","message"}}` (a 4xx is not retried by Gathercast).
   */
  onError?: (error: WebhookVerificationError, req: WebhookRequest, res: WebhookResponse, next: Next) => void;
}

function answer400(error: WebhookVerificationError, _req: WebhookRequest, res: WebhookResponse): void {
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ error: { code: error.code, message: error.message } }));
}

/**
 * `app.post('/webhooks', webhookMiddleware(express, { secret }), (req, res) => …req.webhookEvent…)`.
 * Mount the route before any `app.use(express.json())`, which would consume the raw body.
 */
export function webhookMiddleware<Req extends WebhookRequest, Res extends WebhookResponse>(
  express: ExpressLike,
  options: WebhookMiddlewareOptions,
): Handler<Req, Res> {
  if (typeof express?.raw !== 'function') {
    throw new TypeError(
      'webhookMiddleware(express, options): pass the express module (it needs express.raw)',
    );
  }
  const parseRaw = express.raw({
    type: 'application/json',
    limit: options.limit ?? '1mb',
  }) as unknown as Handler<Req, Res>;
  const onError = options.onError ?? answer400;
  return (req, res, next) => {
    parseRaw(req, res, (parseError) => {
      if (parseError) return next(parseError);
      const { body } = req;
      if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
        return next(
          new TypeError(
            'No raw body to verify: another body parser (express.json()?) consumed it before this route, or the content-type is not application/json.',
          ),
        );
      }
      try {
        req.webhookEvent = verifySync(body, req.headers, options.secret, options);
      } catch (error) {
        return error instanceof WebhookVerificationError ? onError(error, req, res, next) : next(error);
      }
      next();
    });
  };
}
