export { createClient, type GathercastClient } from './client';
export type { ClientOptions, RequestOptions } from './core';
export {
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
  type FieldError,
} from './errors';
export { APIPromise, type ApiResponse, PagePromise, type RateLimit } from './response';
export { VERSION } from './version';
export type * from './generated/api';
export { errorCodes, webhookEventTypes } from './generated/api';
export type { Events } from './resources/events';
export {
  LiveConnection,
  LiveConnectionClosed,
  type LiveConnectOptions,
  type LiveConnectionEvents,
  type LiveEventName,
  type LivePayload,
  type LiveUrl,
  type LiveServerMessageOf,
  type LiveWelcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live';
export * from './webhooks';
