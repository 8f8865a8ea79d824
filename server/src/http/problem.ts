import type { ErrorRequestHandler, Request, Response } from 'express';
import { ProblemError, problem, problemBody } from '../lib/problem';
import { setRateLimitHeaders } from './rate-limit-headers';
import { noteProblemCode } from './request-context';

/**
 * Renders domain errors (`lib/problem.ts`) as application/problem+json; nothing else here decides a code.
 * Every body carries the request id (`requestId`, the same as the `x-request-id` header), so a pasted
 * error is enough to find its log lines.
 */
export function sendProblem(res: Response, errorsBase: string, err: ProblemError): void {
  const { retryAfterSeconds, rateLimit, allow, ...extra } = err.extra;
  noteProblemCode(res, err.code);
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  if (rateLimit) setRateLimitHeaders(res, rateLimit);
  if (allow) res.setHeader('Allow', allow.join(', '));
  if (err.status === 401) res.setHeader('WWW-Authenticate', authenticateChallenge(res.req));
  const requestId = res.req?.id;
  res
    .status(err.status)
    .type('application/problem+json')
    .send(problemBody(errorsBase, err.code, err.detail, { ...extra, ...(requestId ? { requestId } : {}) }));
}

/**
 * The challenge of every 401: a Bearer session token or an API key in `x-api-key` (RFC 9110 §11.6.1).
 * A Bearer token that was sent and refused is named `invalid_token` (RFC 6750 §3.1).
 */
function authenticateChallenge(req: Request | undefined): string {
  const sentBearer = /^bearer\s/i.test(req?.header('authorization') ?? '');
  const bearer = sentBearer ? 'Bearer realm="gathercast", error="invalid_token"' : 'Bearer realm="gathercast"';
  return `${bearer}, ApiKey realm="gathercast", header="x-api-key"`;
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** The one error handler: problem errors as they are, body-parser errors mapped, everything else a logged 500. */
export function errorHandler(errorsBase: string): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.log?.error({ err }, 'error after the response started');
      res.destroy();
      return;
    }
    if (err instanceof ProblemError) return sendProblem(res, errorsBase, err);
    const bp = err as BodyParserError;
    if (bp?.type === 'entity.too.large') {
      return sendProblem(res, errorsBase, problem('payload_too_large', 'The request body is larger than 1 MiB'));
    }
    if (bp?.type === 'entity.parse.failed') {
      return sendProblem(res, errorsBase, problem('bad_request', 'The request body is not valid JSON'));
    }
    if (bp?.type === 'encoding.unsupported' || bp?.type === 'charset.unsupported') {
      return sendProblem(res, errorsBase, problem('bad_request', bp.message));
    }
    if (typeof bp?.status === 'number' && bp.status >= 400 && bp.status < 500) {
      return sendProblem(res, errorsBase, problem('bad_request', 'The request could not be read'));
    }
    req.log?.error({ err, requestId: req.id }, 'unhandled error');
    sendProblem(
      res,
      errorsBase,
      problem('internal_error', `Something went wrong on our side; quote request id ${req.id} when reporting it`),
    );
  };
}
