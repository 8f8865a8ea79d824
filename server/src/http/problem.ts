import type { ErrorCode } from '@gathercast/contract';
import { errorStatus } from '@gathercast/contract';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { ZodIssue } from 'zod';

export interface FieldError {
  path: string;
  message: string;
}

/** Thrown anywhere below a handler; the error middleware turns it into application/problem+json. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; retryAfterSeconds?: number; [k: string]: unknown } = {},
  ) {
    super(detail);
    this.status = errorStatus[code];
  }
}

export const problem = (code: ErrorCode, detail: string, extra?: ProblemError['extra']) =>
  new ProblemError(code, detail, extra);

export const notFound = (what = 'Resource') => problem('not_found', `${what} not found`);

export function fieldErrors(issues: ZodIssue[], prefix?: string): FieldError[] {
  return issues.map((i) => ({
    path: [prefix, ...i.path].filter((p) => p !== undefined && p !== '').join('.') || (prefix ?? '(root)'),
    message: i.message,
  }));
}

export function sendProblem(res: Response, errorsBase: string, err: ProblemError): void {
  const { retryAfterSeconds, ...extra } = err.extra;
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  res
    .status(err.status)
    .type('application/problem+json')
    .send(JSON.stringify({ type: `${errorsBase}/${err.code}`, code: err.code, detail: err.detail, ...extra }));
}

/** Unknown routes. */
export const notFoundHandler: RequestHandler = (req, _res, next) =>
  next(problem('not_found', `No route for ${req.method} ${req.path}`));

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
