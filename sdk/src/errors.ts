/** One invalid field of a `bad_request`. */
export interface FieldError {
  path: string;
  message: string;
}

/** A problem+json answer from the API. Branch on `code` (stable) and `status`; `detail` is for humans. */
export class GathercastError extends Error {
  override readonly name = 'GathercastError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId: string | undefined,
    readonly type: string | undefined,
    readonly errors: FieldError[] | undefined,
    /** Every field of the problem document, including any the SDK does not know yet. */
    readonly body: Record<string, unknown>,
    /** Seconds to wait before retrying, from Retry-After (429). */
    readonly retryAfter?: number,
  ) {
    super(`${status} ${code}: ${detail}${requestId ? ` (request ${requestId})` : ''}`);
  }
}

/** The request never got an HTTP answer (DNS, refused connection, abort). */
export class GathercastConnectionError extends Error {
  override readonly name = 'GathercastConnectionError';
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
  }
}
