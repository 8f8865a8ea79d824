import type { LiveServerMessage } from './generated/api';
import type { HeartbeatOptions, ReconnectOptions } from './live-reconnect';

/** The live connection's public types, and the error it ends with. */

export type LiveServerMessageOf<T extends LiveServerMessage['type']> = Extract<
  LiveServerMessage,
  { type: T }
>;
export type LiveWelcome = LiveServerMessageOf<'welcome'>;

/** The part of the WHATWG WebSocket this client uses (browsers, Deno, Node 22+, or the `ws` package). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onerror: Handler<unknown> | null;
}

/**
 * An event handler property, compared bivariantly (as methods are), so an implementation whose handlers
 * take a richer event type than these fits as it is typed: the `ws` package's `WebSocket` (its
 * `MessageEvent` has `type` and `target` too) as well as the DOM's.
 */
type Handler<E> = { handle(event: E): void }['handle'];
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveConnectOptions {
  /**
   * The WebSocket implementation; defaults to `globalThis.WebSocket`. On Node 20 pass the `ws`
   * package's `WebSocket`.
   */
  WebSocket?: WebSocketConstructor;
  /** How long `open` waits for the `welcome` message (default 10 s). */
  timeoutMs?: number;
  /**
   * Reconnecting after a dropped socket (on by default): exponential backoff from `initialDelayMs`
   * (default 250) doubling up to `maxDelayMs` (default 10 000), each delay jittered down by up to half;
   * each attempt waits up to `welcomeTimeoutMs` (default 30 000) for its welcome.
   * `false`: a dropped socket closes the connection.
   */
  reconnect?: false | ReconnectOptions;
  /**
   * Noticing a socket that died silently (a network that drops packets sends no close): after
   * `intervalMs` (default 10 000) without any message the client sends `ping`, and with no answer
   * within `timeoutMs` (default 5 000) it treats the socket as dropped and reconnects. `false`: off.
   */
  heartbeat?: false | HeartbeatOptions;
}

/** A gateway URL (`{ url }` of a gateway token), or a function that gets a fresh one for each reconnect. */
export type LiveUrl = string | (() => string | Promise<string>);

/** What happens to the connection itself, besides server messages (`on(name, listener)`). */
export interface LiveConnectionEvents {
  /** Every server message handed on, in order (after the type's own listeners). */
  message: LiveServerMessage;
  /** The socket dropped; the connection is reconnecting. */
  disconnected: { code: number; reason: string };
  /** Reconnected and resumed: the `replayed` messages missed since `after` follow, then live ones. */
  resumed: { after: number; replayed: number; downtimeMs: number };
  /**
   * Reconnected without resuming (the history no longer held the gap, or the window had passed): the
   * messages between `after` and `lastSeq` are lost; a fresh state snapshot follows.
   */
  reset: { reason: 'resume_failed' | 'window_elapsed'; after: number; lastSeq: number; downtimeMs: number };
}

/** What `on` and `next` take: a server message type or a connection event. */
export type LiveEventName = LiveServerMessage['type'] | keyof LiveConnectionEvents;
export type LivePayload<T extends LiveEventName> = T extends keyof LiveConnectionEvents
  ? LiveConnectionEvents[T]
  : T extends LiveServerMessage['type']
    ? LiveServerMessageOf<T>
    : never;

/** The gateway closed the socket, or refused it before `welcome`. */
export class LiveConnectionClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`live gateway closed the connection (${code}${reason ? `: ${reason}` : ''})`);
    this.name = 'LiveConnectionClosed';
  }
}
