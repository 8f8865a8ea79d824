export { createClient, type GathercastClient } from './client';
export type { ClientOptions } from './core';
export { GathercastConnectionError, GathercastError, type FieldError } from './errors';
export type * from '@gathercast/contract';
export {
  contract,
  errorCodes,
  webhookEventTypes,
  liveClientMessageSchema,
  liveServerMessageSchema,
} from '@gathercast/contract';
export {
  LiveConnection,
  LiveConnectionClosed,
  type LiveConnectOptions,
  type LiveServerMessageOf,
  type LiveWelcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live';
