import { inTurns } from '../lib/in-turns';
import type { LiveConnection } from './connection';

/** How often every socket is pinged; one that has not answered the previous ping by then is dropped. */
export const pingIntervalMs = 30_000;
/** Sockets pinged per turn of the event loop: a host's message waits for one slice, not for all (see inTurns). */
const socketsPerTurn = 500;

/** One keep-alive round over the process's sockets (the pong handler sets `alive` again). */
export function pingAll(sockets: readonly LiveConnection[]): Promise<void> {
  return inTurns(sockets, socketsPerTurn, (conn) => {
    if (!conn.alive) {
      conn.ws.terminate();
      return;
    }
    conn.alive = false;
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.ping();
  });
}
