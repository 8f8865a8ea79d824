import type { WebSocket } from 'ws';
import { inTurns } from '../lib/in-turns';
import type { LiveConnection } from './connection';
import { TokenBucket } from './token-bucket';

/** How often every socket is pinged; one that has not answered the previous ping by then is dropped. */
export const pingIntervalMs = 30_000;

/** One keep-alive round over the process's sockets, in slices (see inTurns); a pong sets `alive` again. */
export function pingAll(sockets: readonly LiveConnection[]): Promise<void> {
  return inTurns(sockets, (conn) => {
    if (!conn.alive) {
      conn.ws.terminate();
      return;
    }
    conn.alive = false;
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.ping();
  });
}

/**
 * WebSocket pings a client may send: a burst of this many, then this many a second. The gateway
 * answers them itself (the ws package's own answering drops the socket without a close frame once
 * 60 pongs are pending, which a burst of pings in one read reaches at once); past the limit the socket
 * is closed with 1008 and the reason 'too many pings', logged and counted.
 */
export const pingBurst = 200;
export const pingsPerSecond = 10;

/** Answers each client ping with a pong, within the limit above; `flooded` runs once past it. */
export function answerPings(ws: WebSocket, flooded: () => void): void {
  const bucket = new TokenBucket(pingBurst, pingsPerSecond);
  let over = false;
  ws.on('ping', (data) => {
    if (over) return;
    if (bucket.take()) {
      ws.pong(data);
      return;
    }
    over = true;
    flooded();
  });
}
