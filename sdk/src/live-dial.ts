import { liveCloseCodes } from '@gathercast/contract';
import type { LiveServerMessage } from './generated/api';
import { parseServerMessage } from './live-stream';
import {
  LiveConnectionClosed,
  type LiveWelcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live-types';

/** What a connection does with a socket once its handshake is over. */
export interface DialHandlers {
  /** The `welcome` arrived: adopt the socket and say true, or false when the connection was closed meanwhile. */
  welcomed(socket: WebSocketLike, welcome: LiveWelcome): boolean;
  /** Anything came from the gateway after the welcome (the heartbeat's sign of life). */
  heard(): void;
  /** A server message after the welcome. */
  message(message: LiveServerMessage): void;
  /** The socket closed after the welcome. */
  dropped(socket: WebSocketLike, code: number, reason: string): void;
}

/**
 * Opens one socket and waits for its `welcome`: resolves once `handlers.welcomed` adopted it; rejects
 * with a LiveConnectionClosed if it closes or says `error` before, if the connection was closed
 * meanwhile, or when no welcome came within `timeoutMs`. After the welcome the socket's messages and
 * its close go to `handlers`.
 */
export function dialSocket(
  Socket: WebSocketConstructor,
  url: string,
  timeoutMs: number,
  handlers: DialHandlers,
): Promise<void> {
  const socket = new Socket(url);
  return new Promise((resolve, reject) => {
    let welcomed = false;
    const timer = setTimeout(() => {
      // Given up: a welcome that still comes on this socket (a slow gateway) is not this connection's
      // any more, or a `resumed` would be reported for a socket that is closing while the next
      // attempt is already under way.
      socket.onmessage = null;
      socket.onclose = null;
      socket.close(liveCloseCodes.normal, 'no welcome');
      reject(new LiveConnectionClosed(1006, 'no welcome message in time'));
    }, timeoutMs);
    socket.onmessage = (event) => {
      if (welcomed) handlers.heard();
      const message = parseServerMessage(event.data);
      if (!message) return;
      if (welcomed) return handlers.message(message);
      if (message.type === 'welcome') {
        clearTimeout(timer);
        welcomed = true;
        if (!handlers.welcomed(socket, message)) {
          socket.close(liveCloseCodes.normal, '');
          return reject(new LiveConnectionClosed(liveCloseCodes.normal, 'closed by the client'));
        }
        resolve();
      } else if (message.type === 'error') {
        clearTimeout(timer);
        reject(
          new LiveConnectionClosed(liveCloseCodes.policyViolation, `${message.code}: ${message.detail}`),
        );
      }
    };
    socket.onclose = (event) => {
      clearTimeout(timer);
      if (welcomed) handlers.dropped(socket, event.code, event.reason);
      else reject(new LiveConnectionClosed(event.code, event.reason));
    };
    socket.onerror = () => {
      // onclose follows with the code and reason.
    };
  });
}
