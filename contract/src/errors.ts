/**
 * Every stable error `code` the API answers with. Problem `type` URIs are `{errors_base}/<code>`.
 * Clients branch on the code and the HTTP status; `detail` text may change.
 */
export const errorCodes = [
  'bad_request',
  'role_not_on_event',
  'unauthorized',
  'invalid_credentials',
  'sign_in_required',
  'forbidden',
  'csrf_rejected',
  'not_found',
  'conflict',
  'slug_taken',
  'email_taken',
  'event_full',
  'invalid_state',
  'account_exists',
  'idempotency_key_reused',
  'invalid_token',
  'payload_too_large',
  'rate_limited',
  'internal_error',
  'not_implemented',
  'idp_not_configured',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The HTTP status each code is answered with. */
export const errorStatus: Record<ErrorCode, number> = {
  bad_request: 400,
  role_not_on_event: 400,
  invalid_token: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  sign_in_required: 401,
  forbidden: 403,
  csrf_rejected: 403,
  not_found: 404,
  conflict: 409,
  slug_taken: 409,
  email_taken: 409,
  event_full: 409,
  invalid_state: 409,
  account_exists: 409,
  idempotency_key_reused: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  idp_not_configured: 503,
  service_unavailable: 503,
};
