import { type ErrorCode, errorCodes, type FieldErrorCode } from './generated/api';

/** One invalid field of a `bad_request`. */
export interface FieldError {
  /** The request part, then the field: `body.title`, `query.cursor`, `params.id`, `headers.idempotency-key`. */
  path: string;
  /** Stable: what is wrong (`required`, `too_long`, `invalid_enum`, …). */
  code: FieldErrorCode;
  /** For humans; the text may change. */
  message: string;
}

/**
 * Every stable `code` the API answers with, plus `unknown_error` for an answer that carried none this
 * SDK knows (a code added by a newer server, or a proxy's non-problem page: see `rawCode`).
 */
export type GathercastErrorCode = ErrorCode | 'unknown_error';

const knownCodes: ReadonlySet<string> = new Set(errorCodes);

/** What the SDK read from one problem answer. */
export interface ProblemAnswer {
  status: number;
  body: unknown;
  headers: Headers;
  /** Seconds from Retry-After, when the answer carried one. */
  retryAfter?: number;
}

/**
 * A problem+json answer from the API. Branch on `code` (stable) and `status`, or on the subclass;
 * `detail` is for humans. `rawCode` is the code exactly as the server sent it.
 */
export class GathercastError extends Error {
  override name = 'GathercastError';
  readonly status: number;
  readonly code: GathercastErrorCode;
  readonly rawCode: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly type: string | undefined;
  readonly errors: FieldError[] | undefined;
  /** Every field of the problem document, including any the SDK does not know yet. */
  readonly body: Record<string, unknown>;
  /** Seconds to wait before retrying, from Retry-After (429, and 409 for a key still in progress). */
  readonly retryAfter: number | undefined;
  readonly headers: Headers;

  constructor(answer: ProblemAnswer) {
    const body = (
      typeof answer.body === 'object' && answer.body !== null ? answer.body : {}
    ) as Record<string, unknown>;
    const rawCode = typeof body.code === 'string' ? body.code : `http_${answer.status}`;
    const detail = typeof body.detail === 'string' ? body.detail : String(answer.body ?? '');
    const requestId = answer.headers.get('x-request-id') ?? undefined;
    super(`${answer.status} ${rawCode}: ${detail}${requestId ? ` (request ${requestId})` : ''}`);
    this.status = answer.status;
    this.rawCode = rawCode;
    this.code = knownCodes.has(rawCode) ? (rawCode as ErrorCode) : 'unknown_error';
    this.detail = detail;
    this.requestId = requestId;
    this.type = typeof body.type === 'string' ? body.type : undefined;
    this.errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : undefined;
    this.body = body;
    this.retryAfter = answer.retryAfter;
    this.headers = answer.headers;
  }

  /** The subclass for the answer's family (authentication, permission, not found, …). */
  static from(answer: ProblemAnswer): GathercastError {
    const { status } = answer;
    if (status === 400 || status === 413) return new GathercastValidationError(answer);
    if (status === 401) return new GathercastAuthenticationError(answer);
    if (status === 403) return new GathercastPermissionError(answer);
    if (status === 404) return new GathercastNotFoundError(answer);
    if (status === 409) return new GathercastConflictError(answer);
    if (status === 429) return new GathercastRateLimitError(answer);
    if (status >= 500) return new GathercastServerError(answer);
    return new GathercastError(answer);
  }
}

/** 400 `bad_request` (with `errors[]` per field), `invalid_token`, `role_not_on_event`; 413. */
export class GathercastValidationError extends GathercastError {
  override name = 'GathercastValidationError';
}
/** 401: missing or wrong credentials (`unauthorized`, `invalid_credentials`, `sign_in_required`). */
export class GathercastAuthenticationError extends GathercastError {
  override name = 'GathercastAuthenticationError';
}
/** 403: the caller may not do this (`forbidden`, `csrf_rejected`). */
export class GathercastPermissionError extends GathercastError {
  override name = 'GathercastPermissionError';
}
/** 404 `not_found`. */
export class GathercastNotFoundError extends GathercastError {
  override name = 'GathercastNotFoundError';
}
/** 409: `invalid_state`, `conflict`, `slug_taken`, `event_full`, `idempotency_key_reused`, … */
export class GathercastConflictError extends GathercastError {
  override name = 'GathercastConflictError';
}
/** 429 `rate_limited`: `retryAfter` says how many seconds to wait. */
export class GathercastRateLimitError extends GathercastError {
  override name = 'GathercastRateLimitError';
}
/** 5xx: the server failed or is unavailable (already retried, except 501). */
export class GathercastServerError extends GathercastError {
  override name = 'GathercastServerError';
}

/** The request never got an HTTP answer (DNS, refused or dropped connection). */
export class GathercastConnectionError extends Error {
  override name = 'GathercastConnectionError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** No answer within the timeout (per attempt; every attempt timed out or failed). */
export class GathercastTimeoutError extends GathercastConnectionError {
  override name = 'GathercastTimeoutError';
}

/** The caller's `AbortSignal` fired; never retried. */
export class GathercastAbortError extends Error {
  override name = 'GathercastAbortError';
  constructor(readonly reason?: unknown) {
    super('The request was aborted');
  }
}
