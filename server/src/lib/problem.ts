import type { ErrorCode, FieldErrorCode } from '@gathercast/contract';
import { errorStatus, problemTitle } from '@gathercast/contract';
import type { ZodIssue } from 'zod';
import type { RateLimitState } from './rate-limit-state';

/**
 * Domain errors. Any layer below the HTTP edge throws these; `http/problem.ts` is the only place that
 * renders them (as application/problem+json), so services stay free of HTTP.
 */
export interface FieldError {
  /** `body.title`, `query.cursor`, `params.id`, `headers.idempotency-key`: the request part, then the field. */
  path: string;
  code: FieldErrorCode;
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

/** 400 bad_request naming one invalid field (`body.url`, `query.cursor`, `headers.x-workspace-id`). */
export const invalidField = (
  path: string,
  code: FieldErrorCode,
  message: string,
  detail = `Invalid request: ${path}: ${message}`,
) => problem('bad_request', detail, { errors: [{ path, code, message }] });

/** The stable code of one zod issue (the contract's `fieldErrorCodes`). */
export function fieldErrorCode(issue: ZodIssue): FieldErrorCode {
  switch (issue.code) {
    case 'invalid_type':
      return issue.received === 'undefined' || (issue.received === 'null' && issue.expected !== 'null')
        ? 'required'
        : 'invalid_type';
    case 'too_big':
      return issue.type === 'string' || issue.type === 'array' || issue.type === 'set' ? 'too_long' : 'too_large';
    case 'too_small':
      return issue.type === 'string' || issue.type === 'array' || issue.type === 'set' ? 'too_short' : 'too_small';
    case 'invalid_enum_value':
    case 'invalid_union_discriminator':
      return 'invalid_enum';
    case 'invalid_string':
    case 'invalid_date':
      return 'invalid_format';
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      return 'invalid_value';
  }
}

export function fieldErrors(issues: ZodIssue[], prefix?: string): FieldError[] {
  return issues.map((i) => ({
    path: [prefix, ...i.path].filter((p) => p !== undefined && p !== '').join('.') || (prefix ?? '(root)'),
    code: fieldErrorCode(i),
    message: i.message,
  }));
}

/**
 * The one application/problem+json document (RFC 9457): `type` (the code's page under `errorsBase`,
 * or about:blank), `title`, `status`, then `code`, `detail` and any extension members.
 */
export function problemBody(
  errorsBase: string | undefined,
  code: ErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    type: errorsBase ? `${errorsBase}/${code}` : 'about:blank',
    title: problemTitle(code),
    status: errorStatus[code],
    code,
    detail,
    ...extra,
  });
}
