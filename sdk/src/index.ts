export { createClient, type GathercastClient } from './client';
export type { ClientOptions, RequestOptions } from './core';
export {
  type FieldError,
  GathercastAbortError,
  GathercastAuthenticationError,
  GathercastConflictError,
  GathercastConnectionError,
  GathercastError,
  type GathercastErrorCode,
  GathercastNotFoundError,
  GathercastPermissionError,
  GathercastRateLimitError,
  GathercastServerError,
  GathercastTimeoutError,
  GathercastValidationError,
} from './errors';
export type * from './generated/api';
export { errorCodes, webhookEventTypes } from './generated/api';
export {
  LiveConnection,
  LiveConnectionClosed,
  type LiveConnectionEvents,
  type LiveConnectOptions,
  type LiveEventName,
  type LivePayload,
  type LiveServerMessageOf,
  type LiveUrl,
  type LiveWelcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live';
export { APIPromise, type ApiResponse, PagePromise, type RateLimit } from './response';
export { VERSION } from './version';
export * from './webhooks';
