import { liveCloseCodes } from '@gathercast/contract';
import type { LiveConnection } from './connection';

/**
 * A draining process moves its live sockets to the others (docs/deploy.md, "Restarts without load-balancer
 * retries"): closed with 1012 (service restart), which the SDK answers by reconnecting through the
 * balancer and resuming where it was. Closed in slices, one every `sliceEveryMs`, spread over the drain's
 * window, so the other processes take the audience in as a stream of joins rather than all at once.
 */
const sliceEveryMs = 100;
/** A client that does not answer the close frame is cut after this long. */
const closeHandshakeMs = 2000;
/** How long a moved participant's presence waits for its resume elsewhere before it leaves. */
export const resumeGraceMs = 3000;

export async function moveAway(sockets: LiveConnection[], overMs: number): Promise<void> {
  const slices = Math.max(1, Math.floor(overMs / sliceEveryMs));
  const size = Math.max(1, Math.ceil(sockets.length / slices));
  const closed: Promise<void>[] = [];
  for (let i = 0; i < sockets.length; i += size) {
    if (i > 0) await new Promise((r) => setTimeout(r, sliceEveryMs));
    for (const conn of sockets.slice(i, i + size)) closed.push(closeOne(conn));
  }
  await Promise.all(closed);
}

function closeOne(conn: LiveConnection): Promise<void> {
  return new Promise<void>((resolve) => {
    if (conn.closed) return resolve();
    conn.ws.once('close', () => resolve());
    conn.movedAway = true;
    conn.close(liveCloseCodes.serviceRestart, 'server restarting: resume elsewhere');
    setTimeout(() => {
      conn.ws.terminate();
      resolve();
    }, closeHandshakeMs).unref();
  });
}

/** Resolves when `done()` (held leaves go as resumes arrive) or after `ms`. */
export async function untilDone(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
