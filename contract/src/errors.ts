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
  'method_not_allowed',
  'conflict',
  'slug_taken',
  'email_taken',
  'event_full',
  'invalid_state',
  'account_exists',
  'idempotency_key_reused',
  'invalid_token',
  'payload_too_large',
  'unsupported_media_type',
  'request_timeout',
  'headers_too_large',
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
  method_not_allowed: 405,
  conflict: 409,
  slug_taken: 409,
  email_taken: 409,
  event_full: 409,
  invalid_state: 409,
  account_exists: 409,
  idempotency_key_reused: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  idp_not_configured: 503,
  service_unavailable: 503,
};

/** What each code means, for the API reference and the error pages. */
export const errorMeanings: Record<ErrorCode, string> = {
  bad_request: 'Malformed or missing input; `errors[]` names each invalid field.',
  role_not_on_event: 'The role has no place on this event; the detail lists the accepted roles.',
  unauthorized: 'No credentials, or a key or session that matches nothing (revoked, expired, unknown).',
  invalid_credentials: 'Wrong email or password.',
  sign_in_required: 'A signed-out caller asked for a gateway token for a call (meeting, breakout, rotation).',
  forbidden: 'Authenticated, but not allowed to do this.',
  csrf_rejected: 'A cookie-authenticated write came from an origin that is not allowed.',
  not_found: 'The resource does not exist, or belongs to another workspace (the two are indistinguishable).',
  method_not_allowed: 'The path exists, but not with this method; the Allow header lists the methods it takes.',
  conflict: 'The request conflicts with the current state.',
  slug_taken: 'Another workspace already uses this slug.',
  email_taken: 'An account already uses this email.',
  event_full: 'The event has reached its registration capacity.',
  invalid_state: 'The call is not allowed in the current lifecycle state.',
  account_exists: 'The guest JWT email belongs to an account: sign in instead.',
  idempotency_key_reused: 'The Idempotency-Key was used with a different request body.',
  invalid_token: 'The token is unknown, expired or already used.',
  payload_too_large: 'The request body is larger than 1 MiB.',
  unsupported_media_type: 'The request has a body that is not JSON; send Content-Type: application/json.',
  request_timeout: 'The request did not arrive in time; the connection is closed.',
  headers_too_large: 'The request line and headers together exceed 16 KiB.',
  rate_limited: 'Too many requests; wait for Retry-After seconds.',
  internal_error: 'A bug on our side; quote the request id.',
  not_implemented: 'This route is not available yet.',
  idp_not_configured: 'Identity-provider sign-in is not configured on this server.',
  service_unavailable: 'A dependency (the database, an identity provider, a partner key set) is unavailable; retry shortly.',
};

/**
 * The `code` of one `errors[]` entry of a `bad_request`: what is wrong with that field, stable like the
 * problem codes (the entry's `message` is for humans and may change).
 */
export const fieldErrorCodes = [
  'required',
  'invalid_type',
  'too_long',
  'too_short',
  'too_large',
  'too_small',
  'invalid_enum',
  'invalid_format',
  'invalid_value',
  'unknown_field',
  'invalid_text',
  'too_deep',
] as const;
export type FieldErrorCode = (typeof fieldErrorCodes)[number];

/** What each field code means, for the API reference and the error pages. */
export const fieldErrorMeanings: Record<FieldErrorCode, string> = {
  required: 'The field is missing (or null where a value is needed).',
  invalid_type: 'The value has the wrong JSON type (a number where a string belongs, …).',
  too_long: 'A string or a list longer than allowed.',
  too_short: 'A string or a list shorter than allowed (an empty string where text is needed).',
  too_large: 'A number or a date above the allowed range.',
  too_small: 'A number or a date below the allowed range.',
  invalid_enum: 'Not one of the allowed values; the message lists them.',
  invalid_format: 'A string in the wrong format (a UUID, a URL, an email, a date-time, …).',
  invalid_value: 'A value the field does not accept for another reason; the message says why.',
  unknown_field: 'A field this route does not take.',
  invalid_text: 'Text holding NUL (U+0000) or an unpaired UTF-16 surrogate.',
  too_deep: 'JSON nested deeper than 32 levels of objects and arrays.',
};

/** A problem's RFC 9457 `title`: its code in words (`invalid_state` → "Invalid state"), the same for every occurrence. */
export const problemTitle = (code: string): string => `${code.charAt(0).toUpperCase()}${code.slice(1).replace(/_/g, ' ')}`;
