import { inTurns } from '../lib/in-turns';
import type { LiveConnection } from './connection';

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
