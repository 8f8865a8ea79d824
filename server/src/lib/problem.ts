import type { ErrorCode } from '@gathercast/contract';
import { errorStatus } from '@gathercast/contract';
import type { ZodIssue } from 'zod';
import type { RateLimitState } from './rate-limit-state';

/**
 * Domain errors. Any layer below the HTTP edge throws these; `http/problem.ts` is the only place that
 * renders them (as application/problem+json), so services stay free of HTTP.
 */
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
    readonly extra: {
      errors?: FieldError[];
      retryAfterSeconds?: number;
      /** Rendered as RateLimit-* headers, not in the body. */
      rateLimit?: RateLimitState;
      /** Rendered as the Allow header (405), not in the body. */
      allow?: string[];
      [k: string]: unknown;
    } = {},
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
