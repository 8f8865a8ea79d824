import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { countConnectionRefusal } from '../lib/metrics';
import { isLoopback } from './client-address';
import { rawProblem } from './client-errors';

/**
 * At most `maxPerAddress` open connections per client address on the HTTP port (WebSockets included
 * while they are open): one address cannot hold the port's sockets and file descriptors (a slowloris
 * trickling headers on thousands of connections). One more is answered 429 `rate_limited`
 * (problem+json, `Retry-After: 1`) and closed before Node's HTTP parser sees it. The address is the
 * socket's peer: behind a proxy that is the proxy, so raise the cap there (docs/limits.md). A loopback
 * peer is not counted unless `capLoopback`: on the machine itself only a proxy (which caps its own
 * clients) or the operator connects, and counting it would cap a same-host proxy's whole audience.
 */
export function limitConnectionsPerAddress(
  server: Server,
  {
    maxConnectionsPerAddress: maxPerAddress,
    capLoopback,
  }: { maxConnectionsPerAddress: number; capLoopback: boolean },
  errorsBase: string,
  logger: Logger,
): void {
  const open = new Map<string, number>();
  // Node's own connection listener (the HTTP parser) runs only for connections under the cap.
  const nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (!capLoopback && isLoopback(address)) {
      for (const listener of nodeListeners) listener.call(server, socket);
      return;
    }
    const count = (open.get(address) ?? 0) + 1;
    if (count > maxPerAddress) {
      countConnectionRefusal('per_address');
      logger.debug({ maxPerAddress }, 'connection refused: too many open connections from one address');
      const body = JSON.stringify({
        type: `${errorsBase}/rate_limited`,
        code: 'rate_limited',
        detail: `Too many open connections from your address (at most ${maxPerAddress}); close some and retry`,
      });
      socket.on('error', () => {});
      socket.end(rawProblem(429, body, ['Retry-After: 1']));
      socket.resume();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    for (const listener of nodeListeners) listener.call(server, socket);
  });
}
