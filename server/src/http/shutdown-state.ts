import type { RequestHandler } from 'express';

/**
 * Where the process is in a graceful shutdown, as the HTTP edge sees it (docs/deploy.md, "Restarts
 * without load-balancer retries"):
 * - `leavingRotation`: SIGTERM arrived; /readyz answers 503 so balancers stop sending new work, while
 *   every request and socket is still served as usual;
 * - `closing`: the balancers had their time; the listener is closed and every answer carries
 *   `Connection: close`, so no client or balancer reuses a connection that is about to go.
 */
export class ShutdownState {
  leavingRotation = false;
  closing = false;

  /** Mounted first: an answer given while closing ends its keep-alive connection. */
  closeConnections(): RequestHandler {
    return (_req, res, next) => {
      if (this.closing) res.setHeader('Connection', 'close');
      next();
    };
  }
}
